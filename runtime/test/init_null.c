/* INIT(NULL, NULL, NULL) with no DFTRACER_LOG_FILE: the default prefix
 * "./trace" applies and INIT guarantees a file even with no span. */
#include <dftracer/dftracer.h>

int main(void) {
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FINI();
  return 0;
}
