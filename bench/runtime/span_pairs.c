/* N calls of an annotated function whose body is one multiply-add: what
 * the span pair costs, START to END. Linked with the runtime under test
 * by instructions.sh, run under callgrind with tracing on and unthrottled
 * (every span written).
 *
 *   span_pairs [N] */
#include <dftracer/dftracer.h>

#include <stdlib.h>

static __attribute__((noinline)) long work(long X) {
  DFTRACER_C_FUNCTION_START();
  X = X * 3 + 1;
  DFTRACER_C_FUNCTION_END();
  return X;
}

int main(int argc, char **argv) {
  long N = argc > 1 ? atol(argv[1]) : 100000, I, S = 0;
  for (I = 0; I < N; ++I)
    S += work(I);
  return S == 42 ? 1 : 0;
}
