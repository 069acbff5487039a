//===- Caveats.h - What a report's figures do not hold ----------*- C++ -*-===//
//
// One line each, plain text (the HTML report escapes them):
//
// \code
//   2 functions or calls throttled (records "throttled"): their spans are
//     counted, not placed
//   1 of ranks 0-3 have no trace
//   APP: 4094304 of the ops are throttled records (counted by the runtime,
//     not in the trace: no union time, file or rank)
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_CAVEATS_H
#define DFTRACER_ANALYZE_CAVEATS_H

#include "Report.h"

#include <string>
#include <vector>

namespace dftanalyze {

/// What the trace itself says it does not hold, as every finding carries
/// it: first the tuning settings that did not take effect (tuningCaveats,
/// Configuration.h), then functions or calls throttled, calls left
/// untraced by the data-dir filter, processes that stopped tracing early,
/// layers bypassed, ranks missing (numeric ranks 0..max with gaps),
/// problems in the input.
std::vector<std::string> traceCaveats(const Report &R);

/// The HTML report's caveats box: traceCaveats, then what the text report
/// says beside its tables: per layer, the ops that are throttled records;
/// times that include a sampled estimate (~); each file's caveats (the
/// first Top, then how many more).
std::vector<std::string> reportCaveats(const Report &R, size_t Top);

} // namespace dftanalyze

#endif
