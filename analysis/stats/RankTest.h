//===- RankTest.h - Mann-Whitney rank test of two sets of runs ----*- C++
//-*-===//
//
// Whether two sets of replicates differ beyond what shuffling them between
// the sides would give: the two-sided Mann-Whitney U (Wilcoxon rank-sum)
// test, which assumes nothing of the distribution (I/O times across runs
// are rarely normal and often multimodal; Hoefler & Belli, SC15).
//
//   - Exact up to 60 runs in all: the p-value is the share of all
//     C(n + m, n) ways of splitting the pooled runs into sides of n and m
//     whose U is at least as far from its mean (n m / 2) as the observed
//     one. Ties get mid-ranks, and the exact distribution is that of the
//     tied ranks, so ties are handled exactly too. The count is a dynamic
//     programme over rank sums, not an enumeration.
//   - Above 60 runs: the normal approximation with the tie correction and a
//     continuity correction of 1/2.
//
// No split is more extreme than complete separation, which happens twice
// (all of A below all of B, and the mirror), so the smallest p any data can
// give is 2 / C(n + m, n) (without ties):
//
// \code
//   smallestP(1, 1) == 1.0    // one run a side can never show anything
//   smallestP(3, 3) == 0.10   // 3 against 3 never reaches p < 0.05
//   smallestP(4, 4) == 2/70   // 0.029: the fewest equal sides that can
//   rankTestP({1, 2, 3}, {4, 5, 6}) == 0.10
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_STATS_RANKTEST_H
#define DFTRACER_STATS_RANKTEST_H

#include <cstddef>
#include <vector>

namespace dftstats {

struct RankTest {
  double P = 1;      // two-sided
  double U = 0;      // of the first sample: pairs (a, b) with a > b, ties 1/2
  bool Exact = true; // false: the normal approximation (more than 60 runs)
};

/// The test of A against B; P is 1 when either is empty.
RankTest rankTest(const std::vector<double> &A, const std::vector<double> &B);
inline double rankTestP(const std::vector<double> &A,
                        const std::vector<double> &B) {
  return rankTest(A, B).P;
}

/// 2 / C(N + M, N), at most 1: the smallest two-sided p with N and M runs.
double smallestP(size_t N, size_t M);

/// The fewest runs a side (equal sides) whose smallestP is below Alpha.
size_t fewestRunsForAlpha(double Alpha);

} // namespace dftstats

#endif
