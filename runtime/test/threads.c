/* Many threads trace at once, each filling and flushing its buffer many
 * times while the others do the same; the checker then verifies every span
 * was written once and nests on its own thread (threads.counts.json). */
#include <dftracer/dftracer.h>

#include <pthread.h>
#include <stdio.h>

enum { Threads = 16, Iterations = 2000 };

/* Per thread: the test is about the runtime's races, not its own. */
static _Thread_local volatile int Sink;

static void inner(int I) {
  DFTRACER_C_FUNCTION_START();
  Sink += I;
  DFTRACER_C_FUNCTION_END();
}

static void outer(int I) {
  DFTRACER_C_FUNCTION_START();
  inner(I);
  inner(I + 1);
  DFTRACER_C_FUNCTION_END();
}

static void *worker(void *Arg) {
  int I;
  DFTRACER_C_FUNCTION_START();
  (void)Arg;
  for (I = 0; I < Iterations; ++I)
    outer(I);
  DFTRACER_C_FUNCTION_END();
  return NULL;
}

int main(void) {
  pthread_t Ids[Threads];
  int I;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < Threads; ++I)
    if (pthread_create(&Ids[I], NULL, worker, NULL) != 0)
      return 1;
  for (I = 0; I < Threads; ++I)
    pthread_join(Ids[I], NULL);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  printf("%d threads done\n", Threads);
  return 0;
}
