/* A trace of several compact blocks (compact_case.cmake): spans with UPDATE
 * args of every shape the encoder handles (deltas up and down, negative and
 * large integers, strings that need escapes, keys beyond the delta slots),
 * names of every length, a metadata line longer than a block's line limit
 * (kept as text parts), and spans from a second thread. */
#include <dftracer/dftracer.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void step(long long I) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_UPDATE_INT("i", I);
  DFTRACER_C_FUNCTION_UPDATE_INT("down", 1000000 - 7 * I);
  DFTRACER_C_FUNCTION_UPDATE_INT("neg", -I * 1099511627776LL);
  if (I % 97 == 0)
    DFTRACER_C_FUNCTION_UPDATE_STR("path", "/a \"quoted\"\\dir/\xc3\xa9t\xc3\xa9\n\x01");
  if (I % 1000 == 0) {
    char Key[16];
    int K;
    for (K = 0; K < 80; ++K) { /* more keys than the 64 delta slots */
      snprintf(Key, sizeof(Key), "k%d", K);
      DFTRACER_C_FUNCTION_UPDATE_INT(Key, I + K);
    }
  }
  DFTRACER_C_FUNCTION_END();
}

static void *worker(void *Arg) {
  long long I;
  (void)Arg;
  for (I = 0; I < 5000; ++I) {
    DFTRACER_C_REGION_START(worker_region);
    DFTRACER_C_REGION_UPDATE_INT(worker_region, "i", I);
    DFTRACER_C_REGION_END(worker_region);
  }
  return NULL;
}

int main(void) {
  static char Long[300 * 1024];
  pthread_t T;
  long long I;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  pthread_create(&T, NULL, worker, NULL);
  memset(Long, 'x', sizeof(Long) - 1);
  DFTRACER_C_METADATA(long_value, "long", Long);
  for (I = 0; I < 150000; ++I)
    step(I);
  pthread_join(T, NULL);
  DFTRACER_C_FINI();
  return 0;
}
