/* signals.c - The runtime's handler stands in for SIG_DFL (signals.h).
 *
 * Nothing is kept beside the kernel: for each signal the kernel holds the
 * program's own disposition, or the runtime's handler with the program's
 * mask and flags where the program's is SIG_DFL. A query takes the kernel's
 * answer and names the runtime's handler SIG_DFL, so it is what the program
 * installed, and no table can go stale (SA_RESETHAND, a fork, a handler
 * that installs another). The program's handlers run as installed, with
 * their own flags and mask: a program that handles SIGTERM and goes on is
 * not finished. */
#define _GNU_SOURCE
#include "signals.h"

#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

/* The finishing path of _exit and _Exit (tracer.c): async-signal-safe, and
 * skipped when this thread was interrupted inside the runtime. */
void dftracer_before__exit_(void);

typedef int (*SigactionFn)(int, const struct sigaction *, struct sigaction *);
typedef void (*HandlerFn)(int);
typedef HandlerFn (*SignalFn)(int, HandlerFn);

static SigactionFn RealSigaction;
static SignalFn RealSignal;
static int Installed; /* the handler stands in for SIG_DFL from now on */

/* Signals whose default action ends the process (SIGXCPU with a core). */
static int isCovered(int Sig) {
  return Sig == SIGTERM || Sig == SIGINT || Sig == SIGHUP || Sig == SIGUSR1 ||
         Sig == SIGUSR2 || Sig == SIGXCPU;
}

/* dlsym only once; a program's constructor may call sigaction before the
 * runtime's has run. */
static SigactionFn realSigaction(void) {
  SigactionFn F = __atomic_load_n(&RealSigaction, __ATOMIC_ACQUIRE);
  if (!F) {
    F = (SigactionFn)dlsym(RTLD_NEXT, "sigaction");
    __atomic_store_n(&RealSigaction, F, __ATOMIC_RELEASE);
  }
  return F;
}

/* Finish the trace, then die by Sig as SIG_DFL would have: the default
 * back, the signal raised again and unblocked (it is blocked while its
 * handler runs, unless SA_NODEFER). */
static void onSignal(int Sig) {
  int Saved = errno;
  struct sigaction Default;
  sigset_t Set;
  dftracer_before__exit_();
  memset(&Default, 0, sizeof(Default));
  Default.sa_handler = SIG_DFL;
  sigemptyset(&Default.sa_mask);
  realSigaction()(Sig, &Default, NULL);
  raise(Sig);
  sigemptyset(&Set);
  sigaddset(&Set, Sig);
  pthread_sigmask(SIG_UNBLOCK, &Set, NULL);
  errno = Saved; /* not reached, unless the program changed it meanwhile */
}

/* The same, for a SIG_DFL installed with SA_SIGINFO. */
static void onSignalInfo(int Sig, siginfo_t *Info, void *Context) {
  (void)Info;
  (void)Context;
  onSignal(Sig);
}

static int isOurs(const struct sigaction *Act) {
  return (Act->sa_flags & SA_SIGINFO) ? Act->sa_sigaction == onSignalInfo
                                      : Act->sa_handler == onSignal;
}

/* Act with the runtime's handler in place of SIG_DFL, in Mine. */
static const struct sigaction *standIn(const struct sigaction *Act,
                                       struct sigaction *Mine) {
  *Mine = *Act;
  if (Mine->sa_flags & SA_SIGINFO)
    Mine->sa_sigaction = onSignalInfo;
  else
    Mine->sa_handler = onSignal;
  return Mine;
}

static int isOff(const char *Value) {
  return Value && *Value && !dftracer_env_flag(Value);
}

void dftracer_signals_setup(void) {
  int Sig;
  if (isOff(getenv("DFTRACER_SIGNALS")) || !realSigaction())
    return;
  __atomic_store_n(&Installed, 1, __ATOMIC_RELEASE);
  for (Sig = 1; Sig < NSIG; ++Sig) {
    struct sigaction Now, Mine;
    if (!isCovered(Sig) || RealSigaction(Sig, NULL, &Now) != 0 ||
        Now.sa_handler != SIG_DFL)
      continue; /* SIG_IGN, or a handler already: the program's */
    RealSigaction(Sig, standIn(&Now, &Mine), NULL);
  }
}

/* --- The program's entry points ------------------------------------------ */
#pragma GCC visibility push(default)

int sigaction(int Sig, const struct sigaction *restrict Act,
              struct sigaction *restrict Old) {
  SigactionFn Real = realSigaction();
  struct sigaction Mine, Was;
  int Ret;
  if (!Real) {
    errno = ENOSYS;
    return -1;
  }
  if (!isCovered(Sig))
    return Real(Sig, Act, Old);
  if (Act && Act->sa_handler == SIG_DFL &&
      __atomic_load_n(&Installed, __ATOMIC_ACQUIRE))
    Act = standIn(Act, &Mine);
  Ret = Real(Sig, Act, Old ? &Was : NULL);
  if (Ret == 0 && Old) {
    *Old = Was;
    if (isOurs(&Was))
      Old->sa_handler = SIG_DFL; /* sa_sigaction too: one union */
  }
  return Ret;
}

/* glibc's signal(): BSD semantics (the handler stays, calls restart, the
 * signal is blocked while its handler runs), on top of sigaction above. */
HandlerFn signal(int Sig, HandlerFn Handler) {
  struct sigaction Act, Old;
  if (!isCovered(Sig)) {
    SignalFn Real = __atomic_load_n(&RealSignal, __ATOMIC_ACQUIRE);
    if (!Real) {
      Real = (SignalFn)dlsym(RTLD_NEXT, "signal");
      __atomic_store_n(&RealSignal, Real, __ATOMIC_RELEASE);
    }
    if (!Real) {
      errno = ENOSYS;
      return SIG_ERR;
    }
    return Real(Sig, Handler);
  }
  memset(&Act, 0, sizeof(Act));
  Act.sa_handler = Handler;
  sigemptyset(&Act.sa_mask);
  sigaddset(&Act.sa_mask, Sig);
  Act.sa_flags = SA_RESTART;
  if (sigaction(Sig, &Act, &Old) != 0)
    return SIG_ERR;
  return Old.sa_handler;
}

/* glibc's alias of signal(). */
HandlerFn bsd_signal(int Sig, HandlerFn Handler);
HandlerFn bsd_signal(int Sig, HandlerFn Handler) {
  return signal(Sig, Handler);
}

#pragma GCC visibility pop
