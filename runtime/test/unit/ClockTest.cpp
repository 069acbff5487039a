//===- ClockTest.cpp - Tests of the trace clock (clock.h) -----------------===//
//
// The counter path is checked against CLOCK_MONOTONIC itself: every read,
// once calibrated, lies between a clock_gettime read just before and one just
// after it (within a microsecond of rounding). On a machine whose counter is
// not used, the same checks run on the clock_gettime path.
//
//===----------------------------------------------------------------------===//

extern "C" {
#include "clock.h"
#include "config.h"
}

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <time.h>

namespace {

/// Reads the clock for Ms milliseconds; every read must lie within the
/// clock_gettime reads around it and never below the previous one.
void checkAgainstMonotonic(dftracer_clock &C, int Ms) {
  uint64_t End = dftracer_monotonic_us() + (uint64_t)Ms * 1000u;
  uint64_t Last = 0;
  long Reads = 0;
  for (;;) {
    uint64_t Before = dftracer_monotonic_us();
    uint64_t Now = dftracer_now_us(&C);
    uint64_t After = dftracer_monotonic_us();
    ASSERT_GE(Now, Last) << "after " << Reads << " reads";
    ASSERT_GE(Now + 1, Before) << "after " << Reads << " reads";
    ASSERT_LE(Now, After + 1) << "after " << Reads << " reads";
    Last = Now;
    ++Reads;
    if (After >= End)
      break;
  }
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
TEST_F(Clock, CounterBelowTheAnchorTakesANewAnchor) {
  if (!dftracer_clock_tsc_)
    GTEST_SKIP() << "the counter is not used on this machine";
  dftracer_clock C;
  std::memset(&C, 0, sizeof(C));
  checkAgainstMonotonic(C, 3); // calibrated and anchored
  ASSERT_NE(C.Limit, 0u);
  // A CPU whose counter lags the anchor's (by minutes, so that no anchor
  // taken during the test reaches it): the difference wraps around.
  uint64_t Later = __rdtsc() + (uint64_t(1) << 40);
  C.AnchorTsc = Later;
  checkAgainstMonotonic(C, 1);
  EXPECT_LT(C.AnchorTsc, Later);
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
