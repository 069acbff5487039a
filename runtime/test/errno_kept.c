/* START and END leave errno as the program set it, also when the trace
 * cannot be written: run with DFTRACER_LOG_FILE in a directory that does
 * not exist, the first full buffer's hand-over, inside an END, tries to
 * create the file and fails. */
#include <dftracer/dftracer.h>

#include <errno.h>
#include <stdio.h>

static void traced(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int I;
  for (I = 0; I < 100000; ++I) {
    errno = 1234;
    traced();
    if (errno != 1234) {
      fprintf(stderr, "errno_kept: errno %d after call %d\n", errno, I);
      return 1;
    }
  }
  return 0;
}
