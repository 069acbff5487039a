/*===- io_core.h - What every I/O layer shares ----------------------------===*
 *
 * A wrapper (posix.c, stdio.c, mpiio.c, hdf5.c) does, in this order:
 *
 *   1. dftracer_io_on(Layer): tracing on, layer on, and this thread is not
 *      inside the runtime. With tracing off this is one load and a branch.
 *   2. The file's hash: from the descriptor table (dftracer_fd_get) or, for
 *      calls that take a path, dftracer_io_path_hash, which applies the
 *      filter (io_filter.h) and writes the path's FH line the first time
 *      the process sees it. 0: not traced; call the real function only.
 *   3. dftracer_io_begin: push a span on the thread's stack (the one the
 *      annotated functions use, so the call nests under them), read the
 *      clock.
 *   4. The real call (io_real.h).
 *   5. DFT_IO_END: read the clock, copy the args into the span's record
 *      as they are (io_args.h, event_record.h; the writer thread formats
 *      or encodes it), pop: span_close.h's fast END when it can.
 *
 * Steps 3 and 5 leave errno as the real call set it, and mark the thread
 * busy while they run: a signal handler that does I/O in the middle of them
 * (or any I/O the runtime itself causes: the sink's) is passed
 * straight to the real function. Nothing here takes a lock that a handler
 * could wait for, except the first sight of a path (FH line), which runs
 * busy too.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_IO_CORE_H
#define DFTRACER_RUNTIME_IO_CORE_H

#include <dftracer/dftracer.h>

#include "busy.h"
#include "internal.h"
#include "io_args.h"
#include "thread_state.h"

#include <stdint.h>

/* DftLayer* bits in force: the configured layers while tracing is on. */
extern unsigned dftracer_io_layers_ DFT_HIDDEN;
/* File hash of each descriptor, 0 when not traced. */
extern uint64_t *dftracer_fd_hash_ DFT_HIDDEN;
extern unsigned dftracer_fd_limit_ DFT_HIDDEN;

static inline int dftracer_io_on(unsigned Layer) {
  return DFT_UNLIKELY(__atomic_load_n(&dftracer_active, __ATOMIC_RELAXED)) &&
         (dftracer_io_layers_ & Layer) && !dftracer_io_busy_;
}

/* Tracing is on and the thread is not busy: descriptors must be tracked
 * even for a layer that is off, since another layer may use them. */
static inline int dftracer_io_tracking(void) {
  return DFT_UNLIKELY(__atomic_load_n(&dftracer_active, __ATOMIC_RELAXED)) &&
         !dftracer_io_busy_;
}

static inline uint64_t dftracer_fd_get(int Fd) {
  if ((unsigned)Fd >= dftracer_fd_limit_)
    return 0;
  return __atomic_load_n(&dftracer_fd_hash_[Fd], __ATOMIC_RELAXED);
}

static inline void dftracer_fd_set(int Fd, uint64_t Hash) {
  if ((unsigned)Fd < dftracer_fd_limit_)
    __atomic_store_n(&dftracer_fd_hash_[Fd], Hash, __ATOMIC_RELAXED);
}

/* DFTRACER_MEM_ALIGNMENT - 1 (config.h): a power of two, less one. */
extern uintptr_t dftracer_mem_align_mask_ DFT_HIDDEN;

/* The `mem_align` arg of a data call whose buffer is at address Addr: 0
 * (no arg) when Addr is a multiple of the process's alignment, else the
 * largest power of two that divides it (Darshan's POSIX_MEM_NOT_ALIGNED,
 * exact). The hot paths test Addr against the mask themselves and take
 * this only when it is not aligned: one test per call. */
static inline int64_t dftracer_mem_align(uintptr_t Addr) {
  return (Addr & dftracer_mem_align_mask_) ? (int64_t)(Addr & (0 - Addr)) : 0;
}

/* Forget descriptors [First, Last] (close_range). */
void dftracer_fd_clear_range(unsigned First, unsigned Last);

/* The hash of Path (relative to DirFd) when it is traced, else 0. Writes
 * its FH line on first sight; leaves errno as it was. */
uint64_t dftracer_io_path_hash(int DirFd, const char *Path);

/* One intercepted call in flight; lives in the wrapper's frame. */
struct dftracer_io_call {
  struct dftracer_span Span;
  struct dftracer_thread *T;
  uint64_t Fhash;
};

/* The args of an event (io_args.h). */
#define DFT_ARG(Name, Value)                                                   \
  { "\"" #Name "\":", sizeof("\"" #Name "\":") - 1, (int64_t)(Value) }
#define DFT_ARG_STR(Name, Text)                                                \
  {                                                                            \
    "\"" #Name "\":", (sizeof("\"" #Name "\":") - 1) | DftIoArgString,           \
        (int64_t)(intptr_t)(const char *)(Text)                                \
  }

/* Each layer's event category (`cat`), one copy of each. */
extern const char dftracer_cat_posix_[] DFT_HIDDEN,
    dftracer_cat_stdio_[] DFT_HIDDEN, dftracer_cat_mpiio_[] DFT_HIDDEN,
    dftracer_cat_hdf5_[] DFT_HIDDEN;

/* Step 3: 1 when the call is being recorded (then end it with
 * dftracer_io_end), 0 when it cannot be (no memory). Name is the symbol,
 * static storage. */
int dftracer_io_begin_cat(struct dftracer_io_call *C, const char *Cat,
                          const char *Name, uint64_t Fhash);
/* Layer's category. Layer is a constant where a wrapper asks, so the
 * choice is made there, not in every call (issue 40). */
static inline const char *dftracer_io_category(unsigned Layer) {
  return Layer == DftLayerPosix   ? dftracer_cat_posix_
         : Layer == DftLayerStdio ? dftracer_cat_stdio_
         : Layer == DftLayerMpiio ? dftracer_cat_mpiio_
                                  : dftracer_cat_hdf5_;
}
static inline int dftracer_io_begin(struct dftracer_io_call *C,
                                    unsigned Layer, const char *Name,
                                    uint64_t Fhash) {
  return dftracer_io_begin_cat(C, dftracer_io_category(Layer), Name, Fhash);
}
/* Step 5: the one function that records an I/O event (issue #16 may change
 * its encoding): `fhash` then Args, in order. */
void dftracer_io_end(struct dftracer_io_call *C,
                     const struct dftracer_io_arg *Args, int Count);
#define DFT_IO_END(C, ...)                                                     \
  do {                                                                         \
    const struct dftracer_io_arg DftArgs_[] = {__VA_ARGS__};                   \
    dftracer_io_end((C), DftArgs_,                                             \
                    (int)(sizeof(DftArgs_) / sizeof(DftArgs_[0])));            \
  } while (0)
/* DFT_IO_END for a data call whose buffer is at address ADDR (a
 * uintptr_t; 0: no buffer, and no test), with its `mem_align` after the
 * args when it is not aligned: an aligned call pays one test. */
#define DFT_IO_END_ALIGNED(C, ADDR, ...)                                       \
  do {                                                                         \
    uintptr_t DftAddr_ = (ADDR);                                               \
    if (DFT_UNLIKELY(DftAddr_ & dftracer_mem_align_mask_))                     \
      DFT_IO_END((C), __VA_ARGS__,                                             \
                 DFT_ARG(mem_align, DftAddr_ & (0 - DftAddr_)));               \
    else                                                                       \
      DFT_IO_END((C), __VA_ARGS__);                                            \
  } while (0)
/* dftracer_io_end for Args of which some are DFT_ARG_STR. */
void dftracer_io_end_strings(struct dftracer_io_call *C,
                             const struct dftracer_io_arg *Args, int Count);
#define DFT_IO_END_STR(C, ...)                                                 \
  do {                                                                         \
    const struct dftracer_io_arg DftArgs_[] = {__VA_ARGS__};                   \
    dftracer_io_end_strings((C), DftArgs_,                                     \
                            (int)(sizeof(DftArgs_) / sizeof(DftArgs_[0])));    \
  } while (0)

/* Step 5 for the reads and writes whose keys are fixed: `fd`, `size`
 * (DftDataStream), `count` (`iovcnt` for DftDataVector), `offset` when
 * Offset >= 0 or always for DftDataAt (pread, pwrite: the caller's), `append`
 * 1 when Append, `ret`, `mem_align` when the buffer's address BufAddr is
 * not aligned (dftracer_mem_align). */
enum { DftDataPosix = 0, DftDataVector = 1, DftDataStream = 2, DftDataAt = 3 };
void dftracer_io_end_data(struct dftracer_io_call *C, unsigned Shape,
                          int64_t Fd, int64_t Size, int64_t Count,
                          int64_t Offset, int Append, int64_t Ret,
                          uintptr_t BufAddr);
/* The same inline, one function per shape (pread/pwrite, read/write,
 * fread/fwrite): io_data_call.h. */

/* Steps 1 to 3 for a call on a descriptor. */
static inline int dftracer_io_fd_begin(struct dftracer_io_call *C,
                                       unsigned Layer, const char *Name,
                                       int Fd) {
  uint64_t Hash;
  if (DFT_LIKELY(!dftracer_io_on(Layer)))
    return 0;
  Hash = dftracer_fd_get(Fd);
  return Hash && dftracer_io_begin(C, Layer, Name, Hash);
}

/* Called when the library loads, traced or not: resolve the real
 * functions (io_real.h). */
void dftracer_io_load(void);
/* Called when the library loads with tracing on: size the descriptor table, read the data dirs. */
void dftracer_io_setup(void);
/* INIT's data_dirs, used when DFTRACER_DATA_DIR is unset. */
void dftracer_io_set_data_dirs(const char *DataDirs);
/* Output every FH line seen so far (a forked child's new file). Caller
 * holds the process lock. */
void dftracer_io_replay_paths_locked(void);
/* In a forked child: every path must be named again in the child's file. */
void dftracer_io_after_fork(void);

#endif
