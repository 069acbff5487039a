//===- Diagnose.h - What is wrong with the I/O, where, what it costs -*- C++ -*-===//
//
// Findings computed from a Report and a rule file (diagnosis_rules.json;
// docs/diagnosis.md defines each kind). A finding says what (kind), where
// (the call sites: annotated function and the I/O chain below it, files,
// ranks), how much (ops, bytes, seconds, seconds recoverable with the
// method of the estimate), why (the figures against the thresholds, the
// support, caveats from the trace) and what to change (advice selected by
// the file system, layer and libraries in the trace).
//
// \code
//   DiagnosisRules Rules;
//   loadDiagnosisRules(defaultDiagnosisRules(), Rules, Error);
//   std::vector<Finding> F = diagnose(Report(A), Rules); // by recoverable
// \endcode
//
// Everything is computed from the merged Aggregate's integers in a fixed
// order, so findings are byte-identical across -j and mpiexec.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_DIAGNOSE_H
#define DFTRACER_ANALYZE_DIAGNOSE_H

#include "analyze/Report.h"

#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <set>
#include <string>
#include <vector>

namespace dftanalyze {

/// One advice text and the conditions under which it is given.
struct Advice {
  std::map<std::string, std::vector<std::string>> When; // key -> any of
  std::string Text;
  // DFTRACER_TUNE settings that apply the advice without a rebuild
  // ("hdf5.alignment={threshold},{unit}"), placeholders as in Text.
  std::vector<std::string> Try;
};

/// Where the trace says what is in effect for a DFTRACER_TUNE key, so that
/// the diagnosis never advises a setting the run already had
/// (diagnosis_rules.json "tune_keys").
struct TuneKey {
  std::string Record; // "HDF5_FILE", "MPIIO_HINTS" or "H5D_XFER"
  std::vector<std::string> Properties; // HDF5_FILE: values joined by ','
};

struct DiagnosisRule {
  std::string Kind, Definition, Source;
  std::map<std::string, double> Params; // min_ops, min_share, ...
  std::vector<Advice> Advices;

  double param(const std::string &Name, double Default = 0) const {
    auto It = Params.find(Name);
    return It == Params.end() ? Default : It->second;
  }
};

struct DiagnosisRules {
  std::string Path;
  uint64_t SmallBytes = 1048576;
  double CompareTolerance = 0.1; // --compare without replicates (Compare.h)
  std::map<std::string, DiagnosisRule> Rules; // by kind; absent: off
  // DFTRACER_TUNE key (or prefix ending in '.', "mpiio.") -> its record.
  std::map<std::string, TuneKey> TuneKeys;
};

/// Reads Path; false with a "path: ..." Error when it is not a valid file.
bool loadDiagnosisRules(const std::string &Path, DiagnosisRules &Out,
                        std::string &Error);
/// The installed diagnosis_rules.json (next to the binary or in
/// share/dftracer), or "".
std::string defaultDiagnosisRules();

struct FindingSite {
  std::string Function, Chain;
  uint64_t Ops = 0, Bytes = 0, TimeUs = 0;
};
struct FindingFile {
  std::string Path, FsType;
  uint64_t Ops = 0, Bytes = 0, TimeUs = 0;
};
struct Evidence {
  std::string Name;
  double Value = 0;
  std::string Op; // ">=", "<"
  double Threshold = 0;
};

/// A trial of one of a finding's try settings that the ledger of
/// dftracer-tune holds for this program and file system (docs/tuning.md,
/// "The ledger"; dftracer-analyze --diagnose --ledger FILE).
struct LedgerTrial {
  int64_t Id = 0;
  std::string Date;    // UTC, ISO 8601
  std::string Program; // the traced executable
  int64_t Ranks = 0;   // 0: unknown
  std::string FsTypes; // "ext4", "lustre,tmpfs"; "" unknown
  std::string Setting; // "DFTRACER_TUNE=a;b", "env K=V", "args ..."
  std::string Metric;  // the verdict's run metric
  // faster | slower | no detectable change | cannot decide | failed
  std::string Status;
  bool HasStats = false;
  double ChangePercent = 0, P = 1;
  std::string Failure; // a failed trial's first failure: "signal 11 in round 1"
};

struct Finding {
  std::string Kind, Summary;
  uint64_t Ops = 0, Bytes = 0, TimeUs = 0;
  uint64_t RecoverableUs = 0;
  std::string Method; // how RecoverableUs was estimated
  std::vector<FindingSite> Sites;
  std::vector<FindingFile> Files;
  std::vector<std::string> Ranks;
  std::vector<Evidence> Proof; // the figures that crossed the thresholds
  std::vector<Evidence> Support; // the minimum support reached
  std::vector<std::string> Caveats;
  std::vector<std::string> Advices;
  // The advice's DFTRACER_TUNE settings ("hdf5.alignment=4096,4096"), in
  // advice order, without those the trace shows in effect already.
  std::vector<std::string> Try;
  // With --ledger: the ledger was read (JSON "ledger" is given, [] when it
  // knows nothing), and its trials of the Try settings, oldest first.
  bool LedgerRead = false;
  std::vector<LedgerTrial> Ledger;
};

/// The file system types of R's files ("ext4", "lustre", ...), known
/// ones only, without MPI's own shared-memory segments (tmpfs, in every
/// MPICH run): how the ledger says where a run's data was.
std::set<std::string> runFileSystems(const Report &R);

/// Adds to each finding the trials of Trials that tried one of its Try
/// settings (DFTRACER_TUNE) for R's program (the executable's name from
/// CONFIG, else the trace file name's program) on R's file system types
/// (when both sides know them), and marks every finding LedgerRead.
void addLedgerTrials(std::vector<Finding> &F, const Report &R,
                     const std::vector<LedgerTrial> &Trials);
/// "hdf5.alignment=4096,4096 tried 2026-06-25 (#3), 384 ranks, lustre:
/// -29.0%, slower, p = 0.008".
std::string ledgerTrialText(const LedgerTrial &T);

/// The shell line that applies F's Try list: "DFTRACER_TUNE='a;b'".
std::string tuneLine(const std::vector<std::string> &Try);

/// The findings of R under Rules, by recoverable time (then kind, site).
std::vector<Finding> diagnose(const Report &R, const DiagnosisRules &Rules);

// Output (the reports call these at the top).
void printFindingsText(std::ostream &Os, const std::vector<Finding> &F,
                       const std::string &RulesPath);
nlohmann::ordered_json findingsJson(const std::vector<Finding> &F);
void printFindingsHtml(std::ostream &Os, const std::vector<Finding> &F,
                       const std::string &RulesPath);

} // namespace dftanalyze

#endif
