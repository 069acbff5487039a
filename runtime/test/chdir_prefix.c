/* A relative DFTRACER_LOG_FILE names a file in the directory the program
 * started in, even though the file is created later, after a chdir. */
#include <dftracer/dftracer.h>

#include <unistd.h>

static int leaveDirectory(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
  return chdir("/");
}

int main(void) {
  int Rc;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  Rc = leaveDirectory();
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return Rc;
}
