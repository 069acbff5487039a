//===- RankTest.cpp - Mann-Whitney rank test of two sets of runs ----------===//

#include "RankTest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace dftstats {

namespace {

constexpr size_t MaxExactRuns = 60;

/// Mid-ranks of the pooled values, doubled so that they are integers
/// (values 5, 7, 7, 9 -> ranks 1, 2.5, 2.5, 4 -> 2, 5, 5, 8).
std::vector<int64_t> doubledRanks(const std::vector<double> &Pooled) {
  std::vector<size_t> Order(Pooled.size());
  for (size_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::sort(Order.begin(), Order.end(),
            [&](size_t X, size_t Y) { return Pooled[X] < Pooled[Y]; });
  std::vector<int64_t> Ranks(Pooled.size());
  for (size_t I = 0; I < Order.size();) {
    size_t J = I;
    while (J + 1 < Order.size() && Pooled[Order[J + 1]] == Pooled[Order[I]])
      ++J;
    // Ranks I+1 .. J+1 share their mean; doubled: I + J + 2.
    for (size_t K = I; K <= J; ++K)
      Ranks[Order[K]] = static_cast<int64_t>(I + J + 2);
    I = J + 1;
  }
  return Ranks;
}

/// Count[s]: the subsets of N of Ranks whose (doubled) rank sum is s.
std::vector<double> sumCounts(const std::vector<int64_t> &Ranks, size_t N) {
  int64_t Total = 0;
  for (int64_t R : Ranks)
    Total += R;
  // Ways[k][s]: subsets of k of the ranks seen so far with sum s.
  std::vector<std::vector<double>> Ways(
      N + 1, std::vector<double>(static_cast<size_t>(Total) + 1, 0));
  Ways[0][0] = 1;
  for (int64_t R : Ranks)
    for (size_t K = N; K >= 1; --K)
      for (int64_t S = Total; S >= R; --S)
        Ways[K][static_cast<size_t>(S)] +=
            Ways[K - 1][static_cast<size_t>(S - R)];
  return Ways[N];
}

double normalTail(double Z) { return 0.5 * std::erfc(Z / std::sqrt(2.0)); }

} // namespace

RankTest rankTest(const std::vector<double> &A, const std::vector<double> &B) {
  RankTest T;
  size_t N = A.size(), M = B.size();
  if (!N || !M)
    return T;
  std::vector<double> Pooled(A);
  Pooled.insert(Pooled.end(), B.begin(), B.end());
  std::vector<int64_t> Ranks = doubledRanks(Pooled);
  int64_t W2 = 0; // twice A's rank sum
  for (size_t I = 0; I < N; ++I)
    W2 += Ranks[I];
  // 2U = 2W - N(N+1); its mean is N*M.
  int64_t Base = static_cast<int64_t>(N * (N + 1));
  int64_t Center = static_cast<int64_t>(N * M);
  int64_t Observed = std::llabs(W2 - Base - Center);
  T.U = static_cast<double>(W2 - Base) / 2;
  if (N + M <= MaxExactRuns) {
    std::vector<double> Count = sumCounts(Ranks, N);
    double All = 0, AsFar = 0;
    for (size_t S = 0; S < Count.size(); ++S) {
      if (Count[S] == 0)
        continue;
      All += Count[S];
      if (std::llabs(static_cast<int64_t>(S) - Base - Center) >= Observed)
        AsFar += Count[S];
    }
    T.P = std::min(1.0, AsFar / All);
    return T;
  }
  T.Exact = false;
  // Normal approximation; the variance corrected for ties (sum t^3 - t).
  double Nd = static_cast<double>(N), Md = static_cast<double>(M);
  double Total = Nd + Md;
  std::vector<double> Sorted(Pooled);
  std::sort(Sorted.begin(), Sorted.end());
  double TieSum = 0;
  for (size_t I = 0; I < Sorted.size();) {
    size_t J = I;
    while (J + 1 < Sorted.size() && Sorted[J + 1] == Sorted[I])
      ++J;
    double Tn = static_cast<double>(J - I + 1);
    TieSum += Tn * Tn * Tn - Tn;
    I = J + 1;
  }
  double Var = Nd * Md / 12 * ((Total + 1) - TieSum / (Total * (Total - 1)));
  double Dist = static_cast<double>(Observed) / 2 - 0.5; // continuity
  if (Var <= 0 || Dist <= 0) {
    T.P = 1;
    return T;
  }
  T.P = std::min(1.0, 2 * normalTail(Dist / std::sqrt(Var)));
  return T;
}

double smallestP(size_t N, size_t M) {
  if (!N || !M)
    return 1;
  // C(N + M, N) as a double, by the product formula.
  double C = 1;
  size_t K = std::min(N, M);
  for (size_t I = 1; I <= K; ++I)
    C = C * static_cast<double>(N + M - K + I) / static_cast<double>(I);
  return std::min(1.0, 2 / C);
}

size_t fewestRunsForAlpha(double Alpha) {
  size_t N = 1;
  while (smallestP(N, N) >= Alpha && N < 1000)
    ++N;
  return N;
}

} // namespace dftstats
