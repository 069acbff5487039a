//===- Bootstrap.cpp - Confidence interval of a ratio of medians ----------===//

#include "Bootstrap.h"

#include "Summary.h"

#include <algorithm>
#include <cmath>
#include <random>

namespace dftstats {

namespace {

/// The Q quantile of sorted V, linearly interpolated (type 7, as R's
/// default and numpy's).
double quantile(const std::vector<double> &V, double Q) {
  double Pos = Q * static_cast<double>(V.size() - 1);
  size_t Lo = static_cast<size_t>(std::floor(Pos));
  size_t Hi = std::min(Lo + 1, V.size() - 1);
  double Frac = Pos - static_cast<double>(Lo);
  return V[Lo] + (V[Hi] - V[Lo]) * Frac;
}

} // namespace

RatioInterval ratioOfMedians(const std::vector<double> &Before,
                             const std::vector<double> &After,
                             const BootstrapOptions &O) {
  RatioInterval R;
  R.Level = O.Level;
  if (Before.empty() || After.empty())
    return R;
  double Base = median(Before);
  if (Base == 0)
    return R;
  R.Valid = true;
  R.Ratio = median(After) / Base;
  R.Low = R.High = R.Ratio;
  if (Before.size() < 2 && After.size() < 2)
    return R;
  std::mt19937_64 Gen(O.Seed);
  std::vector<double> Ratios, SampleB(Before.size()), SampleA(After.size());
  Ratios.reserve(O.Resamples);
  // Gen() % size, not std::uniform_int_distribution: mt19937_64's output is
  // fixed by the standard, the distributions' are not (libstdc++ and libc++
  // would give different intervals). The bias is below 1e-17 for any size.
  auto Pick = [&Gen](const std::vector<double> &V) {
    return V[static_cast<size_t>(Gen() % V.size())];
  };
  for (size_t I = 0; I < O.Resamples; ++I) {
    for (double &X : SampleB)
      X = Pick(Before);
    for (double &X : SampleA)
      X = Pick(After);
    double MB = median(SampleB);
    if (MB == 0)
      continue; // a resample whose ratio is undefined
    Ratios.push_back(median(SampleA) / MB);
  }
  if (Ratios.empty())
    return R;
  std::sort(Ratios.begin(), Ratios.end());
  R.Low = quantile(Ratios, (1 - O.Level) / 2);
  R.High = quantile(Ratios, (1 + O.Level) / 2);
  return R;
}

} // namespace dftstats
