/* Every C macro of SPEC 5.1, used exactly as `annotate` inserts them. Built
 * with -Wall -Wextra -Werror by compile_matrix.cmake and
 * run under DFTRACER_ENABLE=1; the checker then verifies the call counts in
 * every_macro_c.counts.json. */
#include <dftracer/dftracer.h>

#include <stdio.h>
#include <stdlib.h>

/* A return that `annotate` cannot edit: the cleanup attribute closes the span
 * (SPEC 2.2, 5.3). */
#define CHECK(x)                                                               \
  if (!(x))                                                                    \
  return -1

static int hiddenReturn(int X) {
  DFTRACER_C_FUNCTION_START();
  CHECK(X > 0);
  DFTRACER_C_FUNCTION_END();
  return X;
}

/* START and no END at all: only the cleanup closes it. */
static int onlyStart(int X) {
  DFTRACER_C_FUNCTION_START();
  CHECK(X > 100);
  return 0;
}

static int leaf(int X) {
  DFTRACER_C_FUNCTION_START(); DFTRACER_C_FUNCTION_END(); return X + 1; }

/* The side-effect return form of SPEC 2.2: END in a nested block. */
static int sideEffectReturn(int X) {
  DFTRACER_C_FUNCTION_START();
  if (X > 1) {
    { int annotate_ret = (leaf(X)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
  }
  { __typeof__(int) annotate_ret = (leaf(X) * 2); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static const char *caseReturn(int X) {
  DFTRACER_C_FUNCTION_START();
  switch (X) {
  case 0:
    DFTRACER_C_FUNCTION_END();
    return "zero";
  case 1: DFTRACER_C_FUNCTION_END(); return "one";
  default:
    break;
  }
  DFTRACER_C_FUNCTION_END();
  return "many";
}

static int gotoCleanup(int X) {
  int Rc = 0;
  DFTRACER_C_FUNCTION_START();
  if (X < 0)
    goto error;
  Rc = X;
  goto done;
error:
  Rc = -1;
done:
  DFTRACER_C_FUNCTION_END();
  return Rc;
}

/* Braceless END stays a single statement. */
static void braceless(int X) {
  DFTRACER_C_FUNCTION_START();
  if (X)
    DFTRACER_C_FUNCTION_END();
  else
    DFTRACER_C_FUNCTION_END();
}

static void updates(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_UPDATE_INT("count", 42);
  DFTRACER_C_FUNCTION_UPDATE_STR("mode", "w\"quoted\"");
  DFTRACER_C_REGION_START(inner_region);
  DFTRACER_C_REGION_UPDATE_INT(inner_region, "bytes", 1 << 20);
  DFTRACER_C_REGION_UPDATE_STR(inner_region, "file", "/tmp/x");
  DFTRACER_C_REGION_END(inner_region);
  DFTRACER_C_REGION_START(never_ended);
  DFTRACER_C_FUNCTION_END();
}

/* Longer than a name-cache slot: formatted on every END instead. */
static void a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void fallOff(void) {
  DFTRACER_C_FUNCTION_START();
  updates();
  DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv) {
  int Sum = 0;
  DFTRACER_C_INIT(NULL, NULL, NULL);
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_METADATA(annotate_meta_0, "app", "every_macro");
  DFTRACER_C_METADATA(annotate_meta_1, "argc", argc > 1 ? argv[1] : "none");
  Sum += hiddenReturn(1) + hiddenReturn(-1);
  Sum += onlyStart(1);
  Sum += sideEffectReturn(1) + sideEffectReturn(3);
  Sum += caseReturn(0)[0] + caseReturn(1)[0] + caseReturn(2)[0];
  Sum += gotoCleanup(1) + gotoCleanup(-1);
  braceless(0);
  braceless(1);
  a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache();
  a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache_a_function_name_long_enough_to_miss_the_per_thread_name_cache();
  fallOff();
  printf("%d\n", Sum);
  if (Sum < 0) {
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    exit(1);
  }
  DFTRACER_C_FUNCTION_END();
  DFTRACER_C_FINI();
  DFTRACER_C_FINI(); /* a second FINI is harmless */
  return 0;
}
