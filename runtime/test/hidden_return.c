/* A return hidden in a macro, which `annotate` cannot edit (SPEC 2.2): only
 * the cleanup attribute closes the span. If it did not, `after` would run
 * inside the still-open `checked` span and be written at level 3; the test
 * requires level 2 (a child of main). */
#include <dftracer/dftracer.h>

#define CHECK(x)                                                               \
  do {                                                                         \
    if (!(x))                                                                  \
      return -1;                                                               \
  } while (0)

static int checked(int X) {
  DFTRACER_C_FUNCTION_START();
  CHECK(X > 0);
  DFTRACER_C_FUNCTION_END();
  return X;
}

static void after(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

int main(void) {
  int Rc;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  Rc = checked(-1);
  after();
  Rc += checked(2);
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  return Rc == 1 ? 0 : 1;
}
