/* FINI before INIT does nothing; spans before INIT are traced (tracing
 * starts when the library loads); a second INIT and a second FINI do
 * nothing; spans after FINI are not written (lifecycle.counts.json). */
#include <dftracer/dftracer.h>

static void traced(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void afterFini(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int Pid = 4242;
  DFTRACER_C_FINI();
  traced();
  DFTRACER_C_INIT(NULL, NULL, &Pid);
  DFTRACER_C_INIT("ignored-prefix", NULL, NULL);
  traced();
  DFTRACER_C_FINI();
  DFTRACER_C_FINI();
  afterFini();
  return 0;
}
