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
 *
 *   dft_no_malloc [_exit | _exit_small]
 *
 * With an argument, a forked child does the same (_exit: the warm-up and
 * the events; _exit_small: ten spans, so that the file is created at the
 * end) and ends with _exit() under the counter, which now counts free()
 * too: finishing the trace there (closing spans, flushing every thread,
 * stopping the writer, creating, writing and closing the file, plain or
 * gzip) may run in a signal handler that interrupted malloc or free. The
 * counters are in shared memory; the parent reports them.
 */
#define _GNU_SOURCE
#include <dftracer/dftracer.h>

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* The runtime's busy flag: hidden, but this is the same link. */
extern _Thread_local int dftracer_io_busy_
    __attribute__((tls_model("initial-exec"), visibility("hidden")));

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

/* Shared with a forked child whose _exit is counted (main). */
static struct counts {
  int Counting; /* atomic */
  int Counted;  /* atomic */
  void *FirstCaller;
  size_t FirstSize;
} Local, *C = &Local;

static void note(size_t Size, void *Caller) {
  if (!__atomic_load_n(&C->Counting, __ATOMIC_RELAXED) || !dftracer_io_busy_)
    return;
  if (__atomic_fetch_add(&C->Counted, 1, __ATOMIC_RELAXED) == 0) {
    C->FirstCaller = Caller;
    C->FirstSize = Size;
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

/* Counted (free(NULL) is nothing) only around _exit: the events never free,
 * but a thread's exit hands its UPDATE args back to free (not an event). */
static int CountFree;

void free(void *Block) {
  if (Block && __atomic_load_n(&CountFree, __ATOMIC_RELAXED))
    note(0, __builtin_return_address(0));
  __libc_free(Block);
}

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

/* Warm-up, then the events under the counter. */
static int warmUpAndEvents(void) {
  int I, Fd;
  if (mkdir("data", 0755) != 0)
    return 0;
  /* Warm-up: fill more than a buffer, so that the writer thread runs. The
   * spans alone do not when throttled (they are counted, not written): the
   * I/O events, which are never throttled, do. */
  for (I = 0; I < Pairs; ++I)
    leaf(I);
  if (!touch("warm", 0) ||
      (Fd = open("data/warm-writes", O_CREAT | O_WRONLY, 0644)) < 0)
    return 0;
  for (I = 0; I < Pairs; ++I)
    if (write(Fd, "x", 1) != 1)
      return 0;
  if (close(Fd) != 0)
    return 0;
  __atomic_store_n(&C->Counting, 1, __ATOMIC_RELAXED);
  return events();
}

static int report(const char *When) {
  if (C->Counted) {
    fprintf(stderr,
            "%d allocations or frees inside the runtime %s; the first: "
            "%zu bytes, called from %p\n",
            C->Counted, When, C->FirstSize, C->FirstCaller);
    return 1;
  }
  printf("no allocation inside the runtime %s\n", When);
  return 0;
}

/* A child ends with _exit under the counter; the parent reports. */
static int underscoreExit(int Small) {
  int Status, I;
  pid_t Child;
  C = (struct counts *)mmap(NULL, sizeof(*C), PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (C == MAP_FAILED)
    return 1;
  Child = fork();
  if (Child == 0) {
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (Small) {
      __atomic_store_n(&C->Counting, 1, __ATOMIC_RELAXED);
      for (I = 0; I < 10; ++I)
        leaf(I);
    } else if (!warmUpAndEvents()) {
      _exit(3);
    }
    __atomic_store_n(&CountFree, 1, __ATOMIC_RELAXED);
    _exit(0); /* with main's span open: finishing closes it */
  }
  if (Child < 0 || waitpid(Child, &Status, 0) != Child || !WIFEXITED(Status))
    return 1;
  if (WEXITSTATUS(Status) != 0) {
    fprintf(stderr, "the child failed (%d)\n", WEXITSTATUS(Status));
    return 1;
  }
  return report("during events and _exit");
}

int main(int argc, char **argv) {
  int Ok;
  if (argc > 1)
    return underscoreExit(strcmp(argv[1], "_exit_small") == 0);
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  Ok = warmUpAndEvents();
  __atomic_store_n(&C->Counting, 0, __ATOMIC_RELAXED);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  if (!Ok) {
    fprintf(stderr, "an I/O call failed\n");
    return 1;
  }
  return report("during events");
}
