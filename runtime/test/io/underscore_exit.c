/* Processes that end with _exit() or _Exit(), which skip atexit: the trace
 * is finished by the wrappers (runtime/src/posix.c) before the process
 * ends, async-signal-safely. Unannotated: the same program is built linked,
 * preloaded and against the static archive.
 *
 *   dft_underscore_exit fork _exit|_Exit|exit
 *     the parent writes data/parent, forks; the child writes data/child
 *     Writes times and ends with the call named: both files complete.
 *   dft_underscore_exit threads
 *     Threads workers each write data/t<n> Writes times (past a buffer, so
 *     the writer thread runs, and a rest left in each buffer), then wait;
 *     the last one calls _exit: every thread's events are written, as at
 *     exit().
 *   dft_underscore_exit signal
 *     Children times: a child writes data/s<n>, then a thread of its loops
 *     on malloc/free of blocks past the thread cache (its arena's lock
 *     held most of the time) until a signal's handler calls _exit there. A
 *     runtime that allocates or frees there deadlocks the child: a child
 *     not gone within WaitSeconds is reported, exit status 2. (The parent
 *     traces its mkdir: Children + 1 files.)
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { Writes = 1000, Threads = 4, Children = 20, WaitSeconds = 20 };

/* Open Path, write it Count times, close it. */
static int writeFile(const char *Path, int Count) {
  int Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644), I, Ok = Fd >= 0;
  for (I = 0; Ok && I < Count; ++I)
    Ok = write(Fd, "x", 1) == 1;
  return Fd >= 0 && close(Fd) == 0 && Ok;
}

static int forkMode(const char *End) {
  int Status = 1;
  pid_t Child;
  if (!writeFile("data/parent", 1))
    return 1;
  Child = fork();
  if (Child == 0) {
    int Code = writeFile("data/child", 3) ? 0 : 1;
    if (strcmp(End, "_exit") == 0)
      _exit(Code);
    if (strcmp(End, "_Exit") == 0)
      _Exit(Code);
    exit(Code);
  }
  if (Child < 0 || waitpid(Child, &Status, 0) != Child)
    return 1;
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0 ||
      !writeFile("data/parent", 1))
    return 1;
  return 0;
}

static pthread_barrier_t AllWritten;

static void *worker(void *Arg) {
  char Path[32];
  int N = (int)(size_t)Arg;
  snprintf(Path, sizeof(Path), "data/t%d", N);
  if (!writeFile(Path, Writes))
    _exit(1);
  pthread_barrier_wait(&AllWritten);
  if (N == Threads - 1)
    _exit(0); /* the others are still blocked below, buffers unflushed */
  for (;;)
    pause();
  return NULL;
}

static int threadsMode(void) {
  pthread_t Ids[Threads];
  int I;
  pthread_barrier_init(&AllWritten, NULL, Threads);
  if (!writeFile("data/main", 2))
    return 1;
  for (I = 0; I < Threads; ++I)
    if (pthread_create(&Ids[I], NULL, worker, (void *)(size_t)I) != 0)
      return 1;
  pthread_join(Ids[0], NULL); /* never returns: a worker calls _exit */
  return 1;
}

static void onSignal(int Sig) {
  (void)Sig;
  _exit(0);
}

/* Allocates and frees blocks of 2-64 KiB (past glibc's per-thread cache,
 * so its arena's lock is taken each time) in 16 slots, so that the heap's
 * bins are in use, not only its top. */
static void *victim(void *Arg) {
  void *Blocks[16] = {0};
  unsigned Seed = (unsigned)(size_t)Arg;
  for (;;) {
    unsigned Slot = rand_r(&Seed) % 16;
    free(Blocks[Slot]);
    Blocks[Slot] = malloc(2048 + rand_r(&Seed) % (62 * 1024));
  }
  return NULL;
}

/* The child: traced writes, then a thread in malloc/free until its
 * handler runs. */
static void signalChild(int N) {
  struct timespec Delay = {0, 5 * 1000 * 1000};
  char Path[32];
  pthread_t Victim;
  snprintf(Path, sizeof(Path), "data/s%d", N);
  if (!writeFile(Path, 10) ||
      pthread_create(&Victim, NULL, victim, (void *)(size_t)(N + 1)) != 0)
    _exit(1);
  nanosleep(&Delay, NULL);
  pthread_kill(Victim, SIGUSR1);
  pthread_join(Victim, NULL); /* never returns: the handler calls _exit */
  _exit(1);
}

static int signalMode(void) {
  struct sigaction Act;
  int I;
  memset(&Act, 0, sizeof(Act));
  Act.sa_handler = onSignal;
  sigaction(SIGUSR1, &Act, NULL);
  for (I = 0; I < Children; ++I) {
    time_t Deadline = time(NULL) + WaitSeconds;
    int Status;
    pid_t Child = fork(), Done;
    if (Child < 0)
      return 1;
    if (Child == 0)
      signalChild(I);
    while ((Done = waitpid(Child, &Status, WNOHANG)) == 0 &&
           time(NULL) < Deadline) {
      struct timespec Tick = {0, 10 * 1000 * 1000};
      nanosleep(&Tick, NULL);
    }
    if (Done != Child) {
      fprintf(stderr, "child %d still running after %d s: deadlocked\n", I,
              WaitSeconds);
      kill(Child, SIGKILL);
      waitpid(Child, &Status, 0);
      return 2;
    }
    if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
      fprintf(stderr, "child %d failed (status %d)\n", I, Status);
      return 1;
    }
  }
  return 0;
}

int main(int argc, char **argv) {
  if (mkdir("data", 0755) != 0)
    return 1;
  if (argc == 3 && strcmp(argv[1], "fork") == 0)
    return forkMode(argv[2]);
  if (argc == 2 && strcmp(argv[1], "threads") == 0)
    return threadsMode();
  if (argc == 2 && strcmp(argv[1], "signal") == 0)
    return signalMode();
  fprintf(stderr, "usage: %s fork _exit|_Exit|exit | threads | signal\n",
          argv[0]);
  return 2;
}
