//===- Ledger.h - Every trial dftracer-tune ran, in SQLite ---------*- C++
//-*-===//
//
// The ledger remembers each trial (a candidate against the baseline), its
// replicates and its failures, so that the next run, and the engineer, do
// not repeat a setting that crashed or made the program slower on the same
// program, file system and scale (docs/tuning.md, "The ledger").
//
//   - Where: --ledger FILE, else $XDG_DATA_HOME/annotate/ledger.sqlite,
//     else ~/.local/share/annotate/ledger.sqlite (directories created).
//   - Schema version in PRAGMA user_version (SchemaVersion); a ledger of a
//     newer version is refused, never rewritten.
//   - One transaction per trial (BEGIN IMMEDIATE ... COMMIT): a runner
//     killed midway leaves every trial whole or absent. Two runners on one
//     ledger wait for each other (busy timeout 60 s) instead of failing.
//
// \code
//   std::string Error;
//   std::unique_ptr<Ledger> L = Ledger::open(defaultLedgerPath(), Error);
//   TrialRow T; T.App = "ior"; T.Setting = "args -t 1m"; T.Status = "faster";
//   L->addTrial(T, Error);
//   L->knownBad("ior", "args -t 1m", "lustre", 384) // a crash or "slower"
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TUNE_LEDGER_H
#define DFTRACER_TUNE_LEDGER_H

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace dfttune {

inline constexpr int SchemaVersion = 1;

struct ReplicateRow {
  std::string Side; // "baseline" | "candidate"
  int64_t Round = 0;
  bool HasMetric = false;
  double Metric = 0;
  double WallSeconds = 0;
  int64_t ExitStatus = 0, Signal = 0;
  bool TimedOut = false;
  std::string RunDir;
};

struct FailureRow {
  int64_t Round = 0;
  std::string Kind; // "signal" | "exit" | "timeout" | "no trace"
  int64_t ExitStatus = 0, Signal = 0;
  double WallSeconds = 0;
  std::string RunDir, Evidence; // the end of its stderr
};

struct TrialRow {
  int64_t Id = 0;
  std::string Date;             // UTC, ISO 8601
  std::string App;              // --name
  std::string Program;          // the traced executable (CONFIG), else argv[0]
  std::string Arguments;        // the baseline command, JSON array
  int64_t Ranks = 0, Nodes = 0; // 0: unknown
  std::string FsTypes;          // "ext4", "lustre,tmpfs"; "" unknown
  std::string Versions;         // "HDF5 1.10.8; MPI MPICH 4.0.2"
  std::string Kind;             // tune | env | args
  std::string Setting;          // Candidate::setting()
  std::string Change;           // what changed, in words
  std::string Metric, Unit;
  // faster | slower | no detectable change | cannot decide | failed
  std::string Status;
  bool HasStats = false;
  double BaselineMedian = 0, BaselineMin = 0, BaselineMax = 0;
  int64_t BaselineN = 0;
  double Median = 0, Min = 0, Max = 0;
  int64_t N = 0;
  double ChangePercent = 0, CiLow = 0, CiHigh = 0, P = 1;
  std::string Why;
  std::string Targeted;   // findings the trial targeted (kinds)
  std::string Fixed, New; // findings fixed and new, "kind (function)"
  std::string TookEffect;
  std::string Note;
  std::string WorkDir;
  std::vector<ReplicateRow> Replicates;
  std::vector<FailureRow> Failures;
};

class Ledger {
public:
  /// Opens (creating when absent) the ledger at Path; null with Error.
  static std::unique_ptr<Ledger> open(const std::string &Path,
                                      std::string &Error);
  /// Opens an existing ledger to read it, never creating nor changing it
  /// (dftracer-analyze --diagnose --ledger FILE); null with Error when
  /// absent, not a ledger, or of a newer schema.
  static std::unique_ptr<Ledger> openToRead(const std::string &Path,
                                            std::string &Error);
  ~Ledger();
  Ledger(const Ledger &) = delete;
  Ledger &operator=(const Ledger &) = delete;

  /// Writes T with its replicates and failures in one transaction; sets
  /// T.Id.
  bool addTrial(TrialRow &T, std::string &Error);
  /// The trials, oldest first; only App's when App is not empty.
  std::vector<TrialRow> trials(const std::string &App, std::string &Error);
  /// The latest trial of Setting for App that failed or was slower, on the
  /// same file system types and rank count when both sides know them.
  std::optional<TrialRow> knownBad(const std::string &App,
                                   const std::string &Setting,
                                   const std::string &FsTypes, int64_t Ranks,
                                   std::string &Error);
  const std::string &path() const { return Path; }

private:
  Ledger(sqlite3 *Db, std::string Path) : Db(Db), Path(std::move(Path)) {}
  bool exec(const char *Sql, std::string &Error);
  sqlite3 *Db;
  std::string Path;
};

/// --ledger's default (above).
std::string defaultLedgerPath();

} // namespace dfttune

#endif
