//===- Tune.h - dftracer-tune run: the tuning loop -----------------*- C++
//-*-===//
//
// `dftracer-tune run` (docs/tuning.md): the baseline command and each
// candidate (Candidate.h), Replicates rounds, interleaved with the order
// rotated every round (A B C, B C A, C A B, ...) so that a drift of the
// machine does not fall on one candidate; each run in its own directory
// (WORK/<arm>/runN: traces/, out/ for {run}, stdout, stderr, command,
// environment, status). A run that crashes (signal), exits non-zero or
// times out makes its candidate a failed trial: kept with its evidence,
// not run again. Each run is analysed in-process (the analysis library,
// as dftracer-analyze would), every candidate compared with the baseline
// (diagnose/Compare.h: the verdict and the findings), the settings'
// took-effect statuses read from the traces' tuning records, one table
// printed, and every trial written to the ledger (Ledger.h). Before a
// candidate's first run the ledger is asked whether the same setting
// already failed or was slower for the same program (file system types and
// rank count when known): it is skipped, with the entry printed, unless
// Retry.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TUNE_TUNE_H
#define DFTRACER_TUNE_TUNE_H

#include "Candidate.h"
#include "Ledger.h"
#include "diagnose/Compare.h"

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace dfttune {

struct TuneOptions {
  std::string Name;                  // the program's name in the ledger
  unsigned Replicates = 5;           // rounds: runs of each candidate
  double TimeoutSeconds = 0;         // per run; 0: none
  std::vector<Candidate> Candidates; // the baseline is added
  // --from-findings: traces whose findings' "try" lists (the advice's
  // DFTRACER_TUNE settings) become candidates, one per distinct list,
  // after those given.
  std::vector<std::string> FromFindings;
  std::string LedgerPath;
  std::string Note;
  bool Retry = false;
  std::vector<std::string> Command;
  std::string WorkDir;   // default dftracer-tune/<name>-<UTC time>
  std::string Preload;   // LD_PRELOAD for every run (libdftracer_preload.so)
  std::string RulesPath; // diagnosis rules; default the installed ones
  dftanalyze::RunMetric Metric;
  bool Json = false;
  bool Progress = false; // on stderr (when it is a terminal)
};

/// Runs the loop; prints the table (or JSON) on Out, progress and errors
/// on Err. Exit status: 0 the trials ran (failed candidates included),
/// 1 the baseline failed or left no trace, the ledger could not be
/// written, or a directory could not be made.
int runTune(const TuneOptions &O, std::ostream &Out, std::ostream &Err);

/// `dftracer-tune ledger`: the trials as text, JSON or markdown.
enum class LedgerFormat { Text, Json, Markdown };
int printLedger(const std::string &Path, const std::string &App, LedgerFormat F,
                std::ostream &Out, std::ostream &Err);

nlohmann::ordered_json trialJson(const TrialRow &T);
void printTrialMarkdown(std::ostream &Os, const TrialRow &T);
/// One line: "#3 2026-06-25 ior: args -t 1m: failed (signal 11 ...)".
std::string trialLine(const TrialRow &T);

} // namespace dfttune

#endif
