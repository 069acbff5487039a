//===- Bootstrap.h - Confidence interval of a ratio of medians ----*- C++
//-*-===//
//
// How much the changed runs differ from the baseline, as the ratio of their
// medians (after / before: 0.8 is 20% less), with a percentile bootstrap
// interval: each side is resampled with replacement, Resamples times, and
// the interval is the (1 - Level) / 2 and (1 + Level) / 2 quantiles of the
// resampled ratios. The generator is std::mt19937_64 with a fixed seed, so
// the same runs always give the same interval (reports are reproducible).
//
// \code
//   RatioInterval R = ratioOfMedians({10, 11, 12}, {5, 6, 7});
//   // R.Ratio 0.5454 (6 / 11), R.Low .. R.High around it, R.Valid
// \endcode
//
// With one run a side the interval is the ratio itself (nothing to
// resample): RankTest.h's smallestP says why that decides nothing.
// A baseline median of 0 makes the ratio undefined (Valid false).
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_STATS_BOOTSTRAP_H
#define DFTRACER_STATS_BOOTSTRAP_H

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dftstats {

struct RatioInterval {
  bool Valid = false;
  double Ratio = 0, Low = 0, High = 0;
  double Level = 0.95;
};

struct BootstrapOptions {
  size_t Resamples = 10000;
  double Level = 0.95;
  uint64_t Seed = 0x5eed2026u; // fixed: the same input, the same interval
};

RatioInterval ratioOfMedians(const std::vector<double> &Before,
                             const std::vector<double> &After,
                             const BootstrapOptions &O = {});

} // namespace dftstats

#endif
