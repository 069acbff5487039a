/*===- traced.c - Functions measured by the runtime benchmark -------------===*
 *
 * Kept out of line (noinline) so that each benchmark iteration is one call,
 * as in an annotated program.
 *===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "traced.h"

#include <dftracer/dftracer.h>

#include <time.h>

__attribute__((noinline)) void dftBenchTracedPair(void) {
  DFTRACER_C_FUNCTION_START();
  DFTRACER_C_FUNCTION_END();
}

__attribute__((noinline)) void dftBenchEmptyCall(void) {
  __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void dftBenchClockPair(void) {
  struct timespec A, B;
  clock_gettime(CLOCK_MONOTONIC, &A);
  clock_gettime(CLOCK_MONOTONIC, &B);
  __asm__ volatile("" : : "r"(&A), "r"(&B) : "memory");
}
