/* Uses the installed header and library only. */
#include <dftracer/dftracer.h>

static int work(int X) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
  return X + 1;
}

int main(void) {
  int R;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  R = work(1);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return R == 2 ? 0 : 1;
}
