#define _GNU_SOURCE /* syscall */
#include "clock.h"

#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int dftracer_clock_tsc_;
uint64_t dftracer_clock_offset_ns_;

static uint64_t toNs(const struct timespec *Ts) {
  return (uint64_t)Ts->tv_sec * 1000000000u + (uint64_t)Ts->tv_nsec;
}

#if DFTRACER_HAVE_TSC
#include <cpuid.h>

/* The counter's rate is first measured CalibrationNs after load, from the
 * pair taken then and the one taken at load, and measured again at every
 * anchor over the whole time since load. An anchor serves for at most as
 * long as that interval (and MaxAnchorUs): the rate's error, at most the
 * uncertainty of a pair (~20 ns) over the interval, then adds at most that
 * much before the next anchor. */
enum { CalibrationNs = 1000 * 1000, MaxAnchorUs = 50 * 1000 };

static uint64_t Tsc0, Ns0;  /* the pair taken at load */
static uint64_t SharedMult; /* atomic; 0 until the rate is measured */

static uint64_t monotonicNs(void) {
  struct timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return toNs(&Ts);
}

/* CPUID: the counter runs at a constant rate in every state. */
static int invariantTsc(void) {
  unsigned A, B, C, D;
  return __get_cpuid(0x80000007u, &A, &B, &C, &D) && (D & (1u << 8));
}

/* The kernel keeps time with the counter: it checked that the counters of
 * all CPUs agree. Read with system calls (the runtime never goes through
 * the functions it intercepts); unknown counts as yes. */
static int kernelUsesTsc(void) {
  static const char Path[] =
      "/sys/devices/system/clocksource/clocksource0/current_clocksource";
  char Name[32] = {0};
  long N;
  int Fd = (int)syscall(SYS_openat, AT_FDCWD, Path, O_RDONLY | O_CLOEXEC);
  if (Fd < 0)
    return 1;
  N = syscall(SYS_read, Fd, Name, sizeof(Name) - 1);
  syscall(SYS_close, Fd);
  return N <= 0 || strncmp(Name, "tsc\n", 4) == 0;
}

/* A counter read between two clock_gettime reads, paired with their
 * midpoint: the tightest of up to PairTries, stopping at one within
 * GoodPairNs (a try the scheduler interrupted is far wider). */
enum { PairTries = 8, GoodPairNs = 200 };
static uint64_t pair(uint64_t *Ns) {
  uint64_t Best = ~(uint64_t)0, Tsc = 0;
  int I;
  for (I = 0; I < PairTries && Best > GoodPairNs; ++I) {
    uint64_t Before = monotonicNs(), Ticks, After;
    _mm_lfence();
    Ticks = __rdtsc();
    _mm_lfence();
    After = monotonicNs();
    if (After - Before < Best) {
      Best = After - Before;
      Tsc = Ticks;
      *Ns = Before + Best / 2;
    }
  }
  return Tsc;
}

/* Microseconds per tick times 2^40, measured since load; 0 while too soon. */
static uint64_t measureRate(uint64_t Tsc, uint64_t Ns) {
  if (Ns < Ns0 + CalibrationNs || Tsc <= Tsc0)
    return 0;
  return (uint64_t)(((unsigned __int128)(Ns - Ns0) << DftClockShift) /
                    ((unsigned __int128)(Tsc - Tsc0) * 1000u));
}

uint64_t dftracer_clock_slow_(struct dftracer_clock *C) {
  uint64_t Ns = 0, Tsc, Mult, Total, Span, Limit;
  if (!__atomic_load_n(&SharedMult, __ATOMIC_RELAXED)) {
    /* Too soon to know the rate: one clock_gettime, as without a counter. */
    Ns = monotonicNs();
    if (Ns < Ns0 + CalibrationNs)
      return (Ns + dftracer_clock_offset_ns_) / 1000u;
  }
  Tsc = pair(&Ns);
  Mult = measureRate(Tsc, Ns);
  if (Mult)
    __atomic_store_n(&SharedMult, Mult, __ATOMIC_RELAXED);
  else
    Mult = __atomic_load_n(&SharedMult, __ATOMIC_RELAXED);
  Total = Ns + dftracer_clock_offset_ns_;
  if (!Mult)
    return Total / 1000u;
  /* Ticks in the anchor's lifetime, and never so many that Ticks * Mult
   * overflows. */
  Span = (Ns - Ns0) / 1000u;
  if (Span > MaxAnchorUs)
    Span = MaxAnchorUs;
  Limit = (Span << DftClockShift) / Mult;
  if (Limit > (~(uint64_t)0 >> 1) / Mult)
    Limit = (~(uint64_t)0 >> 1) / Mult;
  C->AnchorTsc = Tsc;
  C->AnchorUs = Total / 1000u;
  C->AnchorFrac = ((Total % 1000u) << DftClockShift) / 1000u;
  C->Mult = Mult;
  C->Limit = Limit;
  return C->AnchorUs;
}
#endif

void dftracer_clock_init(int Monotonic) {
  struct timespec Wall, Mono;
  clock_gettime(CLOCK_REALTIME, &Wall);
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  dftracer_clock_offset_ns_ = toNs(&Wall) - toNs(&Mono);
#if DFTRACER_HAVE_TSC
  dftracer_clock_tsc_ = !Monotonic && invariantTsc() && kernelUsesTsc();
  if (dftracer_clock_tsc_)
    Tsc0 = pair(&Ns0);
#else
  (void)Monotonic;
#endif
}

uint64_t dftracer_wall_ns(void) {
  struct timespec Wall;
  clock_gettime(CLOCK_REALTIME, &Wall);
  return toNs(&Wall);
}
