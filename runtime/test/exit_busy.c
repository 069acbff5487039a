/* exit() while the writer thread is busy: the main thread and three workers
 * fill many buffers (tens of MB of trace), then main calls exit() two calls
 * deep while the workers are still tracing. The atexit flush must stop the
 * writer with its queue written, close main's open spans, and leave a valid
 * file; the workers' spans still open at that moment are simply absent. */
#include <dftracer/dftracer.h>

#include <pthread.h>
#include <stdlib.h>

enum { Workers = 3, MainSpans = 200000 };

/* Per thread: the test is about the runtime's races, not its own. */
static _Thread_local volatile int Sink;

static void work(int I) {
  DFTRACER_C_FUNCTION_START();
  Sink += I;
  DFTRACER_C_FUNCTION_END();
}

static void *spin(void *Arg) {
  int I;
  (void)Arg;
  for (I = 0;; ++I)
    work(I);
  return NULL;
}

static void exitInside(void) {
  DFTRACER_C_FUNCTION_START();
  exit(0);
}

static void busyThenExit(void) {
  int I;
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < MainSpans; ++I)
    work(I);
  exitInside();
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  pthread_t Ids[Workers];
  int I;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  for (I = 0; I < Workers; ++I)
    if (pthread_create(&Ids[I], NULL, spin, NULL) != 0)
      return 1;
  busyThenExit();
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 1;
}
