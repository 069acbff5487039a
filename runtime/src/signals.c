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
/* Bit Sig - 1: the kernel's action for Sig holds the marker (markerFor()),
 * which a query takes out again. One bit per signal number, 1 to 64. */
static unsigned long long Marked;
enum { MarkedSignals = 8 * sizeof(unsigned long long) };

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

/* A handler installed with SA_NODEFER and an empty sa_mask would run with
 * the mask of the code it interrupted, which may be empty: the runtime
 * could not tell that its thread is in a handler (signals.h). The kernel
 * holds it with one more signal in its sa_mask, the marker, which is then
 * held back while the handler runs and delivered when it returns, as any
 * blocked signal: SIGWINCH (a terminal's new size; ignored by default),
 * which no library or tool reserves, unlike the real-time signals. A
 * handler of SIGWINCH itself gets SIGURG: its own signal still comes in,
 * as SA_NODEFER asks. (Under valgrind this does not work: its emulation
 * of signal delivery leaves sa_mask out when SA_NODEFER is set.) */
static int markerFor(int Sig) { return Sig == SIGWINCH ? SIGURG : SIGWINCH; }

/* Not glibc's sigisemptyset: in glibc 2.36 it calls a set that holds only
 * signals 32 to 64 (the real-time ones) empty. */
static int isEmpty(const sigset_t *Set) {
  int Sig;
  for (Sig = 1; Sig < NSIG; ++Sig)
    if (sigismember(Set, Sig) == 1)
      return 0;
  return 1;
}

static int runsUnmasked(const struct sigaction *Act) {
  return Act->sa_handler != SIG_DFL && Act->sa_handler != SIG_IGN &&
         (Act->sa_flags & SA_NODEFER) && isEmpty(&Act->sa_mask);
}

static unsigned long long bitOf(int Sig) { return 1ull << (Sig - 1); }

int dftracer_signals_may_be_handling(const sigset_t *Mask) {
  stack_t Alt;
  if (!isEmpty(Mask))
    return 1;
  return sigaltstack(NULL, &Alt) == 0 && (Alt.ss_flags & SS_ONSTACK);
}

void dftracer_signals_hold(sigset_t *Old) {
  sigset_t Covered;
  int Sig;
  sigemptyset(&Covered);
  for (Sig = 1; Sig < NSIG; ++Sig)
    if (isCovered(Sig))
      sigaddset(&Covered, Sig);
  pthread_sigmask(SIG_BLOCK, &Covered, Old);
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
  int Ret, Mark = 0;
  unsigned long long WasMarked;
  if (!Real) {
    errno = ENOSYS;
    return -1;
  }
  if (Sig < 1 || Sig > MarkedSignals)
    return Real(Sig, Act, Old); /* EINVAL, from the kernel */
  if (Act && isCovered(Sig) && Act->sa_handler == SIG_DFL &&
      __atomic_load_n(&Installed, __ATOMIC_ACQUIRE)) {
    Act = standIn(Act, &Mine);
  } else if (Act && runsUnmasked(Act)) {
    Mine = *Act;
    sigaddset(&Mine.sa_mask, markerFor(Sig));
    Act = &Mine;
    Mark = 1;
  }
  WasMarked = __atomic_load_n(&Marked, __ATOMIC_ACQUIRE) & bitOf(Sig);
  Ret = Real(Sig, Act, Old ? &Was : NULL);
  if (Ret != 0)
    return Ret;
  if (Act && Mark)
    __atomic_fetch_or(&Marked, bitOf(Sig), __ATOMIC_ACQ_REL);
  else if (Act)
    __atomic_fetch_and(&Marked, ~bitOf(Sig), __ATOMIC_ACQ_REL);
  if (Old) {
    *Old = Was;
    if (isCovered(Sig) && isOurs(&Was))
      Old->sa_handler = SIG_DFL; /* sa_sigaction too: one union */
    if (WasMarked)
      sigdelset(&Old->sa_mask, markerFor(Sig));
  }
  return Ret;
}

/* signal()'s kinds, through the wrapper above: Handler with Flags, its own
 * signal blocked while it runs unless SA_NODEFER. The previous handler, or
 * SIG_ERR. */
static HandlerFn installWith(int Sig, HandlerFn Handler, int Flags) {
  struct sigaction Act, Old;
  memset(&Act, 0, sizeof(Act));
  Act.sa_handler = Handler;
  sigemptyset(&Act.sa_mask);
  if (!(Flags & SA_NODEFER))
    sigaddset(&Act.sa_mask, Sig);
  Act.sa_flags = Flags;
  if (sigaction(Sig, &Act, &Old) != 0)
    return SIG_ERR;
  return Old.sa_handler;
}

/* glibc's signal(): BSD semantics (the handler stays, calls restart, the
 * signal is blocked while its handler runs), on top of sigaction above. */
HandlerFn signal(int Sig, HandlerFn Handler) {
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
  return installWith(Sig, Handler, SA_RESTART);
}

/* glibc's alias of signal(). */
HandlerFn bsd_signal(int Sig, HandlerFn Handler);
HandlerFn bsd_signal(int Sig, HandlerFn Handler) {
  return signal(Sig, Handler);
}

/* System V's signal(): the handler runs once, with its signal not blocked
 * (SA_NODEFER), and calls are interrupted. glibc's signal() is this one
 * for a program built with a strict -std (no _DEFAULT_SOURCE), under the
 * name __sysv_signal. Its own call of sigaction would not reach the
 * wrapper above. */
HandlerFn __sysv_signal(int Sig, HandlerFn Handler);
HandlerFn __sysv_signal(int Sig, HandlerFn Handler) {
  if (Handler == SIG_ERR || Sig < 1 || Sig >= NSIG) {
    errno = EINVAL;
    return SIG_ERR;
  }
  return installWith(Sig, Handler, SA_RESETHAND | SA_NODEFER);
}

HandlerFn sysv_signal(int Sig, HandlerFn Handler);
HandlerFn sysv_signal(int Sig, HandlerFn Handler) {
  return __sysv_signal(Sig, Handler);
}

#pragma GCC visibility pop
