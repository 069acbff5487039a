//===- Summary.h - Median, range and spread of replicates ---------*- C++
//-*-===//
//
// The figures of one side of a comparison: n runs of one metric.
//
// \code
//   Summary S = summarize({2.0, 1.0, 4.0});
//   // S.N 3, S.Median 2.0, S.Min 1.0, S.Max 4.0, S.Mean 2.333...,
//   // S.Cv 0.6547 (sample standard deviation / mean; 0 with one run)
// \endcode
//
// Only the standard library: analysis/stats/ is below every other folder.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_STATS_SUMMARY_H
#define DFTRACER_STATS_SUMMARY_H

#include <cstddef>
#include <vector>

namespace dftstats {

struct Summary {
  size_t N = 0;
  double Median = 0, Min = 0, Max = 0, Mean = 0;
  double Cv = 0; // coefficient of variation: sample sd (n - 1) / mean
};

/// The median of V (the mean of the middle two for an even count); 0 when
/// V is empty.
double median(std::vector<double> V);

Summary summarize(const std::vector<double> &V);

} // namespace dftstats

#endif
