/*===- signals.h - A process ended by a signal keeps its trace ------------===*
 *
 * SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 and SIGXCPU end a process whose
 * disposition is the default one without running atexit, and so without
 * finishing the trace: a batch system's time limit, `scancel`, `mpirun`
 * after a rank aborts, Python's Pool.terminate(). While the program's
 * disposition of one of them is SIG_DFL, the kernel holds the runtime's
 * handler instead, which finishes the trace the way _exit does
 * (async-signal-safely, tracer.c), restores SIG_DFL and raises the signal
 * again: the process still dies by it.
 *
 * The program sees its own dispositions only: sigaction and signal
 * (signals.c) install its handlers and SIG_IGN as they are (but for the
 * marker below), and report SIG_DFL where the runtime's handler stands in
 * for it. DFTRACER_SIGNALS=0 leaves every disposition alone.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_SIGNALS_H
#define DFTRACER_RUNTIME_SIGNALS_H

#include <signal.h>

/* At load, with tracing on: put the handler in place of each SIG_DFL. */
void dftracer_signals_setup(void);

/* 0 when the calling thread, whose signal mask was Mask, is surely not
 * running a signal handler; 1 when it may be. The kernel blocks a
 * handler's signal and its sa_mask while it runs, so an empty mask, off the
 * alternate signal stack, rules a handler out. A handler installed with
 * SA_NODEFER and an empty sa_mask would leave the mask empty: the wrappers
 * of sigaction, signal, bsd_signal and sysv_signal install it with a
 * marker signal (SIGWINCH) in its sa_mask, which queries do not show
 * (signals.c).
 * Not seen: a handler that unblocks every signal before it traces, and
 * one installed by the rt_sigaction system call. Async-signal-safe. */
int dftracer_signals_may_be_handling(const sigset_t *Mask);

/* Blocks, on the calling thread, the signals whose handler here finishes
 * the trace; *Old gets the mask to put back. While _exit finishes the
 * trace, one of them (a Pool's terminate() sending SIGTERM to a worker
 * already on its way out) would find the thread busy, skip the finishing
 * and end the process with the trace cut before its last lines; held, it
 * is delivered once the trace is finished. Async-signal-safe. */
void dftracer_signals_hold(sigset_t *Old);

#endif
