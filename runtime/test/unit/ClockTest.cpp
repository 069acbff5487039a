//===- ClockTest.cpp - Tests of the trace clock (clock.h) -----------------===//
//
// The counter path is checked against CLOCK_MONOTONIC itself: every read,
// once calibrated, lies between a clock_gettime read just before and one just
// after it (within a microsecond of rounding). On a machine whose counter is
// not used, the same checks run on the clock_gettime path.
//
// What depends on the scheduler (a thread preempted inside a pair, or
// between the test's reads) runs on a simulated machine instead, through
// dftracer_clock_simulate_: its counter and clock follow one simulated time
// that only the test moves, so those tests are deterministic.
//
//===----------------------------------------------------------------------===//

// The fast path reads the installed source's counter (the hardware's, or
// the simulated one).
#define DFTRACER_CLOCK_COUNTER() dftracer_clock_counter_()

extern "C" {
#include "clock.h"
#include "config.h"
}

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <time.h>

namespace {

/// Reads the clock until Truth() has advanced Ms milliseconds, calling
/// Advance() before each read; every read must lie within the Truth() reads
/// around it and never below the previous one.
template <typename TruthFn, typename AdvanceFn>
void checkAgainst(dftracer_clock &C, int Ms, TruthFn Truth, AdvanceFn Advance) {
  uint64_t End = Truth() + (uint64_t)Ms * 1000u;
  uint64_t Last = 0;
  long Reads = 0;
  for (;;) {
    Advance();
    uint64_t Before = Truth();
    uint64_t Now = dftracer_now_us(&C);
    uint64_t After = Truth();
    ASSERT_GE(Now, Last) << "after " << Reads << " reads";
    ASSERT_GE(Now + 1, Before) << "after " << Reads << " reads";
    ASSERT_LE(Now, After + 1) << "after " << Reads << " reads";
    Last = Now;
    ++Reads;
    if (After >= End)
      break;
  }
}

void checkAgainstMonotonic(dftracer_clock &C, int Ms) {
  checkAgainst(C, Ms, dftracer_monotonic_us, [] {});
}

class Clock : public ::testing::Test {
protected:
  static void SetUpTestSuite() { dftracer_clock_init(0); }
};

TEST_F(Clock, AgreesWithMonotonicFromLoadThroughCalibration) {
  dftracer_clock C;
  std::memset(&C, 0, sizeof(C));
  // Spans the first calibration (1 ms) and several anchors (at most 50 ms).
  checkAgainstMonotonic(C, 120);
#if DFTRACER_HAVE_TSC
  if (dftracer_clock_tsc_)
    EXPECT_NE(C.Limit, 0u) << "the counter was never calibrated";
#endif
}

TEST_F(Clock, NeverGoesBelowTheLastValue) {
  dftracer_clock C;
  std::memset(&C, 0, sizeof(C));
  uint64_t Now = dftracer_now_us(&C);
  // As if an earlier read (another anchor, rdtsc run ahead) had been later.
  C.LastUs = Now + 5000;
  EXPECT_EQ(dftracer_now_us(&C), Now + 5000);
}

TEST_F(Clock, MonotonicIsChosenByTheEnvironment) {
  dftracer_config Config;
  setenv("DFTRACER_CLOCK", "monotonic", 1);
  dftracer_config_from_env(&Config);
  EXPECT_TRUE(Config.MonotonicClock);
  setenv("DFTRACER_CLOCK", "tsc", 1);
  dftracer_config_from_env(&Config);
  EXPECT_FALSE(Config.MonotonicClock);
  unsetenv("DFTRACER_CLOCK");
  dftracer_config_from_env(&Config);
  EXPECT_FALSE(Config.MonotonicClock);
}

TEST_F(Clock, MonotonicNeverReadsTheCounter) {
  dftracer_clock_init(1);
  EXPECT_EQ(dftracer_clock_tsc_, 0);
  dftracer_clock C;
  std::memset(&C, 0, sizeof(C));
  checkAgainstMonotonic(C, 3);
  EXPECT_EQ(C.Limit, 0u);
  dftracer_clock_init(0);
}

#if DFTRACER_HAVE_TSC
/// A simulated machine: a 3 GHz counter and CLOCK_MONOTONIC, both following
/// NowNs, which each read moves on by ReadNs (the read's own cost) and the
/// test by hand. After each of the next Preempted clock reads, the reading
/// thread loses the CPU for PreemptNs.
struct Machine {
  static constexpr uint64_t ReadNs = 10, TicksPerNs = 3;
  static uint64_t NowNs;
  static uint64_t Preempted, PreemptNs;

  static uint64_t counter() {
    NowNs += ReadNs;
    return NowNs * TicksPerNs;
  }
  static uint64_t monotonicNs() {
    uint64_t Ns = NowNs += ReadNs;
    if (Preempted) {
      --Preempted;
      NowNs += PreemptNs;
    }
    return Ns;
  }
  /// The simulated instant on the trace's time axis.
  static uint64_t truthUs() {
    return (NowNs + dftracer_clock_offset_ns_) / 1000u;
  }
};
uint64_t Machine::NowNs, Machine::Preempted, Machine::PreemptNs;
const dftracer_clock_source SimulatedSource = {Machine::counter,
                                               Machine::monotonicNs};

class SimulatedClock : public Clock {
protected:
  dftracer_clock C;

  void SetUp() override {
    Machine::NowNs = uint64_t(1000) * 1000 * 1000 * 1000;
    Machine::Preempted = 0;
    Machine::PreemptNs = 0;
    dftracer_clock_simulate_(&SimulatedSource);
    std::memset(&C, 0, sizeof(C));
  }
  void TearDown() override { dftracer_clock_init(0); }

  /// Reads for Ms simulated milliseconds, a read every 997 ns.
  void check(int Ms) {
    checkAgainst(C, Ms, Machine::truthUs, [] { Machine::NowNs += 997; });
  }
  /// Every clock read for the next read of C is followed by a preemption of
  /// Ns: every try of a pair is wide.
  uint64_t readPreempted(uint64_t Ns) {
    Machine::Preempted = ~uint64_t(0);
    Machine::PreemptNs = Ns;
    uint64_t Us = dftracer_now_us(&C);
    Machine::Preempted = 0;
    return Us;
  }
};

TEST_F(SimulatedClock, CounterBelowTheAnchorTakesANewAnchor) {
  check(3); // calibrated and anchored
  ASSERT_NE(C.Limit, 0u);
  // A CPU whose counter lags the anchor's (by minutes, so that no anchor
  // taken during the test reaches it): the difference wraps around.
  uint64_t Later = Machine::counter() + (uint64_t(1) << 40);
  C.AnchorTsc = Later;
  check(1);
  EXPECT_LT(C.AnchorTsc, Later);
}

TEST_F(SimulatedClock, APreemptedTryIsNotThePair) {
  check(3);
  Machine::NowNs += 60 * 1000 * 1000; // past the anchor's lifetime
  // The first try is 10 us wide; the next is the pair.
  Machine::Preempted = 1;
  Machine::PreemptNs = 10 * 1000;
  check(1);
  EXPECT_LE(C.WidthNs, 200u);
}

TEST_F(SimulatedClock, AWideAnchorGivesWayToANarrowerOne) {
  check(3);
  Machine::NowNs += 60 * 1000 * 1000; // past the anchor's lifetime
  // Every try 5 us wide: the anchor is up to 2.5 us off.
  uint64_t Before = Machine::truthUs();
  uint64_t Us = readPreempted(5 * 1000);
  EXPECT_GE(Us + 1, Before);
  EXPECT_GT(C.WidthNs, 200u);
  // The next pair, 1 ms on, is narrow and replaces the anchor.
  Machine::NowNs += 1000 * 1000;
  check(1);
  EXPECT_LE(C.WidthNs, 200u);
}

TEST_F(SimulatedClock, AWideAnchorStaysForAWiderOne) {
  check(3);
  Machine::NowNs += 60 * 1000 * 1000;
  readPreempted(5 * 1000);
  uint64_t Anchor = C.AnchorTsc, Width = C.WidthNs;
  Machine::NowNs += 1000 * 1000;
  readPreempted(8 * 1000);
  EXPECT_EQ(C.AnchorTsc, Anchor);
  EXPECT_EQ(C.WidthNs, Width);
}

TEST_F(SimulatedClock, AWideBaseGivesWayToANarrowerOne) {
  // Every try of the pair taken at load 40 us wide: a rate measured from it
  // 1 ms later would be 2% off.
  Machine::Preempted = ~uint64_t(0);
  Machine::PreemptNs = 40 * 1000;
  dftracer_clock_simulate_(&SimulatedSource);
  Machine::Preempted = 0;
  check(120);
}

TEST_F(Clock, ConvertsTicksWithTheAnchor) {
  if (!dftracer_clock_tsc_)
    GTEST_SKIP() << "the counter is not used on this machine";
  // 2 GHz: 1/2000 us per tick. An anchor at 1000.5 us, 3001 ticks later:
  // 1000.5 + 1.5005 = 1002.0005 us.
  dftracer_clock C;
  std::memset(&C, 0, sizeof(C));
  uint64_t Before = __rdtsc();
  C.AnchorTsc = Before - 3001;
  C.AnchorUs = 1000;
  C.AnchorFrac = uint64_t(1) << (DftClockShift - 1);
  C.Mult = (uint64_t(1) << DftClockShift) / 2000;
  C.Limit = uint64_t(1) << 40;
  uint64_t Us = dftracer_now_us(&C);
  uint64_t Passed = __rdtsc() - Before; // ticks while the read ran
  EXPECT_GE(Us, 1002u);
  EXPECT_LE(Us, 1002u + Passed / 2000);
}
#endif

} // namespace
