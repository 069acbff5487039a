/* A signal handler traces while the thread it interrupted is inside malloc.
 *
 * open/write/close are async-signal-safe, so a correct program may call
 * them in a handler (a crash handler writing a log, say) even when the
 * interrupted code holds malloc's lock. Their recording must then neither
 * allocate nor wait for a lock the thread holds: glibc's arena lock is not
 * recursive, so a runtime that mallocs there deadlocks the thread (or
 * corrupts the heap).
 *
 * Victim threads loop on malloc/free of sizes past the thread cache, so they
 * spend most of their time holding their arena's lock, and are never traced
 * outside the handler: the handler's events are each victim's first (the
 * runtime creates the thread's state there), each on a path used for the
 * first time (its FH line), under a span whose name is too long for the
 * runtime's name cache. The main thread sends the signals one at a time
 * with pthread_kill and waits for each handler; a handler that does not
 * finish within WaitSeconds is a deadlock, reported with exit status 2. The
 * counts of every event are then checked in the trace.
 */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { Victims = 100, SignalsPerVictim = 20, WaitSeconds = 10, Slots = 16 };

/* Longer than the runtime's cached `"name":..,"cat":..,` text (232 bytes):
 * formatted on every END, as a C++ signature would be. */
#define LONG_NAME                                                              \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_end"

static int Handled;  /* atomic: handlers that finished */
static int Failures; /* atomic: handler calls that failed */
static int Stop;     /* atomic: the current victim may leave */
static int Started;  /* atomic: the current victim is allocating */
static int VictimNo; /* which victim the handler runs on (set before) */

/* "data/v<victim>-<signal>" without snprintf, which is not
 * async-signal-safe. */
static void pathOf(char *Out, int Victim, int Signal) {
  char Digits[16];
  int N = 0, V;
  memcpy(Out, "data/v", 6);
  Out += 6;
  for (V = Victim; N == 0 || V; V /= 10)
    Digits[N++] = (char)('0' + V % 10);
  while (N)
    *Out++ = Digits[--N];
  *Out++ = '-';
  for (V = Signal; N == 0 || V; V /= 10)
    Digits[N++] = (char)('0' + V % 10);
  while (N)
    *Out++ = Digits[--N];
  *Out = '\0';
}

static void onSignal(int Sig) {
  int Saved = errno, Fd, Ok;
  char Path[64];
  struct dftracer_span *Span = dftracer_span_start_(LONG_NAME, "C_APP");
  (void)Sig;
  pathOf(Path, __atomic_load_n(&VictimNo, __ATOMIC_RELAXED),
         __atomic_load_n(&Handled, __ATOMIC_RELAXED));
  Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  Ok = Fd >= 0 && write(Fd, "s", 1) == 1;
  Ok = Fd >= 0 && close(Fd) == 0 && Ok;
  dftracer_span_finish_(&Span);
  if (!Ok)
    __atomic_fetch_add(&Failures, 1, __ATOMIC_RELAXED);
  __atomic_fetch_add(&Handled, 1, __ATOMIC_RELEASE);
  errno = Saved;
}

/* Allocates and frees blocks of 2-64 KiB (past glibc's per-thread cache,
 * so every call takes the arena lock) in a shuffled order until told to
 * stop. */
static void *victim(void *Arg) {
  void *Blocks[Slots] = {0};
  unsigned Seed = (unsigned)(size_t)Arg * 2654435761u + 1;
  int I;
  __atomic_store_n(&Started, 1, __ATOMIC_RELEASE);
  while (!__atomic_load_n(&Stop, __ATOMIC_ACQUIRE)) {
    unsigned Slot;
    Seed = Seed * 1103515245u + 12345u;
    Slot = (Seed >> 16) % Slots;
    free(Blocks[Slot]);
    Blocks[Slot] = malloc(2048 + (Seed >> 8) % (62 * 1024));
    if (Blocks[Slot])
      memset(Blocks[Slot], 1, 16);
  }
  for (I = 0; I < Slots; ++I)
    free(Blocks[I]);
  return NULL;
}

static void waitForHandler(int Before) {
  struct timespec Start, Now, Nap = {0, 20000};
  clock_gettime(CLOCK_MONOTONIC, &Start);
  while (__atomic_load_n(&Handled, __ATOMIC_ACQUIRE) == Before) {
    clock_gettime(CLOCK_MONOTONIC, &Now);
    if (Now.tv_sec - Start.tv_sec > WaitSeconds) {
      fprintf(stderr,
              "signal %d: the handler did not finish in %d s: the thread "
              "is deadlocked\n",
              Before, WaitSeconds);
      _exit(2);
    }
    nanosleep(&Nap, NULL);
  }
}

int main(void) {
  struct sigaction Sa;
  int V, S;
  DFTRACER_C_FUNCTION_START();
  if (mkdir("data", 0755) != 0 && errno != EEXIST)
    return 1;
  memset(&Sa, 0, sizeof(Sa));
  Sa.sa_handler = onSignal;
  Sa.sa_flags = SA_RESTART;
  if (sigaction(SIGUSR1, &Sa, NULL) != 0)
    return 1;
  for (V = 0; V < Victims; ++V) {
    pthread_t Id;
    __atomic_store_n(&Stop, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&Started, 0, __ATOMIC_RELAXED);
    __atomic_store_n(&VictimNo, V, __ATOMIC_RELAXED);
    if (pthread_create(&Id, NULL, victim, (void *)(size_t)V) != 0)
      return 1;
    while (!__atomic_load_n(&Started, __ATOMIC_ACQUIRE))
      sched_yield();
    for (S = 0; S < SignalsPerVictim; ++S) {
      int Before = __atomic_load_n(&Handled, __ATOMIC_ACQUIRE);
      if (pthread_kill(Id, SIGUSR1) != 0)
        return 1;
      waitForHandler(Before);
    }
    __atomic_store_n(&Stop, 1, __ATOMIC_RELEASE);
    pthread_join(Id, NULL);
  }
  if (Failures) {
    fprintf(stderr, "%d handler calls failed\n", Failures);
    return 1;
  }
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  printf("%d signals handled on %d threads inside malloc\n", Handled, Victims);
  return 0;
}
