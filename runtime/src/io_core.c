#define _GNU_SOURCE
#include "io_core.h"
#include "io_data_call.h"

#include "clock.h"
#include "compact_writer.h"
#include "event_record.h"
#include "event_format.h"
#include "fd_position.h"
#include "file_system.h"
#include "node_info.h"
#include "io_filter.h"
#include "io_real.h"
#include "pages.h"
#include "span_close.h"
#include "writer.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

unsigned dftracer_io_layers_;
uint64_t *dftracer_fd_hash_;
unsigned dftracer_fd_limit_;
uintptr_t dftracer_mem_align_mask_ = DftMemAlignmentDefault - 1;

/* Descriptors above this are not tracked (the table is virtual memory, and
 * only the pages of descriptors in use are ever touched). */
enum { MaxTrackedFds = 1 << 20, MinTrackedFds = 1024 };

/* Paths seen by this process: an open-addressed set keyed by hash, read
 * without the lock, written under it. Past 3/4 full a path is no longer
 * remembered and its FH line is repeated at each sight, which readers
 * accept. */
enum { PathSlots = 1 << 18 };
struct pathEntry {
  uint64_t Hash; /* 0: empty; published last, with release */
  const char *Path;
  size_t Len;
  const char *Fs; /* its FS record's args (file_system.h), or NULL */
};
static struct pathEntry *Paths;
static unsigned PathCount;
static int ReplayPending; /* a forked child has not named them yet */

/* The first sight of a path may be in a signal handler that interrupted
 * malloc, so nothing here allocates with it (pages.h). Under the lock: the
 * FH line is formatted in FhLine[0] (room for any path absolute_path
 * returns) and the path's copy taken from the pages of PathText. Writing
 * that line may open the trace file, which writes the replayed lines of a
 * forked child first: they use FhLine[1]. */
static char *FhLine[2];
static size_t FhLineCap;
static struct dftracer_text_store PathText;

extern void dftracer_span_finish_io_(struct dftracer_thread *T,
                                     struct dftracer_span *S, uint64_t EndUs);
extern void
dftracer_span_finish_io_args_(struct dftracer_thread *T, struct dftracer_span *S,
                              uint64_t EndUs,
                              const struct dftracer_record_io_args *Io);
extern uint64_t dftracer_take_id_(void);

const char dftracer_cat_posix_[] = "POSIX", dftracer_cat_stdio_[] = "STDIO",
           dftracer_cat_mpiio_[] = "MPIIO", dftracer_cat_hdf5_[] = "HDF5";

void dftracer_fd_clear_range(unsigned First, unsigned Last) {
  unsigned Fd;
  for (Fd = First; Fd <= Last && Fd < dftracer_fd_limit_; ++Fd)
    if (__atomic_load_n(&dftracer_fd_hash_[Fd], __ATOMIC_RELAXED))
      __atomic_store_n(&dftracer_fd_hash_[Fd], 0, __ATOMIC_RELAXED);
}

static int seen(uint64_t Hash) {
  unsigned I = (unsigned)Hash & (PathSlots - 1);
  uint64_t H;
  if (!Paths)
    return 0;
  while ((H = __atomic_load_n(&Paths[I].Hash, __ATOMIC_ACQUIRE)) != 0) {
    if (H == Hash)
      return 1;
    I = (I + 1) & (PathSlots - 1);
  }
  return 0;
}

/* Output the FH line of Path: to the sink when replaying, else to the
 * writer. Caller holds the lock. */
static void outputFhLocked(const char *Path, size_t PathLen, uint64_t Hash,
                           const char *Fs, int Replay) {
  struct dftracer_process *P = &dftracer_process_;
  char *Line = FhLine[Replay], *End;
  const char *FsLine;
  size_t FsLen = 0;
  if (dftracer_fh_line_bound(PathLen) > FhLineCap)
    return; /* not from absolute_path, or no memory at load */
  End = dftracer_format_fh(Line, dftracer_take_id_(), P->Pid,
                           (int)syscall(SYS_gettid), Path, PathLen, Hash);
  FsLine = dftracer_fs_line_locked(Hash, Fs, Replay, &FsLen);
  if (Replay) {
    dftracer_sink_write(&P->Sink, Line, (size_t)(End - Line));
    if (FsLine)
      dftracer_sink_write(&P->Sink, FsLine, FsLen);
  } else {
    dftracer_writer_output_locked(Line, (size_t)(End - Line));
    if (FsLine)
      dftracer_writer_output_locked(FsLine, FsLen);
  }
}

/* Caller holds the lock. */
static void rememberLocked(uint64_t Hash, const char *Path, size_t Len,
                           const char *Fs) {
  unsigned I = (unsigned)Hash & (PathSlots - 1);
  char *Copy;
  if (!Paths || PathCount >= PathSlots / 4 * 3 ||
      !(Copy = dftracer_text_copy(&PathText, Path, Len)))
    return;
  while (Paths[I].Hash != 0)
    I = (I + 1) & (PathSlots - 1);
  Paths[I].Path = Copy;
  Paths[I].Len = Len;
  Paths[I].Fs = Fs;
  __atomic_store_n(&Paths[I].Hash, Hash, __ATOMIC_RELEASE);
  ++PathCount;
}

/* The hash of the absolute, clean path Abs when it is traced, else 0;
 * writes its FH line on first sight. */
static uint64_t notePath(const char *Abs, size_t Len) {
  struct dftracer_process *P = &dftracer_process_;
  uint64_t Hash;
  int Busy;
  if (!dftracer_io_filter_match(Abs, Len))
    return 0;
  Hash = dftracer_io_path_hash_of(Abs, Len);
  if (DFT_LIKELY(seen(Hash)))
    return Hash;
  Busy = dftracer_busy_enter();
  pthread_mutex_lock(&P->Lock);
  if (!seen(Hash)) {
    /* Output before it is marked seen: a thread that finds it seen then
     * writes its event after this line reached the writer. */
    const char *Fs = dftracer_fs_describe_locked(Abs, Len);
    outputFhLocked(Abs, Len, Hash, Fs, 0);
    rememberLocked(Hash, Abs, Len, Fs);
  }
  pthread_mutex_unlock(&P->Lock);
  dftracer_busy_leave(Busy);
  return Hash;
}

uint64_t dftracer_io_path_hash(int DirFd, const char *Path) {
  char Abs[DftPathMax];
  /* Runs before the real call, whose success leaves errno alone: neither a
   * failed getcwd or readlink (a removed current directory) nor the FH
   * line's allocation may show in it. */
  int Saved = errno;
  size_t Len = dftracer_io_absolute_path(DirFd, Path, Abs);
  uint64_t Hash = Len ? notePath(Abs, Len) : 0;
  errno = Saved;
  return Hash;
}

void dftracer_io_replay_paths_locked(void) {
  unsigned I;
  if (!ReplayPending || !Paths)
    return;
  ReplayPending = 0;
  for (I = 0; I < PathSlots; ++I)
    if (Paths[I].Hash)
      outputFhLocked(Paths[I].Path, Paths[I].Len, Paths[I].Hash, Paths[I].Fs,
                     1);
}

void dftracer_io_after_fork(void) { ReplayPending = 1; }

/* The trace file is open (each process's, a forked child's too): what the
 * I/O events in it are read against goes first. The alignment their
 * `mem_align` args are relative to, as a CM record; then, in a forked
 * child, its parent's paths. */
static void traceOpenedLocked(void) {
  struct dftracer_process *P = &dftracer_process_;
  char Line[512], Value[24], *End; /* the line bound: 382 */
  *dftracer_put_u64(Value, (uint64_t)(dftracer_mem_align_mask_ + 1)) = '\0';
  End = dftracer_format_metadata(Line, dftracer_take_id_(), P->Pid,
                                 (int)syscall(SYS_gettid), "mem_alignment",
                                 Value);
  dftracer_sink_write(&P->Sink, Line, (size_t)(End - Line));
  dftracer_io_replay_paths_locked();
}

/* The thread's first traced call: its state is made (which may allocate,
 * and must leave errno alone). */
static __attribute__((noinline)) struct dftracer_thread *firstCall(void) {
  int Saved = errno, Busy = dftracer_busy_enter();
  struct dftracer_thread *T = dftracer_thread_get();
  dftracer_busy_leave(Busy);
  errno = Saved;
  return T;
}

/* Nothing here sets errno once the thread has its state: the clock reads
 * no system call that fails, the stack and ids are the thread's memory.
 * The general START: a thread's first call, an id block to refill, a
 * clock read that needs a call (no TSC, or its anchor to renew). */
__attribute__((noinline)) int
dftracer_io_begin_general_(struct dftracer_io_call *C, const char *Cat,
                           const char *Name, uint64_t Fhash) {
  struct dftracer_thread *T = dftracer_thread_peek();
  int Busy;
  if (DFT_UNLIKELY(!T) && !(T = firstCall()))
    return 0;
  Busy = dftracer_busy_enter();
  dftracer_thread_push_span(T, &C->Span, Name, Cat,
                            dftracer_name_slot(T, Name));
  C->T = T;
  C->Fhash = Fhash;
  /* Read while busy: a signal handler's call after this nests under a
   * span whose start is set. */
  C->Span.StartUs = dftracer_now_us(&T->Clock);
  dftracer_busy_leave(Busy);
  return 1;
}

/* The START of every other wrapper: the data calls' own, out of line. */
int dftracer_io_begin_cat(struct dftracer_io_call *C, const char *Cat,
                          const char *Name, uint64_t Fhash) {
  return dftracer_io_begin_fast(C, Cat, Name, Fhash);
}

/* Step 5: the args go into the span's record as they are
 * (event_record.h), in both formats. What may set errno (a full buffer
 * handed over, a name seen first) keeps it, in tracer.c. */
static inline __attribute__((always_inline)) void
endRecord(struct dftracer_io_call *C, const struct dftracer_io_arg *Args,
          int Count) {
  struct dftracer_thread *T = C->T;
  struct dftracer_record_io_args Io;
  const struct dftracer_name_entry *E;
  uint32_t NIo;
  uint64_t EndUs;
  Io.Fhash = C->Fhash;
  Io.Args = Args;
  Io.Count = Count;
  NIo = dftracer_record_io_count(&Io);
  E = dftracer_fast_entry(T, &C->Span, NIo);
  EndUs = dftracer_now_us(&T->Clock);
  if (DFT_LIKELY(E != NULL)) /* the record lives in the wrapper's frame */
    dftracer_fast_close(T, &C->Span, E, EndUs, &Io, NIo);
  else
    dftracer_span_finish_io_args_(T, &C->Span, EndUs, &Io);
}

/* The two forms of step 5, specialised: the string test costs the usual
 * events nothing. */
static inline __attribute__((always_inline)) void
endEvent(struct dftracer_io_call *C, const struct dftracer_io_arg *Args,
         int Count) {
  /* Busy before the clock: a signal handler's call after the end was read
   * must not nest under this span. */
  int Busy = dftracer_busy_enter();
  endRecord(C, Args, Count);
  dftracer_busy_leave(Busy);
}

void dftracer_io_end(struct dftracer_io_call *C,
                     const struct dftracer_io_arg *Args, int Count) {
  endEvent(C, Args, Count);
}

/* The same: string args are the runtime's literals (io_args.h), which the
 * writer formats from the record. */
void dftracer_io_end_strings(struct dftracer_io_call *C,
                             const struct dftracer_io_arg *Args, int Count) {
  endEvent(C, Args, Count);
}

/* dftracer_io_end_data's args as an array, the keys of its line in its
 * order, for the general END at EndUs (the fast one stores them in place,
 * in the same order). */
static __attribute__((noinline)) void
endDataGeneral(struct dftracer_io_call *C, uint64_t EndUs, unsigned Shape,
               int64_t Fd, int64_t Size, int64_t Count, int64_t Offset,
               int Append, int64_t Ret, int64_t MemAlign) {
  struct dftracer_record_io_args Io;
  struct dftracer_io_arg Args[7];
  int N = 0;
  Args[N++] = (struct dftracer_io_arg)DFT_ARG(fd, Fd);
  if (Shape == DftDataStream)
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(size, Size);
  if (Shape == DftDataVector)
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(iovcnt, Count);
  else
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(count, Count);
  if (Offset >= 0 || Shape == DftDataAt)
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(offset, Offset);
  if (Append)
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(append, 1);
  Args[N++] = (struct dftracer_io_arg)DFT_ARG(ret, Ret);
  if (MemAlign)
    Args[N++] = (struct dftracer_io_arg)DFT_ARG(mem_align, MemAlign);
  Io.Fhash = C->Fhash;
  Io.Args = Args;
  Io.Count = N;
  dftracer_span_finish_io_args_(C->T, &C->Span, EndUs, &Io);
}

/* The usual data call: its args stored straight into the record, in
 * endDataGeneral's order after the fhash (event_record.h), with no array
 * built and copied (issue 40); any other END takes endDataGeneral. Inline
 * in each entry point, so that a constant Shape leaves no test. */
static inline __attribute__((always_inline)) void
endData(struct dftracer_io_call *C, unsigned Shape, int64_t Fd, int64_t Size,
        int64_t Count, int64_t Offset, int Append, int64_t Ret,
        uintptr_t BufAddr) {
  int Busy = dftracer_busy_enter();
  struct dftracer_thread *T = C->T;
  int64_t MemAlign = dftracer_mem_align(BufAddr);
  uint32_t NIo = dataArgCount(C, Shape, Offset, Append, MemAlign);
  const struct dftracer_name_entry *E = dftracer_fast_entry(T, &C->Span, NIo);
  uint64_t EndUs = dftracer_now_us(&T->Clock);
  if (DFT_LIKELY(E != NULL)) {
    uint64_t Dur = dftracer_span_dur(&C->Span, EndUs);
    char *Out = dftracer_fast_head(T, &C->Span, E, Dur, NIo);
    Out = putDataArgs(Out, C, Shape, Fd, Size, Count, Offset, Append, Ret,
                      MemAlign);
    dftracer_fast_done(T, &C->Span, Out, Dur);
  } else {
    endDataGeneral(C, EndUs, Shape, Fd, Size, Count, Offset, Append, Ret,
                   MemAlign);
  }
  dftracer_busy_leave(Busy);
}

/* endData out of line: the END of a data call that needs a call (the
 * general path, a clock read through the kernel or a new anchor). */
__attribute__((noinline)) void
dftracer_io_end_data_calling_(struct dftracer_io_call *C, unsigned Shape,
                              int64_t Fd, int64_t Size, int64_t Count,
                              int64_t Offset, int Append, int64_t Ret,
                              uintptr_t BufAddr) {
  endData(C, Shape, Fd, Size, Count, Offset, Append, Ret, BufAddr);
}

void dftracer_io_end_data(struct dftracer_io_call *C, unsigned Shape,
                          int64_t Fd, int64_t Size, int64_t Count,
                          int64_t Offset, int Append, int64_t Ret,
                          uintptr_t BufAddr) {
  dftracer_io_end_data_fast(C, Shape, Fd, Size, Count, Offset, Append, Ret,
                            BufAddr);
}

void dftracer_io_set_data_dirs(const char *DataDirs) {
  if (!dftracer_process_.Config.DataDir[0] && DataDirs && *DataDirs)
    dftracer_io_filter_set(DataDirs);
}

/* Each layer's object (and vfork's) holds one of these. Referring to them
 * from here makes a link against the static archive take every layer along
 * with the core (an archive member is linked only when something refers to
 * it), so HDF5's MPI-IO calls are traced in a program that makes none. */
extern const char dftracer_posix_layer_[], dftracer_aio_layer_[],
    dftracer_stdio_layer_[], dftracer_hdf5_layer_[], dftracer_vfork_object_[];
#ifdef DFTRACER_HAVE_MPIIO
extern const char dftracer_mpiio_layer_[];
#endif
const char *const volatile dftracer_io_layer_objects_[] DFT_HIDDEN = {
    dftracer_posix_layer_, dftracer_aio_layer_,    dftracer_stdio_layer_,
    dftracer_hdf5_layer_,  dftracer_vfork_object_,
#ifdef DFTRACER_HAVE_MPIIO
    dftracer_mpiio_layer_,
#endif
};

void dftracer_io_load(void) { dftracer_real_resolve_all(); }

void dftracer_io_setup(void) {
  struct dftracer_process *P = &dftracer_process_;
  struct rlimit Limit;
  rlim_t Fds = MaxTrackedFds;
  dftracer_writer_on_open(traceOpenedLocked);
  if (getrlimit(RLIMIT_NOFILE, &Limit) == 0 && Limit.rlim_max < Fds)
    Fds = Limit.rlim_max < MinTrackedFds ? MinTrackedFds : Limit.rlim_max;
  dftracer_fd_hash_ = (uint64_t *)calloc((size_t)Fds, sizeof(uint64_t));
  Paths = (struct pathEntry *)calloc(PathSlots, sizeof(struct pathEntry));
  FhLine[0] = (char *)malloc(2 * dftracer_fh_line_bound(DftPathMax));
  if (!dftracer_fd_hash_ || !Paths || !FhLine[0])
    return; /* no memory: no I/O events */
  FhLineCap = dftracer_fh_line_bound(DftPathMax);
  FhLine[1] = FhLine[0] + FhLineCap;
  dftracer_fd_limit_ = (unsigned)Fds;
  dftracer_fd_position_setup((unsigned)Fds);
  dftracer_fs_setup();
  dftracer_node_setup();
  if (P->Config.DataDir[0])
    dftracer_io_filter_set(P->Config.DataDir);
  dftracer_mem_align_mask_ = (uintptr_t)P->Config.MemAlignment - 1;
  dftracer_io_layers_ = P->Config.IoLayers;
}
