#include "clock.h"

uint64_t dftracer_clock_offset_us_;

static uint64_t toUs(const struct timespec *Ts) {
  return (uint64_t)Ts->tv_sec * 1000000u + (uint64_t)Ts->tv_nsec / 1000u;
}

void dftracer_clock_init(void) {
  struct timespec Wall, Mono;
  clock_gettime(CLOCK_REALTIME, &Wall);
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  dftracer_clock_offset_us_ = toUs(&Wall) - toUs(&Mono);
}

uint64_t dftracer_wall_ns(void) {
  struct timespec Wall;
  clock_gettime(CLOCK_REALTIME, &Wall);
  return (uint64_t)Wall.tv_sec * 1000000000u + (uint64_t)Wall.tv_nsec;
}
