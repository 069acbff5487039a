/*===- traced.h - Functions measured by the runtime benchmark -------------===*/
#ifndef DFTRACER_BENCH_TRACED_H
#define DFTRACER_BENCH_TRACED_H

#ifdef __cplusplus
extern "C" {
#endif

/* An annotated function with an empty body: one START+END pair. */
void dftBenchTracedPair(void);
/* The same function without annotation: the call itself. */
void dftBenchEmptyCall(void);
/* Two clock_gettime(CLOCK_MONOTONIC) calls, the floor of any span. */
void dftBenchClockPair(void);

#ifdef __cplusplus
}
#endif

#endif
