/* "Never break the program": each mode is one condition the interception
 * must survive with the program's behaviour unchanged; the program checks
 * its own results (exit 1 on any difference), and io_robust_<mode>.expect
 * checks the trace.
 *
 *   errno     return values and errno exactly the real call's, traced or not
 *   threads   8 threads, each its own file, under annotated workers
 *   signal    a SIGALRM handler writes to a traced file while the main
 *             thread is busy tracing (no deadlock, no torn line)
 *   metadata  the same handler while the main thread writes long metadata
 *             lines (DFTRACER_C_METADATA) between its traced writes
 *   spans     as signal, the handler's write inside an annotated function
 *             (its START and END come while the main thread is inside
 *             START or END, most of the time: no torn line, no span
 *             nesting wrongly)
 *   closeall  the program closes every descriptor but 0-2 first
 *   lowest    stdin is closed before the first traced call (which names a
 *             file and so creates the trace file): open() still returns
 *             the lowest free descriptor, 0, as a shell's redirection
 *             expects
 *   exec      traced I/O, exec of itself, traced I/O in the new image
 *   spawn     vfork (child closes the parent's traced fd), posix_spawn with
 *             a file action; the parent's tracking is unaffected
 *   handler-first
 *             the process's first full buffers are handed over inside a
 *             signal handler: the writer thread is not created there
 *             (pthread_create allocates, which a handler must not), but at
 *             the first hand-over after it
 *   handler-first-sysv
 *             the same with the handler installed by sysv_signal, which
 *             lets the handler run with the mask it interrupted
 *             (SA_NODEFER, no sa_mask); a query of a handler installed so
 *             answers the mask it was given, and a SIGWINCH handler so
 *             (the runtime marks the others with SIGWINCH) still runs with
 *             SIGWINCH unblocked */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void check(int Ok, const char *What) {
  if (!Ok) {
    fprintf(stderr, "io_robust: %s failed (errno %d)\n", What, errno);
    exit(1);
  }
}

static void errnoKept(void) {
  DFTRACER_C_FUNCTION_START();
  char B[8] = "abcdefg", Home[4096];
  struct stat St;
  int Fd = open("data/e.bin", O_CREAT | O_RDWR | O_TRUNC, 0644);
  check(Fd >= 0, "open");
  errno = 1234; /* a successful call leaves errno alone */
  check(write(Fd, B, 8) == 8 && errno == 1234, "write keeps errno");
  errno = 0;
  check(lseek(Fd, 0, 42) == -1 && errno == EINVAL, "lseek EINVAL");
  check(pread(Fd, B, 8, 100) == 0, "pread at EOF");
  check(open("data/missing/x", O_RDONLY) == -1 && errno == ENOENT,
        "open ENOENT");
  check(read(-1, B, 1) == -1 && errno == EBADF, "read EBADF");
  check(close(Fd) == 0, "close");
  check(close(Fd) == -1 && errno == EBADF, "second close EBADF");
  errno = 0;
  check(fopen("data/missing/y", "r") == NULL && errno == ENOENT,
        "fopen ENOENT");
  /* In a removed directory a relative path cannot be made absolute (getcwd
   * fails): the call is not traced, and its success leaves errno alone. */
  check(getcwd(Home, sizeof(Home)) != NULL && mkdir("data/gone", 0755) == 0 &&
            chdir("data/gone") == 0 && rmdir("../gone") == 0,
        "enter a removed directory");
  errno = 1234;
  check(stat(".", &St) == 0 && errno == 1234, "stat in it keeps errno");
  check(chdir(Home) == 0, "chdir back");
  DFTRACER_C_FUNCTION_END();
}

enum { Threads = 8, WritesPerThread = 200 };

static void *worker(void *Arg) {
  DFTRACER_C_FUNCTION_START();
  char Path[64], B[64];
  int I, Fd;
  snprintf(Path, sizeof(Path), "data/t%d.bin", (int)(long)Arg);
  Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(Fd >= 0, "open");
  memset(B, 't', sizeof(B));
  for (I = 0; I < WritesPerThread; ++I)
    check(pwrite(Fd, B, sizeof(B), (off_t)I * 64) == 64, "pwrite");
  check(close(Fd) == 0, "close");
  DFTRACER_C_FUNCTION_END();
  return NULL;
}

static void threads(void) {
  pthread_t T[Threads];
  long I;
  for (I = 0; I < Threads; ++I)
    check(pthread_create(&T[I], NULL, worker, (void *)I) == 0, "create");
  for (I = 0; I < Threads; ++I)
    pthread_join(T[I], NULL);
}

static int SignalFd = -1;
static volatile sig_atomic_t Signals;
static int HandlerSpans; /* the handler writes inside an annotated function */

static void inHandler(void) {
  DFTRACER_C_FUNCTION_START();
  if (write(SignalFd, "s", 1) == 1)
    ++Signals;
  DFTRACER_C_FUNCTION_END();
}

static void onAlarm(int Sig) {
  int Saved = errno;
  (void)Sig;
  if (HandlerSpans)
    inHandler();
  else if (write(SignalFd, "s", 1) == 1)
    ++Signals;
  errno = Saved;
}

static void busy(int Fd) {
  DFTRACER_C_FUNCTION_START();
  check(write(Fd, "m", 1) == 1, "write");
  DFTRACER_C_FUNCTION_END();
}

/* Opens the handler's file (SignalFd) and the main thread's, which it
 * returns, and gives Sa Handler and Flags. */
static int openForSignals(struct sigaction *Sa, void (*Handler)(int),
                          int Flags) {
  int Fd;
  SignalFd = open("data/sig.bin", O_CREAT | O_WRONLY | O_TRUNC | O_APPEND, 0644);
  Fd = open("data/main.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(SignalFd >= 0 && Fd >= 0, "open");
  memset(Sa, 0, sizeof(*Sa));
  Sa->sa_handler = Handler;
  Sa->sa_flags = Flags;
  return Fd;
}

/* Runs Work(Fd, I) for I = 0, 1, ... at least Rounds times and until the
 * handler has written 20 times, with a SIGALRM every 200 us. */
static void underAlarms(void (*Work)(int, int), int Rounds) {
  struct sigaction Sa;
  struct itimerval Timer = {{0, 200}, {0, 200}};
  struct stat St;
  int Fd = openForSignals(&Sa, onAlarm, SA_RESTART), I;
  check(sigaction(SIGALRM, &Sa, NULL) == 0, "sigaction");
  check(setitimer(ITIMER_REAL, &Timer, NULL) == 0, "setitimer");
  for (I = 0; I < Rounds || Signals < 20; ++I)
    Work(Fd, I);
  Timer.it_value.tv_usec = Timer.it_interval.tv_usec = 0;
  setitimer(ITIMER_REAL, &Timer, NULL);
  check(fstat(SignalFd, &St) == 0 && St.st_size == Signals, "every byte");
  check(close(SignalFd) == 0 && close(Fd) == 0, "close");
}

static void busyRound(int Fd, int I) {
  (void)I;
  busy(Fd);
}

/* A metadata line long enough (8 KiB) that most alarms come while it is
 * being formatted: a handler's event written into the middle of it would
 * tear it. */
static void metadataRound(int Fd, int I) {
  static char Value[8192];
  if (!Value[0])
    memset(Value, 'v', sizeof(Value) - 1);
  busy(Fd);
  if (I % 2 == 0)
    DFTRACER_C_METADATA(meta, "long", Value);
}

static void closeAll(void) {
  DFTRACER_C_FUNCTION_START();
  int Fd;
  for (Fd = 3; Fd < 1024; ++Fd)
    close(Fd);
  close_range(3, ~0u, 0);
  Fd = open("data/after.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(Fd >= 0 && write(Fd, "after", 5) == 5 && close(Fd) == 0, "after");
  DFTRACER_C_FUNCTION_END();
}

static void lowest(void) {
  DFTRACER_C_FUNCTION_START();
  char B[5];
  int Fd = open("data/stdin.txt", O_CREAT | O_RDWR | O_TRUNC, 0644);
  check(Fd == 0, "open returns the lowest free descriptor, 0");
  check(write(Fd, "stdin", 5) == 5 && pread(0, B, 5, 0) == 5 &&
            memcmp(B, "stdin", 5) == 0,
        "the file is stdin");
  DFTRACER_C_FUNCTION_END();
}

static void execSelf(const char *Self) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open("data/before-exec.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(Fd >= 0 && write(Fd, "before", 6) == 6 && close(Fd) == 0, "before");
  execl(Self, Self, "exec-image", (char *)NULL);
  check(0, "execl");
  DFTRACER_C_FUNCTION_END();
}

static void execImage(void) {
  DFTRACER_C_FUNCTION_START();
  int Fd = open("data/after-exec.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(Fd >= 0 && write(Fd, "after", 5) == 5 && close(Fd) == 0, "after");
  /* A failed exec returns, and tracing goes on. */
  check(execl("/nonexistent", "x", (char *)NULL) == -1 && errno == ENOENT,
        "failed exec");
  Fd = open("data/after-failed-exec.bin", O_CREAT | O_WRONLY, 0644);
  check(Fd >= 0 && close(Fd) == 0, "after failed exec");
  DFTRACER_C_FUNCTION_END();
}

static void spawn(void) {
  DFTRACER_C_FUNCTION_START();
  posix_spawn_file_actions_t Actions;
  char *Argv[] = {"true", NULL};
  int Fd = open("data/parent.bin", O_CREAT | O_WRONLY | O_TRUNC, 0644), St;
  pid_t Pid;
  check(Fd >= 0, "open");
  Pid = vfork();
  if (Pid == 0) {
    /* With a real vfork this would clear the parent's tracking of Fd. */
    close(Fd);
    _exit(open("data/vfork.bin", O_CREAT | O_WRONLY, 0644) >= 0 ? 0 : 1);
  }
  check(Pid > 0 && waitpid(Pid, &St, 0) == Pid && WIFEXITED(St) &&
            WEXITSTATUS(St) == 0,
        "vfork child");
  check(write(Fd, "parent", 6) == 6, "write after vfork");
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 1, "data/spawned.out",
                                   O_CREAT | O_WRONLY | O_TRUNC, 0644);
  check(posix_spawnp(&Pid, "true", &Actions, NULL, Argv, environ) == 0 &&
            waitpid(Pid, &St, 0) == Pid && WIFEXITED(St) &&
            WEXITSTATUS(St) == 0,
        "posix_spawn");
  posix_spawn_file_actions_destroy(&Actions);
  check(write(Fd, "again", 5) == 5 && close(Fd) == 0, "write after spawn");
  DFTRACER_C_FUNCTION_END();
}

/* Threads of this process named as the runtime's writer names its own. */
static int writerThreads(void) {
  DIR *Tasks = opendir("/proc/self/task");
  struct dirent *E;
  int Count = 0;
  check(Tasks != NULL, "opendir /proc/self/task");
  while ((E = readdir(Tasks)) != NULL) {
    char Path[300], Name[32] = "";
    FILE *F;
    if (E->d_name[0] == '.')
      continue;
    snprintf(Path, sizeof(Path), "/proc/self/task/%s/comm", E->d_name);
    if ((F = fopen(Path, "r")) == NULL)
      continue; /* the thread has just ended */
    if (fgets(Name, sizeof(Name), F) && strcmp(Name, "dftracer-write\n") == 0)
      ++Count;
    fclose(F);
  }
  closedir(Tasks);
  return Count;
}

/* glibc 2.36's sigisemptyset ignores signals 32 to 64. */
static int maskIsEmpty(const sigset_t *Set) {
  int Sig;
  for (Sig = 1; Sig < NSIG; ++Sig)
    if (sigismember(Set, Sig) == 1)
      return 0;
  return 1;
}

enum { HandlerWrites = 20000 };

static void onFirstSignal(int Sig) {
  int Saved = errno, I;
  (void)Sig;
  for (I = 0; I < HandlerWrites; ++I)
    if (write(SignalFd, "s", 1) == 1)
      ++Signals;
  errno = Saved;
}

static sigset_t WinchMask; /* the mask onWinch ran with */

static void onWinch(int Sig) {
  (void)Sig;
  pthread_sigmask(SIG_BLOCK, NULL, &WinchMask);
}

static void handlerFirst(int SysV) {
  struct sigaction Sa;
  const char *On = getenv("DFTRACER_ENABLE");
  int Traced = On && strcmp(On, "1") == 0;
  int Fd = openForSignals(&Sa, onFirstSignal, SysV ? SA_NODEFER : 0), I;
  if (SysV) {
    /* SIGWINCH too: the runtime marks its handler with another signal. */
    static const int Queried[] = {SIGWINCH, SIGALRM};
    size_t Q;
    for (Q = 0; Q < sizeof(Queried) / sizeof(Queried[0]); ++Q) {
      struct sigaction Got;
      check(sigaction(Queried[Q], &Sa, NULL) == 0 &&
                sigaction(Queried[Q], NULL, &Got) == 0 &&
                Got.sa_handler == onFirstSignal &&
                (Got.sa_flags & SA_NODEFER) && maskIsEmpty(&Got.sa_mask),
            "a SA_NODEFER handler's query: the mask it was given");
    }
    /* Its handler runs with its own signal unblocked, as SA_NODEFER asks
     * (the runtime's mark is another signal). */
    Sa.sa_handler = onWinch;
    check(sigaction(SIGWINCH, &Sa, NULL) == 0 && raise(SIGWINCH) == 0 &&
              !sigismember(&WinchMask, SIGWINCH),
          "SA_NODEFER: SIGWINCH not blocked in its own handler");
    check(signal(SIGWINCH, SIG_DFL) != SIG_ERR, "SIGWINCH back to SIG_DFL");
    check(sysv_signal(SIGALRM, onFirstSignal) != SIG_ERR, "sysv_signal");
  } else
    check(sigaction(SIGALRM, &Sa, NULL) == 0, "sigaction");
  check(raise(SIGALRM) == 0 && Signals == HandlerWrites, "the handler's writes");
  check(writerThreads() == 0, "no writer thread created in the handler");
  for (I = 0; I < HandlerWrites; ++I)
    check(write(Fd, "m", 1) == 1, "write");
  if (Traced)
    check(writerThreads() == 1, "the writer thread started after the handler");
  check(close(SignalFd) == 0 && close(Fd) == 0, "close");
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "";
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  if (strcmp(Mode, "lowest") == 0)
    check(close(0) == 0, "close stdin"); /* the trace file is not open yet */
  if (strcmp(Mode, "exec-image") != 0)
    check(mkdir("data", 0755) == 0, "mkdir data");
  if (strcmp(Mode, "errno") == 0)
    errnoKept();
  else if (strcmp(Mode, "threads") == 0)
    threads();
  else if (strcmp(Mode, "signal") == 0)
    underAlarms(busyRound, 50000);
  else if (strcmp(Mode, "metadata") == 0)
    underAlarms(metadataRound, 2000);
  else if (strcmp(Mode, "spans") == 0) {
    HandlerSpans = 1;
    underAlarms(busyRound, 50000);
  }
  else if (strcmp(Mode, "closeall") == 0)
    closeAll();
  else if (strcmp(Mode, "lowest") == 0)
    lowest();
  else if (strcmp(Mode, "exec") == 0)
    execSelf(argv[0]);
  else if (strcmp(Mode, "exec-image") == 0)
    execImage();
  else if (strcmp(Mode, "spawn") == 0)
    spawn();
  else if (strcmp(Mode, "handler-first") == 0)
    handlerFirst(0);
  else if (strcmp(Mode, "handler-first-sysv") == 0)
    handlerFirst(1);
  else
    check(0, "a mode");
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 0;
}
