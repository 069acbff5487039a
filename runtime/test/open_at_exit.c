/* A thread still inside annotated functions when the process ends: its
 * spans (outer, and blocked within it) cannot be ended from the exiting
 * thread, so they are not written, while outer's five inner children are.
 * The trace must say so in open_at_exit records, which dftracer-check reads
 * as the reason those children have no parent (runtime/src/open_at_exit.h).
 * Argument "fini": the process calls FINI before exit(); otherwise exit()
 * alone finishes the trace. */
#include <dftracer/dftracer.h>

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t Never = PTHREAD_COND_INITIALIZER; /* never signalled */
static int Blocked;

static void inner(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void blocked(void) {
  DFTRACER_C_FUNCTION_START();
  pthread_mutex_lock(&Lock);
  Blocked = 1;
  for (;;)
    pthread_cond_wait(&Never, &Lock);
}

static void *outer(void *Arg) {
  int I;
  DFTRACER_C_FUNCTION_START();
  (void)Arg;
  for (I = 0; I < 5; ++I)
    inner();
  blocked();
  DFTRACER_C_FUNCTION_END();
  return NULL;
}

int main(int Argc, char **Argv) {
  pthread_t Thread;
  int Ready = 0;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  if (pthread_create(&Thread, NULL, outer, NULL) != 0)
    return 2;
  pthread_detach(Thread);
  while (!Ready) {
    usleep(1000);
    pthread_mutex_lock(&Lock);
    Ready = Blocked;
    pthread_mutex_unlock(&Lock);
  }
  DFTRACER_C_FUNCTION_END();
  if (Argc > 1 && strcmp(Argv[1], "fini") == 0)
    DFTRACER_C_FINI();
  exit(0);
}
