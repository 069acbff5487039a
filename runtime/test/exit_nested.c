/* exit() three calls deep, with no FINI: the atexit flush must write a valid
 * file in which the three open spans are closed (exit_nested.counts.json). */
#include <dftracer/dftracer.h>

#include <stdlib.h>

static void finishedBefore(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void level2(int Code) {
  DFTRACER_C_FUNCTION_START();
  exit(Code);
}

static void level1(int Code) {
  DFTRACER_C_FUNCTION_START();
  level2(Code);
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  finishedBefore();
  level1(0);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return 1;
}
