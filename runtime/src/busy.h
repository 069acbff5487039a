/*===- busy.h - This thread runs the runtime: its I/O is not traced -------===*
 *
 * The lowest layer of the runtime: the sink, the writer thread, the
 * threads' buffers and the I/O layers above them all mark the regions in
 * which they do I/O of their own (or may be interrupted by a signal
 * handler that does), so that the I/O layers pass those calls straight to
 * the real functions (io_core.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_BUSY_H
#define DFTRACER_RUNTIME_BUSY_H

/* Nonzero while this thread runs runtime code that must not be traced. */
extern _Thread_local int dftracer_io_busy_
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

/* Mark this thread busy; returns what it was, for dftracer_busy_leave
 * (regions nest: the sink's inside END's hand-over). The compiler fences
 * keep the region's accesses between the two stores, where a signal
 * handler on this thread sees the flag set. */
static inline int dftracer_busy_enter(void) {
  int Was = dftracer_io_busy_;
  dftracer_io_busy_ = 1;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  return Was;
}

static inline void dftracer_busy_leave(int Was) {
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  dftracer_io_busy_ = Was;
}

#endif
