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
// Then a verdict on the run (docs/tuning.md, "Verdict"): one run metric
// (RunMetric, --metric) per replicate on each side, their medians, ranges
// and spread, the ratio of medians with a bootstrap interval, the
// Mann-Whitney p, and faster | slower | no detectable change | cannot
// decide (analysis/stats/Verdict.h). Each finding says beside its status
// whether the run got faster ("fixed, run no faster"), and a fixed or
// improved finding of a run that is not faster says which operation's time
// grew instead ("moved to MPIIO write +0.8 s").
//
// \code
//   std::vector<RunFacts> Base, After; // one per replicate
//   Comparison C = compareRuns(Base, After, Rules.CompareTolerance);
//   C.Verdict.V.Status; // "faster"
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_COMPARE_H
#define DFTRACER_ANALYZE_COMPARE_H

#include "Diagnose.h"
#include "stats/Verdict.h"

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
  // The run metrics (RunMetric names): "io" and "wall" in seconds,
  // "bandwidth" in MiB/s, "function:NAME" in seconds for every function.
  std::map<std::string, double> Metrics;
  // The configuration (ConfigChange's scopes), (scope, key) -> value, the
  // run's own directories written {run} (its data files' common directory)
  // and {traces} (its traces' directory), so that runs compare.
  std::map<std::pair<std::string, std::string>, std::string> Config;
};

/// One difference of configuration between the baseline and the changed
/// runs. Scopes, in order: "command" (argv[i] per program), "job" (ranks,
/// nodes, processes), "env" (the variables CONFIG records), "tuning"
/// ("KEY on FILE" -> "requested: status", with its source), "version"
/// (libraries), "file" (fs, stripe, "hint K", "hdf5 K" per run-relative
/// file), "dataset" (its layout, chunking and transfer mode), "measured"
/// (transfer sizes per layer, bytes per file).
struct ConfigChange {
  std::string Scope, Key, Before, After;
};

/// The run metric of the verdict (--metric NAME):
///   io             the slowest rank's I/O time: the union of its I/O calls'
///                  time (default; the figure the imbalance is built on)
///   wall           the longest process's traced time, first event to last
///   bandwidth      bytes read and written at the files (the bottom layers)
///                  per second of the slowest rank's I/O time, MiB/s
///   function:NAME  a phase: the annotated function NAME's time, its spans'
///                  durations summed over calls and processes
struct RunMetric {
  std::string Name = "io";
  std::string Unit = "s";
  std::string Description = "slowest rank's I/O time";
  dftstats::Direction Better = dftstats::Direction::LowerIsBetter;
};
/// False with Error for a name that is none of the above.
bool parseRunMetric(const std::string &Name, RunMetric &M, std::string &Error);

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
  std::string Run;        // "run faster", "run no faster", ... (the verdict)
  std::string MovedTo;    // "MPIIO write +0.812 s" (fixed or improved, run
                          // not faster, and an operation's time grew)
};

/// The verdict on the run: the metric's value of each replicate that has
/// it (a run without the function of function:NAME has none) and the
/// statistics over them.
struct RunVerdict {
  RunMetric Metric;
  std::vector<double> Values[2];
  dftstats::Verdict V;
};

struct Comparison {
  size_t Runs[2] = {0, 0};
  bool Comparable = true;
  std::vector<std::string> Differences;
  std::vector<CompareRow> Rows;
  std::vector<FindingChange> Findings; // by kind, function
  RunVerdict Verdict;
  // The first baseline run against the first changed run; a key whose
  // value differs between the runs of one side is left out (it is the
  // run's own, not the change's).
  std::vector<ConfigChange> Changes;
  std::string ChangedLine; // "changed: hdf5.alignment 1 -> 4096 (tuning), ..."
};

Comparison compareRuns(const std::vector<RunFacts> &Before,
                       const std::vector<RunFacts> &After, double Tolerance,
                       const RunMetric &Metric = {});

/// The configuration differences (Comparison::Changes) and their line.
std::vector<ConfigChange> configChanges(const std::vector<RunFacts> &Before,
                                        const std::vector<RunFacts> &After);
std::string changedLine(const std::vector<ConfigChange> &Changes);

/// The verdict alone (dftracer-tune: every candidate against the baseline).
RunVerdict runVerdict(const std::vector<RunFacts> &Before,
                      const std::vector<RunFacts> &After,
                      const RunMetric &Metric);
/// "run faster", "run slower", "run no faster", "run: cannot decide".
std::string runPhrase(const std::string &Status);
/// The verdict as text lines, each starting with Indent (also used by
/// dftracer-tune).
void printVerdictText(std::ostream &Os, const RunVerdict &V,
                      const std::string &Indent);
nlohmann::ordered_json verdictJson(const RunVerdict &V);

void printComparisonText(std::ostream &Os, const Comparison &C, bool Forced);
nlohmann::ordered_json comparisonJson(const Comparison &C, bool Forced);
void printComparisonHtml(std::ostream &Os, const Comparison &C, bool Forced);

} // namespace dftanalyze

#endif
