#define _GNU_SOURCE /* strerrorname_np */
#include "budget.h"

#include "clock.h"
#include "event_format.h"
#include "internal.h"
#include "json_writer.h"
#include "throttle.h"
#include "thread_state.h"
#include "writer.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h> /* statfs: one system call (statvfs may read /proc) */
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

int dftracer_trace_stopped_;

/* Guarded by the process lock, except where the writer thread records a
 * write error: then Stopped is claimed first with a compare-and-swap, and
 * whoever wins fills the rest (read only at the end, after the writer has
 * stopped). */
static struct {
  int LimitSet;       /* DFTRACER_MAX_TRACE_SIZE was given */
  int Known;          /* ... or the default computed */
  uint64_t Limit;     /* bytes; 0: none */
  uint64_t Configured;
  unsigned LocalRanks;
  uint64_t Written;   /* at the stop */
  uint64_t StopUs;
  int Error;          /* errno of a write error */
} B;

/* Where lines stay before they reach the sink: each thread's buffer, and
 * the writer's side buffer. */
enum { ChunkSlack = DFTRACER_CHUNK_BYTES, RecordSlack = 4096 };

static unsigned envCount(const char *Var) {
  const char *Text = getenv(Var);
  char *End;
  unsigned long N;
  if (!Text || !*Text)
    return 0;
  N = strtoul(Text, &End, 10);
  return *End || N == 0 || N > 1u << 20 ? 0 : (unsigned)N;
}

void dftracer_budget_setup(const struct dftracer_config *Config) {
  int Saved = errno;
  B.LimitSet = Config->MaxTraceSizeSet;
  B.Configured = Config->MaxTraceSize;
  B.Limit = B.LimitSet ? B.Configured : 0;
  /* Hydra (MPICH) and Open MPI name the ranks sharing this node. */
  B.LocalRanks = envCount("MPI_LOCALNRANKS");
  if (!B.LocalRanks)
    B.LocalRanks = envCount("OMPI_COMM_WORLD_LOCAL_SIZE");
  if (!B.LocalRanks)
    B.LocalRanks = 1;
  errno = Saved;
}

static void defaultLimit(const struct statfs *Fs) {
  uint64_t Unit = Fs->f_frsize ? (uint64_t)Fs->f_frsize : (uint64_t)Fs->f_bsize;
  B.Limit = (uint64_t)Fs->f_bavail * Unit / 4 / B.LocalRanks;
  B.Known = 1;
}

void dftracer_budget_opened_locked(int Fd) {
  struct statfs Fs;
  int Saved = errno;
  if (!B.LimitSet && fstatfs(Fd, &Fs) == 0)
    defaultLimit(&Fs);
  errno = Saved;
}

/* The first buffer is handed over before the file is created (which
 * writes it): the default comes from the prefix's directory then. */
static void limitFromPrefix(void) {
  char Dir[sizeof(dftracer_process_.Config.LogPrefix)];
  char *Slash;
  struct statfs Fs;
  int Saved = errno;
  strcpy(Dir, dftracer_process_.Config.LogPrefix);
  Slash = strrchr(Dir, '/');
  if (Slash)
    Slash[Slash == Dir] = '\0'; /* "/trace" -> "/" */
  else
    strcpy(Dir, ".");
  if (statfs(Dir, &Fs) == 0)
    defaultLimit(&Fs);
  errno = Saved;
}

/* stderr, once, with one write system call: this may run in a signal
 * handler (a traced write() that filled the buffer). */
static void sayStopped(uint64_t Limit) {
  char Num[DFTRACER_JSON_INT_BOUND + 1];
  const char *Path = dftracer_process_.Sink.Path[0]
                         ? dftracer_process_.Sink.Path
                         : dftracer_process_.Config.LogPrefix; /* not yet */
  const char *Parts[] = {"dftracer: trace '", Path,
                         "' reached its size limit of ", Num,
                         B.LimitSet ? " bytes (DFTRACER_MAX_TRACE_SIZE)"
                                    : " bytes (a quarter of the free space "
                                      "at start; DFTRACER_MAX_TRACE_SIZE "
                                      "sets it)",
                         "; calls are only counted from now on (its "
                         "`throttled` lines), the program goes on\n"};
  struct iovec Iov[sizeof(Parts) / sizeof(Parts[0])];
  size_t I;
  *dftracer_put_u64(Num, Limit) = '\0';
  for (I = 0; I < sizeof(Parts) / sizeof(Parts[0]); ++I) {
    Iov[I].iov_base = (void *)Parts[I];
    Iov[I].iov_len = strlen(Parts[I]);
  }
  (void)syscall(SYS_writev, STDERR_FILENO, Iov, (int)I);
}

void dftracer_budget_check_locked(uint64_t FileBytes) {
  struct dftracer_thread *T;
  uint64_t Room = ChunkSlack + RecordSlack;
  int Expected = 0;
  if (!B.LimitSet && !B.Known)
    limitFromPrefix();
  if (B.Limit == 0 ||
      __atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED))
    return;
  /* What may still come: every thread's buffer, the records. */
  for (T = __atomic_load_n(&dftracer_process_.Threads, __ATOMIC_ACQUIRE); T;
       T = T->NextThread)
    Room += ChunkSlack;
  Room += dftracer_throttle_output_bound();
  if (FileBytes + Room < B.Limit)
    return;
  if (!__atomic_compare_exchange_n(&dftracer_trace_stopped_, &Expected,
                                   (int)DftReasonSizeLimit, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return; /* a write error came first */
  B.Written = FileBytes;
  B.StopUs = dftracer_monotonic_us();
  sayStopped(B.Limit);
}

void dftracer_budget_write_error(int Err, uint64_t Written) {
  int Expected = 0;
  if (!__atomic_compare_exchange_n(&dftracer_trace_stopped_, &Expected,
                                   (int)DftReasonWriteError, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    return;
  B.Error = Err;
  B.Written = Written;
  B.StopUs = dftracer_monotonic_us();
}

void dftracer_budget_output_locked(int Pid, int Tid) {
  int Reason = __atomic_load_n(&dftracer_trace_stopped_, __ATOMIC_RELAXED);
  char Line[DftTraceStoppedBound], *End;
  const char *Error = NULL;
  if (!Reason)
    return;
  if (Reason == DftReasonWriteError)
    Error = strerrorname_np(B.Error) ? strerrorname_np(B.Error) : "EIO";
  End = dftracer_format_trace_stopped(
      Line, dftracer_take_id_(), Pid, Tid,
      Reason == DftReasonWriteError ? "write_error" : "size_limit", B.Limit,
      B.Written, B.StopUs, Error);
  dftracer_writer_output_locked(Line, (size_t)(End - Line));
}

void dftracer_budget_reset(void) {
  __atomic_store_n(&dftracer_trace_stopped_, 0, __ATOMIC_RELAXED);
  B.Limit = B.LimitSet ? B.Configured : 0;
  B.Known = 0;
  B.Written = B.StopUs = 0;
  B.Error = 0;
}
