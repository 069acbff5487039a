/*===- internal.h - Shared state of the tracing runtime ------------------===*
 *
 * Pipeline of one event, and the file that owns each step:
 *
 *   START  tracer.c        dftracer_span_begin: take a record from the
 *                           calling thread's pool (thread_state.c), give it
 *                           an id and a parent, read the clock (clock.h).
 *   END    tracer.c        dftracer_span_end: read the clock, store one
 *                           fixed-word record (event_record.h; the usual
 *                           END in span_close.h) into the thread's buffer.
 *   flush  thread_state.c  a full buffer goes to the writer thread whole;
 *                           a thread exit, FINI or exit() hands over what is
 *                           left, under the one global lock.
 *   write  writer.c        one background thread turns the records into
 *                           `.pfw` lines (event_format.c, json_writer.h) or
 *                           compact blocks (compact_encoder.c) and writes
 *                           them, so traced threads never format nor wait
 *                           for write().
 *   sink   sink.c          opens `<prefix>-<16 hex>-app.pfw[.gz]` (or
 *                           `.pfc`, compact_writer.c) on first use and
 *                           writes plain or through zlib.
 *
 * Not every span is written: throttle.h counts hot tiny functions instead,
 * and budget.h stops tracing at the size budget or a write error; the
 * counts go out as the trace's last lines.
 *
 * Only buffer hand-overs take the lock; START and END touch thread-local
 * data only, and never call malloc (pages.h): a signal handler may trace.
 *
 * The I/O layers (posix.c, stdio.c, mpiio.c, hdf5.c over io_core.h) sit on
 * top of this; nothing below io_core includes io_core.h. What the lower
 * files share with it lives in the lowest one that uses it: the thread's
 * busy flag in busy.h, the trace file's descriptor in sink.h; the writer
 * reaches the I/O layer only through the hook io_core registers
 * (dftracer_writer_on_open).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_INTERNAL_H
#define DFTRACER_RUNTIME_INTERNAL_H

#include "config.h"
#include "sink.h"

#include <pthread.h>
#include <stdint.h>

#if defined(__GNUC__)
#define DFT_HIDDEN __attribute__((visibility("hidden")))
#define DFT_LIKELY(x) __builtin_expect(!!(x), 1)
#define DFT_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define DFT_HIDDEN
#define DFT_LIKELY(x) (x)
#define DFT_UNLIKELY(x) (x)
#endif

/* Process-wide tracer state. Fields below `Lock` are guarded by it. */
struct dftracer_process {
  struct dftracer_config Config; /* read once when the library loads */
  int Pid;                       /* OS pid, or INIT's *process_id */
  int OsPid;                     /* getpid() at load: the main thread's tid */
  /* MPI rank: RankProbing until it is recorded (RankRecorded) or can never
   * be (RankNever: no MPI in the process, or MPI already finalised). Only
   * changed on the main thread, read with relaxed atomics elsewhere. */
  int RankState;
  uint64_t TraceHash; /* of the file name; set at load */

  pthread_mutex_t Lock;
  int Initialized; /* INIT was called (and tracing is on) */
  int Finishing;   /* FINI or exit() has begun; later calls do nothing */
  int Finished;    /* ... and ended; nothing is written after */
  struct dftracer_sink Sink;
  /* Every live thread with a buffer: pushed without the lock, unlinked
   * and walked under it (thread_state.c). */
  struct dftracer_thread *Threads;
};

enum { RankProbing = 0, RankRecorded = 1, RankNever = 2 };

extern struct dftracer_process dftracer_process_ DFT_HIDDEN;

#endif
