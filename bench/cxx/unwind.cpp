// What ends a span when an exception leaves the function (docs/rules.md §8):
// thrower() has START and, as annotate writes it, no END after its throw;
// guarded() has the C++ guard. caller() catches both and calls mark() after
// each. Built with and without -DDFTRACER_TEST_NO_CLEANUP by unwind.sh.
#include <dftracer/dftracer.h>

#include <stdexcept>

static void thrower() {
  DFTRACER_C_FUNCTION_START();
  throw std::runtime_error("thrower");
}

static void guarded() {
  DFTRACER_CPP_FUNCTION();
  throw std::runtime_error("guarded");
}

static void mark() {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

static void caller() {
  DFTRACER_C_FUNCTION_START();
  try {
    thrower();
  } catch (const std::exception &) {
  }
  mark();
  try {
    guarded();
  } catch (const std::exception &) {
  }
  mark();
  DFTRACER_C_FUNCTION_END();
}

int main() {
  caller();
  return 0;
}
