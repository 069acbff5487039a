/*===- clock.h - Trace timestamps in microseconds -------------------------===*
 *
 * Durations come from CLOCK_MONOTONIC so they are never negative, even when
 * NTP steps the wall clock. Timestamps add a wall-clock offset taken once at
 * load, so traces of different MPI ranks line up on one time axis.
 *
 * Each timestamp is truncated to whole microseconds *before* durations are
 * taken (dur = end_us - start_us): truncation is monotone, so a child span
 * stays inside its parent exactly, which the checker verifies.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_CLOCK_H
#define DFTRACER_RUNTIME_CLOCK_H

#include <stdint.h>
#include <time.h>

/* Wall-clock minus monotonic time, in microseconds; set by clock init. */
extern uint64_t dftracer_clock_offset_us_ __attribute__((visibility("hidden")));

void dftracer_clock_init(void);

static inline uint64_t dftracer_now_us(void) {
  struct timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return (uint64_t)Ts.tv_sec * 1000000u + (uint64_t)Ts.tv_nsec / 1000u +
         dftracer_clock_offset_us_;
}

/* Wall-clock nanoseconds, for the file-name hash. */
uint64_t dftracer_wall_ns(void);

#endif
