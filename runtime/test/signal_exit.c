/* Processes ended by a signal keep their traces (runtime/src/signals.c).
 * Unannotated: built linked and run preloaded. Every child is forked by
 * the parent, which checks how it ended and exits 0 only if each ended as
 * it should; the trace files are checked by the test (IO_EXPECT).
 *
 *   dft_signal_exit default
 *     For SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2 and SIGXCPU, two
 *     children with the default disposition write data/<SIG>_raise or
 *     data/<SIG>_kill Writes times; one raises the signal, the other waits
 *     in pause() until the parent sends it. Each must die by it.
 *   dft_signal_exit handler
 *     Two children install a SIGTERM handler with signal() that sets a
 *     flag, write data/h<n> Writes times, tell the parent and wait for the
 *     flag; the parent sends SIGTERM. Both write Writes times more after
 *     the handler ran; child 0 then exits 0, child 1 sets SIG_DFL again
 *     and raises SIGTERM: it must die by it.
 *   dft_signal_exit chain
 *     A child queries SIGTERM (SIG_DFL), installs an SA_SIGINFO handler
 *     with SIGUSR2 in its mask after the runtime's, and checks that a query
 *     returns that handler, flags and mask; writes data/chain Writes times,
 *     raises SIGTERM: the handler must get its siginfo (SIGTERM, its own
 *     pid) with SIGUSR2 blocked. Writes Writes times more, restores what
 *     the first query said and raises SIGTERM: it must die by it.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

enum { Writes = 10 };

static const struct {
  int Sig;
  const char *Name;
} Signals[] = {{SIGTERM, "TERM"}, {SIGINT, "INT"},   {SIGHUP, "HUP"},
               {SIGUSR1, "USR1"}, {SIGUSR2, "USR2"}, {SIGXCPU, "XCPU"}};

/* Open Path, append to it Count times, close it. */
static int writeFile(const char *Path, int Count) {
  int Fd = open(Path, O_CREAT | O_WRONLY | O_APPEND, 0644), I, Ok = Fd >= 0;
  for (I = 0; Ok && I < Count; ++I)
    Ok = write(Fd, "x", 1) == 1;
  return Fd >= 0 && close(Fd) == 0 && Ok;
}

/* The child's end of the ready pipe: one byte once it has written. */
static int Ready[2];

static void tellParent(void) {
  if (write(Ready[1], "r", 1) != 1)
    _exit(10);
}

/* Fork Body(Arg) into a child; with Wait, send it Sig once it is ready.
 * 0 when the child ended as Expect says: a signal number (killed by it),
 * or -1 (exit status 0). */
static int runChild(void (*Body)(int), int Arg, int Sig, int Expect) {
  int Status;
  char Byte;
  pid_t Child;
  if (pipe(Ready) != 0)
    return 1;
  Child = fork();
  if (Child < 0)
    return 1;
  if (Child == 0) {
    struct rlimit NoCore = {0, 0};
    close(Ready[0]);
    setrlimit(RLIMIT_CORE, &NoCore); /* SIGXCPU dumps core */
    Body(Arg);
    _exit(11); /* Body never returns */
  }
  close(Ready[1]);
  if (Sig && (read(Ready[0], &Byte, 1) != 1 || kill(Child, Sig) != 0))
    return 1;
  close(Ready[0]);
  if (waitpid(Child, &Status, 0) != Child)
    return 1;
  if (Expect > 0 ? WIFSIGNALED(Status) && WTERMSIG(Status) == Expect
                 : WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
    return 0;
  fprintf(stderr, "child %d: status %#x, expected %s %d\n", Arg, Status,
          Expect > 0 ? "signal" : "exit", Expect > 0 ? Expect : 0);
  return 1;
}

/* default: Arg is 2 * index in Signals + (1: wait to be killed). */
static void defaultChild(int Arg) {
  char Path[32];
  int Kill = Arg % 2, Sig = Signals[Arg / 2].Sig;
  snprintf(Path, sizeof(Path), "data/%s_%s", Signals[Arg / 2].Name,
           Kill ? "kill" : "raise");
  if (!writeFile(Path, Writes))
    _exit(12);
  if (!Kill) {
    raise(Sig);
    _exit(22);
  }
  tellParent();
  for (;;)
    pause();
}

static int defaultMode(void) {
  int I, Failed = 0;
  for (I = 0; I < (int)(sizeof(Signals) / sizeof(Signals[0])); ++I) {
    Failed |= runChild(defaultChild, 2 * I, 0, Signals[I].Sig);
    Failed |= runChild(defaultChild, 2 * I + 1, Signals[I].Sig, Signals[I].Sig);
  }
  return Failed;
}

static volatile sig_atomic_t Flag;

static void onTerm(int Sig) { Flag = Sig; }

static void handlerChild(int Arg) {
  char Path[32];
  sigset_t Term, Old;
  snprintf(Path, sizeof(Path), "data/h%d", Arg);
  if (signal(SIGTERM, onTerm) == SIG_ERR || !writeFile(Path, Writes))
    _exit(13);
  /* Blocked until sigsuspend, so the flag cannot be missed. */
  sigemptyset(&Term);
  sigaddset(&Term, SIGTERM);
  sigprocmask(SIG_BLOCK, &Term, &Old);
  tellParent();
  while (!Flag)
    sigsuspend(&Old);
  sigprocmask(SIG_SETMASK, &Old, NULL);
  if (Flag != SIGTERM || !writeFile(Path, Writes))
    _exit(14);
  if (Arg == 0)
    exit(0);
  signal(SIGTERM, SIG_DFL);
  raise(SIGTERM);
  _exit(15);
}

static int handlerMode(void) {
  return runChild(handlerChild, 0, SIGTERM, -1) |
         runChild(handlerChild, 1, SIGTERM, SIGTERM);
}

static volatile sig_atomic_t InfoOk;

static void onTermInfo(int Sig, siginfo_t *Info, void *Context) {
  sigset_t Now;
  sigprocmask(SIG_BLOCK, NULL, &Now);
  InfoOk = Sig == SIGTERM && Info && Info->si_signo == SIGTERM &&
           Info->si_pid == getpid() && Context &&
           sigismember(&Now, SIGUSR2) == 1 && sigismember(&Now, SIGTERM) == 1;
}

static void chainChild(int Arg) {
  struct sigaction Start, Act, Now;
  (void)Arg;
  if (sigaction(SIGTERM, NULL, &Start) != 0 || Start.sa_handler != SIG_DFL)
    _exit(16);
  memset(&Act, 0, sizeof(Act));
  Act.sa_sigaction = onTermInfo;
  Act.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&Act.sa_mask);
  sigaddset(&Act.sa_mask, SIGUSR2);
  if (sigaction(SIGTERM, &Act, NULL) != 0 ||
      sigaction(SIGTERM, NULL, &Now) != 0 || Now.sa_sigaction != onTermInfo ||
      !(Now.sa_flags & SA_SIGINFO) || !(Now.sa_flags & SA_RESTART) ||
      sigismember(&Now.sa_mask, SIGUSR2) != 1)
    _exit(17);
  if (!writeFile("data/chain", Writes))
    _exit(18);
  raise(SIGTERM);
  if (!InfoOk || !writeFile("data/chain", Writes))
    _exit(19);
  if (sigaction(SIGTERM, &Start, &Now) != 0 || Now.sa_sigaction != onTermInfo ||
      sigaction(SIGTERM, NULL, &Now) != 0 || Now.sa_handler != SIG_DFL)
    _exit(20);
  raise(SIGTERM);
  _exit(21);
}

static int chainMode(void) { return runChild(chainChild, 0, 0, SIGTERM); }

/* The modes start from the default disposition of every covered signal, as
 * a batch job's ranks do. A launcher may have left some ignored (a shell's
 * background job ignores SIGINT, nohup SIGHUP), and SIG_IGN survives exec:
 * then this image sets them back to SIG_DFL and runs itself again, so that
 * the runtime loads, as the test means, with SIG_DFL in place. */
static void startFromDefaults(char **argv) {
  int I, Ignored = 0;
  for (I = 0; I < (int)(sizeof(Signals) / sizeof(Signals[0])); ++I) {
    struct sigaction Now;
    if (sigaction(Signals[I].Sig, NULL, &Now) == 0 &&
        Now.sa_handler == SIG_IGN) {
      signal(Signals[I].Sig, SIG_DFL);
      Ignored = 1;
    }
  }
  if (Ignored) {
    execv("/proc/self/exe", argv);
    perror("signal_exit: exec /proc/self/exe");
    exit(1);
  }
}

int main(int argc, char **argv) {
  startFromDefaults(argv);
  if (mkdir("data", 0755) != 0)
    return 1;
  if (argc == 2 && strcmp(argv[1], "default") == 0)
    return defaultMode();
  if (argc == 2 && strcmp(argv[1], "handler") == 0)
    return handlerMode();
  if (argc == 2 && strcmp(argv[1], "chain") == 0)
    return chainMode();
  fprintf(stderr, "usage: %s default | handler | chain\n", argv[0]);
  return 2;
}
