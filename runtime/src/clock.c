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
 * pair taken then and the one taken at load (the base), and measured again
 * at every anchor over the whole time since the base. An anchor serves for
 * at most as long as that interval (and MaxAnchorUs): the rate's error, at
 * most the uncertainty of a pair (~20 ns) over the interval, then adds at
 * most that much before the next anchor. A wide anchor (see takePair) tries a
 * new pair every WideRetryUs. */
enum {
  CalibrationNs = 1000 * 1000,
  MaxAnchorUs = 50 * 1000,
  WideRetryUs = 1000
};

/* A counter read (Tsc) and CLOCK_MONOTONIC at the same instant (Ns), give
 * or take half of WidthNs. */
struct pair {
  uint64_t Tsc, Ns, WidthNs;
};

/* The base: Bases[NBases - 1], the pair taken at load or, when that one
 * was wide, the narrowest taken since (at most MaxBases - 1 replacements).
 * A published slot never changes, so readers need no lock; BaseBusy keeps
 * two threads from publishing at once (the second one gives up). */
enum { MaxBases = 4 };
static struct pair Bases[MaxBases];
static unsigned NBases;     /* atomic */
static char BaseBusy;       /* atomic flag */
static uint64_t SharedMult; /* atomic; 0 until the rate is measured */

static uint64_t monotonicNs(void) {
  struct timespec Ts;
  clock_gettime(CLOCK_MONOTONIC, &Ts);
  return toNs(&Ts);
}

/* The counter, read after the instructions before it and before those
 * after it. */
static uint64_t fencedTsc(void) {
  uint64_t Tsc;
  _mm_lfence();
  Tsc = __rdtsc();
  _mm_lfence();
  return Tsc;
}

static const struct dftracer_clock_source Hardware = {fencedTsc, monotonicNs};
static const struct dftracer_clock_source *Source = &Hardware;

uint64_t dftracer_clock_counter_(void) { return Source->Counter(); }

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
 * midpoint: the narrowest of up to PairTries, stopping at one within
 * GoodPairNs (a try the scheduler interrupted is far wider). Wider than
 * that, the pair is wide: all tries were interrupted or slow. */
enum { PairTries = 8, GoodPairNs = 200 };
static struct pair takePair(void) {
  struct pair P = {0, 0, ~(uint64_t)0};
  int I;
  for (I = 0; I < PairTries && P.WidthNs > GoodPairNs; ++I) {
    uint64_t Before = Source->MonotonicNs();
    uint64_t Tsc = Source->Counter();
    uint64_t After = Source->MonotonicNs();
    if (After - Before < P.WidthNs) {
      P.WidthNs = After - Before;
      P.Tsc = Tsc;
      P.Ns = Before + P.WidthNs / 2;
    }
  }
  return P;
}

static struct pair base(void) {
  return Bases[__atomic_load_n(&NBases, __ATOMIC_ACQUIRE) - 1];
}

/* P replaces a wide base if it is narrower. */
static void offerBase(const struct pair *P) {
  unsigned N;
  if (P->WidthNs >= base().WidthNs || base().WidthNs <= GoodPairNs ||
      __atomic_test_and_set(&BaseBusy, __ATOMIC_ACQUIRE))
    return;
  N = __atomic_load_n(&NBases, __ATOMIC_RELAXED);
  if (N < MaxBases && P->WidthNs < Bases[N - 1].WidthNs) {
    Bases[N] = *P;
    __atomic_store_n(&NBases, N + 1, __ATOMIC_RELEASE);
  }
  __atomic_clear(&BaseBusy, __ATOMIC_RELEASE);
}

/* Microseconds per tick times 2^40, measured from the base to P; 0 while
 * too soon. */
static uint64_t measureRate(const struct pair *Base, const struct pair *P) {
  if (P->Ns < Base->Ns + CalibrationNs || P->Tsc <= Base->Tsc)
    return 0;
  return (uint64_t)(((unsigned __int128)(P->Ns - Base->Ns) << DftClockShift) /
                    ((unsigned __int128)(P->Tsc - Base->Tsc) * 1000u));
}

/* Ticks in Us microseconds, never so many that Ticks * Mult overflows. */
static uint64_t ticksIn(uint64_t Us, uint64_t Mult) {
  uint64_t Ticks = (Us << DftClockShift) / Mult;
  uint64_t Max = (~(uint64_t)0 >> 1) / Mult;
  return Ticks < Max ? Ticks : Max;
}

/* How long C's anchor goes before the slow path: a wide one, at most
 * WideRetryUs at a time. */
static uint64_t limitFrom(const struct dftracer_clock *C, uint64_t Ticks) {
  uint64_t Limit = C->Lifetime;
  if (C->WidthNs > GoodPairNs) {
    uint64_t Retry = Ticks + ticksIn(WideRetryUs, C->Mult);
    if (Retry < Limit)
      Limit = Retry;
  }
  return Limit;
}

uint64_t dftracer_clock_slow_(struct dftracer_clock *C) {
  struct pair Base = base(), P;
  uint64_t Mult, Total, Span, Ticks;
  if (!__atomic_load_n(&SharedMult, __ATOMIC_RELAXED)) {
    /* Too soon to know the rate: one clock_gettime, as without a counter. */
    uint64_t Ns = Source->MonotonicNs();
    if (Ns < Base.Ns + CalibrationNs)
      return (Ns + dftracer_clock_offset_ns_) / 1000u;
  }
  P = takePair();
  offerBase(&P);
  /* A wide anchor within its lifetime stays unless P is narrower. */
  Ticks = P.Tsc - C->AnchorTsc;
  if (C->Limit && Ticks < C->Lifetime && P.WidthNs >= C->WidthNs) {
    C->Limit = limitFrom(C, Ticks);
    return C->AnchorUs + ((C->AnchorFrac + Ticks * C->Mult) >> DftClockShift);
  }
  Base = base();
  Mult = measureRate(&Base, &P);
  if (Mult)
    __atomic_store_n(&SharedMult, Mult, __ATOMIC_RELAXED);
  else
    Mult = __atomic_load_n(&SharedMult, __ATOMIC_RELAXED);
  Total = P.Ns + dftracer_clock_offset_ns_;
  if (!Mult)
    return Total / 1000u;
  /* The anchor serves as long as the rate was measured over. */
  Span = P.Ns > Base.Ns ? (P.Ns - Base.Ns) / 1000u : 0;
  if (Span > MaxAnchorUs)
    Span = MaxAnchorUs;
  C->AnchorTsc = P.Tsc;
  C->AnchorUs = Total / 1000u;
  C->AnchorFrac = ((Total % 1000u) << DftClockShift) / 1000u;
  C->Mult = Mult;
  C->Lifetime = ticksIn(Span, Mult);
  C->WidthNs = P.WidthNs;
  C->Limit = limitFrom(C, 0);
  return C->AnchorUs;
}

uint64_t dftracer_clock_ticks_ns(uint64_t Ticks) {
  uint64_t Mult;
  if (!dftracer_clock_tsc_)
    return Ticks; /* dftracer_clock_ticks read CLOCK_MONOTONIC */
  Mult = __atomic_load_n(&SharedMult, __ATOMIC_RELAXED);
  if (!Mult) {
    /* No read has measured the rate yet: over whatever time has passed
     * since the base (less precise within the first millisecond). */
    struct pair Base = base(), P = takePair();
    if (P.Ns > Base.Ns && P.Tsc > Base.Tsc)
      Mult = (uint64_t)(((unsigned __int128)(P.Ns - Base.Ns)
                         << DftClockShift) /
                        ((unsigned __int128)(P.Tsc - Base.Tsc) * 1000u));
  }
  return (uint64_t)(((unsigned __int128)Ticks * Mult * 1000u) >>
                    DftClockShift);
}

/* Whether the counter is used, and the base read from S. */
static void start(const struct dftracer_clock_source *S, int UseCounter) {
  Source = S;
  dftracer_clock_tsc_ = UseCounter;
  __atomic_store_n(&SharedMult, 0, __ATOMIC_RELAXED);
  if (UseCounter) {
    Bases[0] = takePair();
    __atomic_store_n(&NBases, 1, __ATOMIC_RELEASE);
  }
}

void dftracer_clock_simulate_(const struct dftracer_clock_source *S) {
  start(S, 1);
}
#endif

void dftracer_clock_init(int Monotonic) {
  struct timespec Wall, Mono;
  clock_gettime(CLOCK_REALTIME, &Wall);
  clock_gettime(CLOCK_MONOTONIC, &Mono);
  dftracer_clock_offset_ns_ = toNs(&Wall) - toNs(&Mono);
#if DFTRACER_HAVE_TSC
  start(&Hardware, !Monotonic && invariantTsc() && kernelUsesTsc());
#else
  (void)Monotonic;
#endif
}

#if !DFTRACER_HAVE_TSC
uint64_t dftracer_clock_ticks_ns(uint64_t Ticks) { return Ticks; }
#endif

uint64_t dftracer_wall_ns(void) {
  struct timespec Wall;
  clock_gettime(CLOCK_REALTIME, &Wall);
  return toNs(&Wall);
}
