//===- SuggestFilter.h - dftracer-analyze --suggest-filter --------*- C++ -*-===//
//
// Back to the source, as Score-P's `scorep-score -g`: the functions that
// cost more to trace than they did work, written as an `annotate
// --filter-file` file (one rule a line, `#` comments):
//
// \code
//   # uniform_random_number: 4094306 calls, mean 0.198 us, throttled
//   exclude-function uniform_random_number
// \endcode
//
// The thresholds are data: suggest_filter.json next to the binary (or in
// share/dftracer), or the file given with --suggest-config.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_SUGGESTFILTER_H
#define DFTRACER_ANALYZE_SUGGESTFILTER_H

#include "analyze/Report.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace dftanalyze {

struct SuggestConfig {
  double PairCostNs = 0;   // what one traced span costs
  double CostMultiple = 0; // suggested when mean < CostMultiple x PairCostNs
  uint64_t MinCalls = 0;   // ... and called at least this often
  bool Throttled = true;   // every function the runtime throttled
  std::string Source;      // where PairCostNs comes from
};

/// Reads Path; false with Error ("FILE: key \"x\" ...") when it is not one.
bool loadSuggestConfig(const std::string &Path, SuggestConfig &Out,
                       std::string &Error);
/// The installed thresholds: dftracer-analyze-suggest.json next to the
/// running binary, else ../share/dftracer/ from it; empty when neither.
std::string defaultSuggestConfig();
/// The filter file for R's functions.
void printSuggestedFilter(std::ostream &Os, const Report &R,
                          const SuggestConfig &C, const std::string &From);
/// A filter-file pattern matching exactly Name: itself, or `re:^...$` when
/// it holds a glob character.
std::string exactPattern(const std::string &Name);

} // namespace dftanalyze

#endif
