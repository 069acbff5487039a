/* The event path never calls malloc: a signal handler may trace while the
 * code it interrupted holds malloc's lock (io/io_signal_malloc.c shows the
 * deadlock that follows; this test shows there is nothing left to cause
 * it, deterministically).
 *
 * Linked with the static archive, this program replaces malloc, calloc and
 * realloc (glibc's own calls go through them too: strdup's, fopen's,
 * pthread_create's) and counts the calls made while the calling thread is
 * inside the runtime (its busy flag, io_core.h, which every START, END,
 * METADATA and I/O event sets, the thread's first event and exit included,
 * and which the writer thread keeps set). After a warm-up that starts the
 * writer thread (its creation allocates, once per process), it makes every
 * kind of event under the counter, the first ones of new threads and the
 * first uses of new paths among them, and fails when any was counted.
 * UPDATE is left out: it may allocate (its args grow with malloc), and it
 * is not an event.
 */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The runtime's busy flag: hidden, but this is the same link. */
extern _Thread_local int dftracer_io_busy_
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static int Counting;  /* atomic */
static int Counted;   /* atomic */
static void *FirstCaller;
static size_t FirstSize;

static void note(size_t Size, void *Caller) {
  if (!__atomic_load_n(&Counting, __ATOMIC_RELAXED) || !dftracer_io_busy_)
    return;
  if (__atomic_fetch_add(&Counted, 1, __ATOMIC_RELAXED) == 0) {
    FirstCaller = Caller;
    FirstSize = Size;
  }
}

void *malloc(size_t Size) {
  note(Size, __builtin_return_address(0));
  return __libc_malloc(Size);
}

void *calloc(size_t Count, size_t Size) {
  note(Count * Size, __builtin_return_address(0));
  return __libc_calloc(Count, Size);
}

void *realloc(void *Old, size_t Size) {
  note(Size, __builtin_return_address(0));
  return __libc_realloc(Old, Size);
}

void free(void *Block) { __libc_free(Block); }

/* Longer than the runtime's name cache holds. */
#define LONG_NAME                                                              \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_"          \
  "a_span_name_longer_than_the_name_cache_of_the_runtime_0123456789_end"

enum { Pairs = 20000, Depth = 200, Paths = 50, Threads = 4 };

static volatile int Sink;

static void leaf(int I) {
  DFTRACER_C_FUNCTION_START();
  Sink += I;
  DFTRACER_C_FUNCTION_END();
}

/* Deeper than one block of span records: the pool grows. */
static void nest(int Level) {
  DFTRACER_C_FUNCTION_START();
  if (Level > 1)
    nest(Level - 1);
  DFTRACER_C_FUNCTION_END();
}

/* open, write and close of a path not used before (its FH line). */
static int touch(const char *Dir, int N) {
  char Path[64];
  int Fd, Ok;
  snprintf(Path, sizeof(Path), "data/%s-%d", Dir, N);
  Fd = open(Path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
  Ok = Fd >= 0 && write(Fd, "x", 1) == 1;
  return Fd >= 0 && close(Fd) == 0 && Ok;
}

static void *thread(void *Arg) {
  int Ok;
  DFTRACER_C_FUNCTION_START();
  leaf(0);
  Ok = touch("thread", (int)(size_t)Arg);
  DFTRACER_C_FUNCTION_END();
  return Ok ? Arg : NULL;
}

static int events(void) {
  struct dftracer_span *Long;
  pthread_t Ids[Threads];
  FILE *F;
  int I, Ok = 1;
  for (I = 0; I < Pairs; ++I)
    leaf(I);
  Long = dftracer_span_start_(LONG_NAME, "C_APP");
  dftracer_span_finish_(&Long);
  nest(Depth);
  DFTRACER_C_METADATA(phase, "phase", "events");
  for (I = 0; I < Paths; ++I)
    Ok = touch("main", I) && Ok;
  /* fopen's own malloc is the program's, not the runtime's. */
  F = fopen("data/stream", "w");
  Ok = F && fputs("x", F) >= 0 && fclose(F) == 0 && Ok;
  for (I = 0; I < Threads; ++I)
    if (pthread_create(&Ids[I], NULL, thread, (void *)(size_t)(I + 1)) != 0)
      return 0;
  for (I = 0; I < Threads; ++I) {
    void *Ret;
    pthread_join(Ids[I], &Ret);
    Ok = Ret != NULL && Ok;
  }
  return Ok;
}

int main(void) {
  int I, Ok;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  if (mkdir("data", 0755) != 0)
    return 1;
  /* Warm-up: fill more than a buffer, so that the writer thread runs. */
  for (I = 0; I < Pairs; ++I)
    leaf(I);
  if (!touch("warm", 0))
    return 1;
  __atomic_store_n(&Counting, 1, __ATOMIC_RELAXED);
  Ok = events();
  __atomic_store_n(&Counting, 0, __ATOMIC_RELAXED);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  if (!Ok) {
    fprintf(stderr, "an I/O call failed\n");
    return 1;
  }
  if (Counted) {
    fprintf(stderr,
            "%d allocations inside the runtime during events; the first: "
            "%zu bytes, called from %p\n",
            Counted, FirstSize, FirstCaller);
    return 1;
  }
  printf("no allocation inside the runtime during events\n");
  return 0;
}
