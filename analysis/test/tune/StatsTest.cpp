//===- StatsTest.cpp - analysis/stats against values computed by hand -----===//

#include "stats/Bootstrap.h"
#include "stats/RankTest.h"
#include "stats/Summary.h"
#include "stats/Verdict.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace dftstats;

TEST(StatsSummary, MedianRangeCv) {
  Summary S = summarize({2.0, 1.0, 4.0});
  EXPECT_EQ(S.N, 3u);
  EXPECT_DOUBLE_EQ(S.Median, 2.0);
  EXPECT_DOUBLE_EQ(S.Min, 1.0);
  EXPECT_DOUBLE_EQ(S.Max, 4.0);
  // mean 7/3; squared deviations 1/9 + 16/9 + 25/9 = 42/9; / (n - 1) = 7/3;
  // sd sqrt(7/3) = 1.527525; / mean = 0.654654.
  EXPECT_NEAR(S.Cv, 0.654654, 1e-6);
  EXPECT_DOUBLE_EQ(median({4, 1, 3, 2}), 2.5);
  EXPECT_DOUBLE_EQ(summarize({5}).Cv, 0);
  EXPECT_EQ(summarize({}).N, 0u);
}

// Smallest p: 2 / C(2n, n).
TEST(StatsRankTest, SmallestP) {
  EXPECT_DOUBLE_EQ(smallestP(1, 1), 1.0);         // 2 / 2
  EXPECT_NEAR(smallestP(2, 2), 2.0 / 6, 1e-12);   // 0.333
  EXPECT_NEAR(smallestP(3, 3), 0.10, 1e-12);      // 2 / 20
  EXPECT_NEAR(smallestP(4, 4), 2.0 / 70, 1e-12);  // 0.0286
  EXPECT_NEAR(smallestP(5, 5), 2.0 / 252, 1e-12); // 0.0079
  EXPECT_NEAR(smallestP(2, 3), 0.2, 1e-12);       // 2 / C(5, 2) = 2 / 10
  EXPECT_EQ(fewestRunsForAlpha(0.05), 4u);
}

// Exact p-values of small samples, counted by hand over every split.
TEST(StatsRankTest, ExactSmallSamples) {
  // 1 against 1: both splits are as extreme as the observed one: p = 1.
  EXPECT_DOUBLE_EQ(rankTestP({1}, {2}), 1.0);
  // {1,2,3} against {4,5,6}: U = 0; of the C(6,3) = 20 splits only
  // {1,2,3} (U 0) and {4,5,6} (U 9) are as far from 4.5: p = 2/20.
  EXPECT_NEAR(rankTestP({1, 2, 3}, {4, 5, 6}), 0.10, 1e-12);
  EXPECT_NEAR(rankTestP({4, 5, 6}, {1, 2, 3}), 0.10, 1e-12);
  // {1,2,4} against {3,5,6}: ranks 1,2,4, U = 7 - 6 = 1, |1 - 4.5| = 3.5;
  // splits with U <= 1 or U >= 8: {1,2,3} U0, {1,2,4} U1, {3,5,6} U8,
  // {4,5,6} U9: p = 4/20 = 0.2.
  EXPECT_NEAR(rankTestP({1, 2, 4}, {3, 5, 6}), 0.2, 1e-12);
  // {1,3} against {2,4}: U = 4 - 3 = 1, mean 2; rank sums of 2 of 4:
  // 3 4 5 5 6 7 -> U 0 1 2 2 3 4; |U - 2| >= 1 for 4 of 6: p = 0.6667.
  EXPECT_NEAR(rankTestP({1, 3}, {2, 4}), 4.0 / 6, 1e-12);
  // 4 against 4, separated: 2 / C(8,4) = 2/70.
  EXPECT_NEAR(rankTestP({10, 11, 12, 13}, {1, 2, 3, 4}), 2.0 / 70, 1e-12);
  // 5 against 5, separated: 2/252.
  EXPECT_NEAR(rankTestP({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}), 2.0 / 252, 1e-12);
  // Ties: {1,1} against {1,2}: mid-ranks 2,2,2 and 4; U_A = 4 - 3 = 1,
  // mean 2; the 6 splits give U 1 (three pairs of 2s) or 3: all as far:
  // p = 1.
  EXPECT_DOUBLE_EQ(rankTestP({1, 1}, {1, 2}), 1.0);
  // Identical values: nothing to tell apart.
  EXPECT_DOUBLE_EQ(rankTestP({3, 3, 3, 3}, {3, 3, 3, 3}), 1.0);
}

// Above 60 runs: the normal approximation, close to the exact value.
TEST(StatsRankTest, NormalApproximation) {
  std::vector<double> A, B;
  for (int I = 0; I < 31; ++I) {
    A.push_back(I);
    B.push_back(I + 10.5);
  }
  RankTest Exact = rankTest(A, B); // 62 runs: normal
  EXPECT_FALSE(Exact.Exact);
  std::vector<double> A2(A.begin(), A.begin() + 30),
      B2(B.begin(), B.begin() + 30);
  RankTest Small = rankTest(A2, B2); // 60 runs: exact
  EXPECT_TRUE(Small.Exact);
  EXPECT_LT(Exact.P, 0.05);
  EXPECT_LT(Small.P, 0.05);
  EXPECT_NEAR(std::log10(Exact.P), std::log10(Small.P), 0.5);
}

TEST(StatsBootstrap, Reproducible) {
  RatioInterval A = ratioOfMedians({10, 11, 12, 13}, {5, 6, 7, 8});
  RatioInterval B = ratioOfMedians({10, 11, 12, 13}, {5, 6, 7, 8});
  ASSERT_TRUE(A.Valid);
  EXPECT_DOUBLE_EQ(A.Ratio, 6.5 / 11.5);
  EXPECT_EQ(A.Low, B.Low);
  EXPECT_EQ(A.High, B.High);
  EXPECT_LE(A.Low, A.Ratio);
  EXPECT_GE(A.High, A.Ratio);
  EXPECT_LT(A.High, 1.0); // every resample: after below before
  RatioInterval One = ratioOfMedians({4}, {2});
  EXPECT_DOUBLE_EQ(One.Low, 0.5);
  EXPECT_DOUBLE_EQ(One.High, 0.5);
  EXPECT_FALSE(ratioOfMedians({0, 0}, {1, 2}).Valid);
}

// The 95% interval covers the true ratio of medians in at least 93 of 100
// seeded simulations: 20 runs a side drawn from log-normal times (the
// right-skewed shape of I/O times) with the after side's median 0.8 of the
// baseline's (so the true ratio is 0.8), CV about 20%.
TEST(StatsBootstrap, Coverage) {
  int Covered = 0;
  for (uint64_t Seed = 1; Seed <= 100; ++Seed) {
    std::mt19937_64 Gen(Seed);
    std::normal_distribution<double> Noise(0.0, 0.2);
    std::vector<double> Before, After;
    for (int I = 0; I < 20; ++I) {
      Before.push_back(10.0 * std::exp(Noise(Gen)));
      After.push_back(8.0 * std::exp(Noise(Gen)));
    }
    BootstrapOptions O;
    O.Resamples = 2000;
    RatioInterval R = ratioOfMedians(Before, After, O);
    if (R.Low <= 0.8 && 0.8 <= R.High)
      ++Covered;
  }
  EXPECT_GE(Covered, 93);
}

TEST(StatsVerdict, Statuses) {
  // One run a side: cannot decide, and says why.
  Verdict One = decide({10}, {5}, Direction::LowerIsBetter);
  EXPECT_EQ(One.Status, "cannot decide");
  EXPECT_NE(One.Why.find("smallest p any result can give is 1"),
            std::string::npos)
      << One.Why;
  // 3 against 3, perfectly separated: still cannot decide (p >= 0.10).
  Verdict Three = decide({10, 11, 12}, {5, 6, 7}, Direction::LowerIsBetter);
  EXPECT_EQ(Three.Status, "cannot decide");
  EXPECT_NE(Three.Why.find("0.1"), std::string::npos) << Three.Why;
  EXPECT_NEAR(Three.Test.P, 0.10, 1e-12);
  // 4 against 4 separated by half: faster (time halved).
  Verdict Fast = decide({10, 11, 10.5, 10.2}, {5, 5.5, 5.2, 5.1},
                        Direction::LowerIsBetter);
  EXPECT_EQ(Fast.Status, "faster") << Fast.Why;
  EXPECT_NEAR(Fast.Test.P, 2.0 / 70, 1e-12);
  // The same numbers as bandwidth: slower.
  EXPECT_EQ(decide({10, 11, 10.5, 10.2}, {5, 5.5, 5.2, 5.1},
                   Direction::HigherIsBetter)
                .Status,
            "slower");
  // Interleaved: no detectable change, with the runs it would need.
  Verdict Same = decide({10, 12, 11, 13}, {10.5, 12.5, 11.5, 12.2},
                        Direction::LowerIsBetter);
  EXPECT_EQ(Same.Status, "no detectable change");
  EXPECT_GT(Same.RunsNeeded, 4u);
  EXPECT_NE(Same.Why.find("needs about"), std::string::npos) << Same.Why;
}

// n = (1.959964 + 0.841621)^2 * 2 * CV^2 / d^2 / 0.864:
// CV 0.10, d 0.10 -> 7.8489 * 2 / 0.864 = 18.17 -> 19 runs a side;
// CV 0.05 -> 4.54 -> 5; CV 0 -> the floor, 4.
TEST(StatsVerdict, RunsNeeded) {
  EXPECT_NEAR(normalQuantile(0.975), 1.959964, 1e-6);
  EXPECT_EQ(runsNeeded(0.10, 0.10, 0.05, 0.80), 19u);
  EXPECT_EQ(runsNeeded(0.05, 0.10, 0.05, 0.80), 5u);
  EXPECT_EQ(runsNeeded(0.0, 0.10, 0.05, 0.80), 4u);
}
