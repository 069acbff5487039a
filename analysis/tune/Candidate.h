//===- Candidate.h - One configuration dftracer-tune runs ----------*- C++
//-*-===//
//
// A candidate is the baseline command changed in one way (docs/tuning.md):
//
//   --try SETTING     DFTRACER_TUNE=SETTING in its environment (the runtime
//                     applies it: docs/runtime.md, "Tuning")
//   --try-env K=V     K=V in its environment
//   --try-args ARGS   the command with ARGS (split at blanks; '...' and
//                     "..." quote): an option of ARGS that the command has
//                     gets ARGS's value in place (`-t 4k` with `-t 1m` ->
//                     `-t 1m`; `--size=4k` with `--size=1m`), anything else
//                     of ARGS is appended
//
// Every argument (and ARGS) may hold `{run}`, replaced by the run's own
// fresh, empty directory: the way to give each run fresh output files
// (`-- ./writer -o {run}/out.dat`).
//
// \code
//   Candidate C;
//   parseArgsCandidate("-t 1m", C, Error);
//   C.command({"ior", "-t", "4k", "-o", "{run}/f"}, "/w/args1/r0")
//     // {"ior", "-t", "1m", "-o", "/w/args1/r0/f"}
//   C.Change // "-t 4k -> 1m" once describeChange() has seen the command
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TUNE_CANDIDATE_H
#define DFTRACER_TUNE_CANDIDATE_H

#include <string>
#include <utility>
#include <vector>

namespace dfttune {

struct Candidate {
  enum Kind { Baseline, Tune, Env, Args } K = Baseline;
  std::string Label;                 // "baseline", "#1", "#2", ...
  std::string Value;                 // the SETTING, K=V or ARGS as given
  std::vector<std::string> ArgWords; // Args: Value split
  std::string Change;                // what changed, in words (describeChange)
  std::string Targeted; // --from-findings: "kind (function)" it targets

  /// The ledger's key of the setting: "DFTRACER_TUNE=...", "env K=V",
  /// "args ARGS"; "" for the baseline.
  std::string setting() const;
  const char *kindName() const;
  /// The command of one run: Args applied, {run} replaced by RunDir.
  std::vector<std::string> command(const std::vector<std::string> &Base,
                                   const std::string &RunDir) const;
  /// The environment it adds.
  std::vector<std::pair<std::string, std::string>> environment() const;
  /// Sets Change from the baseline command (and the environment as the
  /// runner found it, for --try-env's "was").
  void describeChange(const std::vector<std::string> &Base);
};

/// ARGS split as a shell would at blanks, with '...' and "..." quoting;
/// false with Error for an unclosed quote.
bool splitWords(const std::string &Text, std::vector<std::string> &Words,
                std::string &Error);

/// Each "{run}" of S replaced by RunDir.
std::string substituteRun(std::string S, const std::string &RunDir);

} // namespace dfttune

#endif
