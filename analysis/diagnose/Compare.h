//===- Compare.h - A baseline run against a changed run -----------*- C++ -*-===//
//
// `dftracer-analyze --compare BASE [--compare BASE2 ...] TRACE...`: each
// side is one or more runs (replicates); each run is analysed and diagnosed
// on its own. The comparison says first whether the runs are comparable
// (same program names, rank count and files modulo the run directory),
// then per layer, operation kind, file and function the mean ops, bytes,
// seconds and bandwidth before and after with the replicates' spread, and
// per finding (kind and first site's function) fixed, improved, unchanged,
// regressed or new. A change within the spread of the replicates (or, with
// one run a side, within the rules' compare tolerance) is unchanged.
//
// \code
//   std::vector<RunFacts> Base, After; // one per replicate
//   Comparison C = compareRuns(Base, After, Rules.CompareTolerance);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_COMPARE_H
#define DFTRACER_ANALYZE_COMPARE_H

#include "Diagnose.h"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace dftanalyze {

struct Figures {
  uint64_t Ops = 0, Bytes = 0, TimeUs = 0;
};

/// What the comparison keeps of one analysed run.
struct RunFacts {
  std::string Name; // the directories or files given
  std::vector<std::string> Programs; // trace name prefixes, sorted, unique
  size_t Ranks = 0;
  std::vector<std::string> Files; // run-relative paths, sorted
  // scope ("layer", "operation", "file", "function") -> name -> figures
  std::map<std::string, std::map<std::string, Figures>> Rows;
  std::vector<Finding> Findings;
};

/// The facts of R (and its findings).
RunFacts runFacts(const std::string &Name, const Report &R,
                  std::vector<Finding> Findings);

struct Spread {
  double Mean = 0, Min = 0, Max = 0;
};

struct CompareRow {
  std::string Scope, Name;
  Spread Ops[2], Bytes[2], Seconds[2], MiBs[2]; // [0] before, [1] after
};

struct FindingChange {
  std::string Kind, Function, Status;
  Spread Seconds[2]; // the finding's seconds (0 where absent)
  Spread Recoverable[2];
  std::string Summary[2]; // of the first run of each side that has it
};

struct Comparison {
  size_t Runs[2] = {0, 0};
  bool Comparable = true;
  std::vector<std::string> Differences;
  std::vector<CompareRow> Rows;
  std::vector<FindingChange> Findings; // by kind, function
};

Comparison compareRuns(const std::vector<RunFacts> &Before,
                       const std::vector<RunFacts> &After, double Tolerance);

void printComparisonText(std::ostream &Os, const Comparison &C, bool Forced);
nlohmann::ordered_json comparisonJson(const Comparison &C, bool Forced);
void printComparisonHtml(std::ostream &Os, const Comparison &C, bool Forced);

} // namespace dftanalyze

#endif
