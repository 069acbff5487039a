/*===- clock.h - Trace timestamps in microseconds -------------------------===*
 *
 * Timestamps are CLOCK_MONOTONIC plus a wall-clock offset taken once at
 * load: durations are never negative, even when NTP steps the wall clock,
 * and traces of different MPI ranks line up on one time axis.
 *
 * A span reads the clock twice, and clock_gettime is a third of a span's
 * cost (~20 ns through the vDSO, which itself reads the time-stamp counter).
 * So where the counter can stand in for CLOCK_MONOTONIC, a read is one
 * `rdtsc`, converted with the calling thread's anchor:
 *
 * \code
 *   us = AnchorUs + (AnchorFrac + (rdtsc - AnchorTsc) * Mult) >> 40
 * \endcode
 *
 *  - Used only when the CPU reports an invariant counter (constant rate,
 *    running in every sleep state: CPUID 0x80000007 EDX bit 8) AND the kernel
 *    keeps its own time with it (clocksource `tsc`: it found the counters of
 *    all CPUs in step), unless DFTRACER_CLOCK=monotonic. Otherwise every read
 *    is clock_gettime.
 *  - Mult (microseconds per tick, fixed point) is measured against
 *    CLOCK_MONOTONIC between a pair (counter, clock_gettime) taken at load
 *    and one taken at least 1 ms later, and again at every anchor over the
 *    whole time since load. Until then, reads use clock_gettime.
 *  - A thread takes a new anchor (a pair) when the counter reads below it (a
 *    CPU whose counter lags) or when it has served as long as the rate has
 *    been measured over, at most 50 ms: the error against CLOCK_MONOTONIC
 *    stays within the ~20 ns uncertainty of one pair, plus what NTP changes
 *    that clock's rate by within 50 ms (0.5 us for a change of 10 ppm).
 *  - A pair is the counter read between two clock_gettime reads; how far
 *    apart those are (its width) bounds its error. A thread preempted
 *    inside it makes it wide, so a pair is the narrowest of a few tries,
 *    stopping at one within 200 ns. If all are wide, the pair is used but
 *    marked: a wide anchor serves 1 ms before a new pair is tried, and
 *    gives way to the first narrower one; a wide pair taken at load (the
 *    rate's base) gives way to the first narrower one taken later.
 *  - Values never decrease on a thread (each read returns at least the last
 *    one): neither `rdtsc` running ahead out of order nor a new anchor can put
 *    a child's start before its parent's.
 *
 * Each timestamp is truncated to whole microseconds before durations are
 * taken (dur = end_us - start_us): truncation is monotone, so a child span
 * stays inside its parent exactly, which the checker verifies.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_CLOCK_H
#define DFTRACER_RUNTIME_CLOCK_H

#include <stdint.h>
#include <time.h>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define DFTRACER_HAVE_TSC 1
#else
#define DFTRACER_HAVE_TSC 0
#endif

/* Fraction bits of Mult and AnchorFrac. */
enum { DftClockShift = 40 };

/* A thread's clock: its anchor and the last value it returned. Zeroed, it
 * takes an anchor on first use. */
struct dftracer_clock {
  uint64_t AnchorTsc;
  uint64_t AnchorUs;   /* trace microseconds at AnchorTsc, */
  uint64_t AnchorFrac; /* plus this many 2^-40 microseconds */
  uint64_t Mult;       /* microseconds per tick, times 2^40 */
  uint64_t Limit;      /* ticks past AnchorTsc before the slow path; 0: none */
  uint64_t LastUs;
  /* Slow path only. */
  uint64_t Lifetime; /* ticks past AnchorTsc the anchor may serve */
  uint64_t WidthNs;  /* the anchor's pair's width */
};

/* The fast path's counter read; the unit test reads its simulated counter
 * (dftracer_clock_simulate_). */
#ifndef DFTRACER_CLOCK_COUNTER
#define DFTRACER_CLOCK_COUNTER() __rdtsc()
#endif

/* Nonzero when reads use the counter (set at load). */
extern int dftracer_clock_tsc_ __attribute__((visibility("hidden")));
/* Wall clock minus CLOCK_MONOTONIC, in nanoseconds (set at load). */
extern uint64_t dftracer_clock_offset_ns_ __attribute__((visibility("hidden")));

/* At load: the wall-clock offset, whether the counter is used, and the first
 * calibration pair. Monotonic forces clock_gettime. */
void dftracer_clock_init(int Monotonic);

/* A counter read that the anchor cannot serve: calibrate, re-anchor C. */
uint64_t dftracer_clock_slow_(struct dftracer_clock *C);

#if DFTRACER_HAVE_TSC
/* Where the counter path's reads come from: the hardware, or the unit
 * test's simulation (which can preempt the caller at a chosen read). */
struct dftracer_clock_source {
  uint64_t (*Counter)(void);
  uint64_t (*MonotonicNs)(void);
};

/* Starts over as at load, reading S, with the counter used whatever the
 * machine; dftracer_clock_init goes back to the hardware. */
void dftracer_clock_simulate_(const struct dftracer_clock_source *S);
/* The source's counter, for the unit test's fast path. */
uint64_t dftracer_clock_counter_(void);
#endif

/* CLOCK_MONOTONIC on the trace's time axis. */
static inline uint64_t dftracer_monotonic_us(void) {
  struct timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return ((uint64_t)Ts.tv_sec * 1000000000u + (uint64_t)Ts.tv_nsec +
          dftracer_clock_offset_ns_) /
         1000u;
}

/* Microseconds on the trace's time axis, never less than the last value C
 * returned, when the read needs no call (the TSC, within its anchor's
 * limit): 1 and the time in *Out; else 0 and nothing changed, for the
 * caller's general path (dftracer_now_us). */
static inline int dftracer_now_us_nocall(struct dftracer_clock *C,
                                         uint64_t *Out) {
#if DFTRACER_HAVE_TSC
  if (__builtin_expect(dftracer_clock_tsc_, 1)) {
    uint64_t Ticks = DFTRACER_CLOCK_COUNTER() - C->AnchorTsc, Us;
    if (__builtin_expect(Ticks < C->Limit, 1)) {
      Us = C->AnchorUs + ((C->AnchorFrac + Ticks * C->Mult) >> DftClockShift);
      if (__builtin_expect(Us < C->LastUs, 0))
        Us = C->LastUs;
      C->LastUs = Us;
      *Out = Us;
      return 1;
    }
  }
#endif
  (void)C;
  (void)Out;
  return 0;
}

/* The same, with the calls it may need: a new anchor, or CLOCK_MONOTONIC
 * where the TSC is not used. */
static inline uint64_t dftracer_now_us(struct dftracer_clock *C) {
  uint64_t Us;
  if (__builtin_expect(dftracer_now_us_nocall(C, &Us), 1))
    return Us;
#if DFTRACER_HAVE_TSC
  if (dftracer_clock_tsc_)
    Us = dftracer_clock_slow_(C);
  else
#endif
    Us = dftracer_monotonic_us();
  if (__builtin_expect(Us < C->LastUs, 0))
    Us = C->LastUs;
  C->LastUs = Us;
  return Us;
}

/* A raw reading for durations only (a sampled throttled call, throttle.h):
 * the counter's ticks when reads use it, else CLOCK_MONOTONIC nanoseconds.
 * One `rdtsc` and no conversion: differences are summed and converted
 * once, by dftracer_clock_ticks_ns, at the end. */
static inline uint64_t dftracer_clock_ticks(void) {
#if DFTRACER_HAVE_TSC
  if (__builtin_expect(dftracer_clock_tsc_, 1))
    return DFTRACER_CLOCK_COUNTER();
#endif
  {
    struct timespec Ts;
    clock_gettime(CLOCK_MONOTONIC, &Ts);
    return (uint64_t)Ts.tv_sec * 1000000000u + (uint64_t)Ts.tv_nsec;
  }
}

/* Nanoseconds in Ticks of dftracer_clock_ticks: the counter's measured
 * rate (measured now, over the time since load, if no read has yet). */
uint64_t dftracer_clock_ticks_ns(uint64_t Ticks);

/* Wall-clock nanoseconds, for the file-name hash. */
uint64_t dftracer_wall_ns(void);

#endif
