//===- Ledger.cpp - Every trial dftracer-tune ran, in SQLite --------------===//

#include "Ledger.h"

#include <sqlite3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

namespace dfttune {

namespace {

// Version 1. A new column or table is a new version, with its migration
// from the previous one in Ledger::open.
const char Schema[] = R"sql(
CREATE TABLE IF NOT EXISTS trials (
  id INTEGER PRIMARY KEY,
  date TEXT NOT NULL,          -- UTC, ISO 8601
  app TEXT NOT NULL,           -- --name
  program TEXT,                -- the traced executable
  arguments TEXT,              -- the baseline command, a JSON array
  ranks INTEGER,               -- 0: unknown
  nodes INTEGER,
  fs_types TEXT,               -- "ext4", "lustre,tmpfs"; "" unknown
  versions TEXT,               -- library versions from the traces
  kind TEXT NOT NULL,          -- tune | env | args
  setting TEXT NOT NULL,       -- "DFTRACER_TUNE=...", "env K=V", "args ..."
  change TEXT,                 -- what changed, in words
  metric TEXT, unit TEXT,      -- the verdict's run metric
  status TEXT NOT NULL,        -- faster | slower | no detectable change |
                               -- cannot decide | failed
  baseline_median REAL, baseline_min REAL, baseline_max REAL,
  baseline_n INTEGER,
  median REAL, min REAL, max REAL, n INTEGER,
  change_percent REAL,         -- of the median
  ci_low REAL, ci_high REAL,   -- 95% interval of the ratio of medians
  p REAL,                      -- Mann-Whitney, two-sided
  why TEXT,
  targeted TEXT,               -- findings the trial targeted
  fixed TEXT, new TEXT,        -- findings fixed and new
  took_effect TEXT,
  note TEXT,
  work_dir TEXT
);
CREATE TABLE IF NOT EXISTS replicates (
  trial_id INTEGER NOT NULL REFERENCES trials(id),
  side TEXT NOT NULL,          -- baseline | candidate
  round INTEGER,
  metric REAL,                 -- NULL: the run gave none (failed, no trace)
  wall_seconds REAL,
  exit_status INTEGER, signal INTEGER, timed_out INTEGER,
  run_dir TEXT
);
CREATE TABLE IF NOT EXISTS failures (
  trial_id INTEGER NOT NULL REFERENCES trials(id),
  round INTEGER,
  kind TEXT NOT NULL,          -- signal | exit | timeout | no trace
  exit_status INTEGER, signal INTEGER,
  wall_seconds REAL,
  run_dir TEXT,
  evidence TEXT                -- the end of the run's stderr
);
CREATE INDEX IF NOT EXISTS trials_app_setting ON trials(app, setting);
)sql";

/// A prepared statement, finalised on scope exit.
class Statement {
public:
  Statement(sqlite3 *Db, const char *Sql) {
    if (sqlite3_prepare_v2(Db, Sql, -1, &S, nullptr) != SQLITE_OK)
      S = nullptr;
  }
  ~Statement() { sqlite3_finalize(S); }
  explicit operator bool() const { return S != nullptr; }
  Statement &text(int I, const std::string &V) {
    sqlite3_bind_text(S, I, V.c_str(), static_cast<int>(V.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  Statement &integer(int I, int64_t V) {
    sqlite3_bind_int64(S, I, V);
    return *this;
  }
  Statement &real(int I, double V) {
    sqlite3_bind_double(S, I, V);
    return *this;
  }
  Statement &null(int I) {
    sqlite3_bind_null(S, I);
    return *this;
  }
  int step() { return sqlite3_step(S); }
  std::string textAt(int I) {
    const unsigned char *T = sqlite3_column_text(S, I);
    return T ? reinterpret_cast<const char *>(T) : "";
  }
  int64_t intAt(int I) { return sqlite3_column_int64(S, I); }
  double realAt(int I) { return sqlite3_column_double(S, I); }
  bool nullAt(int I) { return sqlite3_column_type(S, I) == SQLITE_NULL; }
  sqlite3_stmt *get() { return S; }

private:
  sqlite3_stmt *S = nullptr;
};

bool makeDirs(const std::string &Dir) {
  for (size_t At = 1; At <= Dir.size(); ++At)
    if (At == Dir.size() || Dir[At] == '/') {
      std::string Part = Dir.substr(0, At);
      if (mkdir(Part.c_str(), 0755) != 0 && errno != EEXIST)
        return false;
    }
  return true;
}

const char TrialColumns[] =
    "id, date, app, program, arguments, ranks, nodes, fs_types, versions, "
    "kind, setting, change, metric, unit, status, baseline_median, "
    "baseline_min, baseline_max, baseline_n, median, min, max, n, "
    "change_percent, ci_low, ci_high, p, why, targeted, fixed, new, "
    "took_effect, note, work_dir";

/// A trial's failures, in the order of their rounds.
const char FailureQuery[] =
    "SELECT round, kind, exit_status, signal, wall_seconds, run_dir, "
    "evidence FROM failures WHERE trial_id = ?1 ORDER BY round";

/// The failure at F's row (FailureQuery's columns).
FailureRow readFailure(Statement &F) {
  FailureRow R;
  R.Round = F.intAt(0);
  R.Kind = F.textAt(1);
  R.ExitStatus = F.intAt(2);
  R.Signal = F.intAt(3);
  R.WallSeconds = F.realAt(4);
  R.RunDir = F.textAt(5);
  R.Evidence = F.textAt(6);
  return R;
}

TrialRow readTrial(Statement &S) {
  TrialRow T;
  int C = 0;
  T.Id = S.intAt(C++);
  T.Date = S.textAt(C++);
  T.App = S.textAt(C++);
  T.Program = S.textAt(C++);
  T.Arguments = S.textAt(C++);
  T.Ranks = S.intAt(C++);
  T.Nodes = S.intAt(C++);
  T.FsTypes = S.textAt(C++);
  T.Versions = S.textAt(C++);
  T.Kind = S.textAt(C++);
  T.Setting = S.textAt(C++);
  T.Change = S.textAt(C++);
  T.Metric = S.textAt(C++);
  T.Unit = S.textAt(C++);
  T.Status = S.textAt(C++);
  T.HasStats = !S.nullAt(C);
  T.BaselineMedian = S.realAt(C++);
  T.BaselineMin = S.realAt(C++);
  T.BaselineMax = S.realAt(C++);
  T.BaselineN = S.intAt(C++);
  T.Median = S.realAt(C++);
  T.Min = S.realAt(C++);
  T.Max = S.realAt(C++);
  T.N = S.intAt(C++);
  T.ChangePercent = S.realAt(C++);
  T.CiLow = S.realAt(C++);
  T.CiHigh = S.realAt(C++);
  T.P = S.realAt(C++);
  T.Why = S.textAt(C++);
  T.Targeted = S.textAt(C++);
  T.Fixed = S.textAt(C++);
  T.New = S.textAt(C++);
  T.TookEffect = S.textAt(C++);
  T.Note = S.textAt(C++);
  T.WorkDir = S.textAt(C++);
  return T;
}

} // namespace

std::string defaultLedgerPath() {
  const char *Xdg = std::getenv("XDG_DATA_HOME");
  if (Xdg && *Xdg == '/')
    return std::string(Xdg) + "/annotate/ledger.sqlite";
  const char *Home = std::getenv("HOME");
  return std::string(Home && *Home ? Home : ".") +
         "/.local/share/annotate/ledger.sqlite";
}

std::unique_ptr<Ledger> Ledger::open(const std::string &Path,
                                     std::string &Error) {
  size_t Slash = Path.find_last_of('/');
  if (Slash != std::string::npos && Slash > 0 &&
      !makeDirs(Path.substr(0, Slash))) {
    Error = Path + ": cannot create its directory: " + std::strerror(errno);
    return nullptr;
  }
  sqlite3 *Db = nullptr;
  if (sqlite3_open_v2(Path.c_str(), &Db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      nullptr) != SQLITE_OK) {
    Error = Path + ": cannot open the ledger: " +
            (Db ? sqlite3_errmsg(Db) : "out of memory");
    sqlite3_close(Db);
    return nullptr;
  }
  std::unique_ptr<Ledger> L(new Ledger(Db, Path));
  sqlite3_busy_timeout(Db, 60000); // two runners wait for each other
  // The version check and the schema in one write transaction, so that two
  // runners creating one ledger do not race.
  if (!L->exec("BEGIN IMMEDIATE", Error))
    return nullptr;
  int64_t Version = 0;
  {
    Statement S(Db, "PRAGMA user_version");
    if (!S || S.step() != SQLITE_ROW) {
      Error = Path + ": not an SQLite ledger: " + sqlite3_errmsg(Db);
      L->exec("ROLLBACK", Error);
      return nullptr;
    }
    Version = S.intAt(0);
  }
  if (Version > SchemaVersion) {
    std::string Ignored;
    L->exec("ROLLBACK", Ignored);
    Error = Path + ": the ledger's schema is version " +
            std::to_string(Version) + ", newer than this dftracer-tune's (" +
            std::to_string(SchemaVersion) +
            "); use a newer dftracer-tune, or another --ledger FILE";
    return nullptr;
  }
  if (Version < SchemaVersion) {
    if (!L->exec(Schema, Error) ||
        !L->exec(
            ("PRAGMA user_version = " + std::to_string(SchemaVersion)).c_str(),
            Error))
      return nullptr;
  }
  if (!L->exec("COMMIT", Error))
    return nullptr;
  return L;
}

std::unique_ptr<Ledger> Ledger::openToRead(const std::string &Path,
                                           std::string &Error) {
  sqlite3 *Db = nullptr;
  if (sqlite3_open_v2(Path.c_str(), &Db, SQLITE_OPEN_READONLY, nullptr) !=
      SQLITE_OK) {
    Error = Path + ": cannot open the ledger: " +
            (Db ? sqlite3_errmsg(Db) : "out of memory");
    sqlite3_close(Db);
    return nullptr;
  }
  std::unique_ptr<Ledger> L(new Ledger(Db, Path));
  sqlite3_busy_timeout(Db, 60000); // a runner may be writing a trial
  Statement S(Db, "PRAGMA user_version");
  if (!S || S.step() != SQLITE_ROW) {
    Error = Path + ": not an SQLite ledger: " + sqlite3_errmsg(Db);
    return nullptr;
  }
  int64_t Version = S.intAt(0);
  if (Version == 0) {
    Error = Path + ": not a dftracer-tune ledger (no schema version)";
    return nullptr;
  }
  if (Version > SchemaVersion) {
    Error = Path + ": the ledger's schema is version " +
            std::to_string(Version) + ", newer than this build's (" +
            std::to_string(SchemaVersion) + "); use a newer build";
    return nullptr;
  }
  return L;
}

Ledger::~Ledger() { sqlite3_close(Db); }

bool Ledger::exec(const char *Sql, std::string &Error) {
  char *Message = nullptr;
  if (sqlite3_exec(Db, Sql, nullptr, nullptr, &Message) == SQLITE_OK)
    return true;
  Error = Path + ": " + (Message ? Message : sqlite3_errmsg(Db));
  sqlite3_free(Message);
  if (std::strncmp(Sql, "BEGIN", 5) != 0 &&
      std::strncmp(Sql, "ROLLBACK", 8) != 0)
    sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
  return false;
}

bool Ledger::addTrial(TrialRow &T, std::string &Error) {
  if (!exec("BEGIN IMMEDIATE", Error))
    return false;
  auto Fail = [&] {
    Error = Path + ": " + sqlite3_errmsg(Db);
    sqlite3_exec(Db, "ROLLBACK", nullptr, nullptr, nullptr);
    return false;
  };
  {
    Statement S(Db, "INSERT INTO trials (date, app, program, arguments, ranks, "
                    "nodes, fs_types, versions, kind, setting, change, metric, "
                    "unit, status, baseline_median, baseline_min, "
                    "baseline_max, baseline_n, median, min, max, n, "
                    "change_percent, ci_low, ci_high, p, why, targeted, fixed, "
                    "new, took_effect, note, work_dir) VALUES (?1, ?2, ?3, ?4, "
                    "?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                    "?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27, "
                    "?28, ?29, ?30, ?31, ?32, ?33)");
    if (!S)
      return Fail();
    S.text(1, T.Date).text(2, T.App).text(3, T.Program).text(4, T.Arguments);
    S.integer(5, T.Ranks).integer(6, T.Nodes).text(7, T.FsTypes);
    S.text(8, T.Versions).text(9, T.Kind).text(10, T.Setting);
    S.text(11, T.Change).text(12, T.Metric).text(13, T.Unit);
    S.text(14, T.Status);
    if (T.HasStats) {
      S.real(15, T.BaselineMedian).real(16, T.BaselineMin);
      S.real(17, T.BaselineMax).integer(18, T.BaselineN);
      S.real(19, T.Median).real(20, T.Min).real(21, T.Max).integer(22, T.N);
      S.real(23, T.ChangePercent).real(24, T.CiLow).real(25, T.CiHigh);
      S.real(26, T.P);
    } else {
      for (int I = 15; I <= 26; ++I)
        S.null(I);
      S.integer(18, T.BaselineN).integer(22, T.N);
    }
    S.text(27, T.Why).text(28, T.Targeted).text(29, T.Fixed).text(30, T.New);
    S.text(31, T.TookEffect).text(32, T.Note).text(33, T.WorkDir);
    if (S.step() != SQLITE_DONE)
      return Fail();
    T.Id = sqlite3_last_insert_rowid(Db);
  }
  for (const ReplicateRow &R : T.Replicates) {
    Statement S(Db, "INSERT INTO replicates VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                    "?7, ?8, ?9)");
    if (!S)
      return Fail();
    S.integer(1, T.Id).text(2, R.Side).integer(3, R.Round);
    if (R.HasMetric)
      S.real(4, R.Metric);
    else
      S.null(4);
    S.real(5, R.WallSeconds).integer(6, R.ExitStatus).integer(7, R.Signal);
    S.integer(8, R.TimedOut).text(9, R.RunDir);
    if (S.step() != SQLITE_DONE)
      return Fail();
  }
  for (const FailureRow &F : T.Failures) {
    Statement S(Db, "INSERT INTO failures VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                    "?7, ?8)");
    if (!S)
      return Fail();
    S.integer(1, T.Id).integer(2, F.Round).text(3, F.Kind);
    S.integer(4, F.ExitStatus).integer(5, F.Signal).real(6, F.WallSeconds);
    S.text(7, F.RunDir).text(8, F.Evidence);
    if (S.step() != SQLITE_DONE)
      return Fail();
  }
  return exec("COMMIT", Error);
}

std::vector<TrialRow> Ledger::trials(const std::string &App,
                                     std::string &Error) {
  std::vector<TrialRow> Out;
  std::string Sql = std::string("SELECT ") + TrialColumns + " FROM trials" +
                    (App.empty() ? "" : " WHERE app = ?1") + " ORDER BY id";
  Statement S(Db, Sql.c_str());
  if (!S) {
    Error = Path + ": " + sqlite3_errmsg(Db);
    return Out;
  }
  if (!App.empty())
    S.text(1, App);
  while (S.step() == SQLITE_ROW)
    Out.push_back(readTrial(S));
  for (TrialRow &T : Out) {
    Statement F(Db, FailureQuery);
    F.integer(1, T.Id);
    while (F.step() == SQLITE_ROW)
      T.Failures.push_back(readFailure(F));
    Statement P(Db, "SELECT side, round, metric, wall_seconds, exit_status, "
                    "signal, timed_out, run_dir FROM replicates WHERE "
                    "trial_id = ?1 ORDER BY rowid");
    P.integer(1, T.Id);
    while (P.step() == SQLITE_ROW) {
      ReplicateRow R;
      R.Side = P.textAt(0);
      R.Round = P.intAt(1);
      R.HasMetric = !P.nullAt(2);
      R.Metric = P.realAt(2);
      R.WallSeconds = P.realAt(3);
      R.ExitStatus = P.intAt(4);
      R.Signal = P.intAt(5);
      R.TimedOut = P.intAt(6) != 0;
      R.RunDir = P.textAt(7);
      T.Replicates.push_back(R);
    }
  }
  return Out;
}

std::optional<TrialRow> Ledger::knownBad(const std::string &App,
                                         const std::string &Setting,
                                         const std::string &FsTypes,
                                         int64_t Ranks, std::string &Error) {
  std::string Sql = std::string("SELECT ") + TrialColumns +
                    " FROM trials WHERE app = ?1 AND setting = ?2 AND "
                    "status IN ('failed', 'slower') AND (?3 = '' OR "
                    "fs_types = '' OR fs_types = ?3) AND (?4 = 0 OR ranks = "
                    "0 OR ranks = ?4) ORDER BY id DESC LIMIT 1";
  Statement S(Db, Sql.c_str());
  if (!S) {
    Error = Path + ": " + sqlite3_errmsg(Db);
    return std::nullopt;
  }
  S.text(1, App).text(2, Setting).text(3, FsTypes).integer(4, Ranks);
  if (S.step() != SQLITE_ROW)
    return std::nullopt;
  TrialRow T = readTrial(S);
  Statement F(Db, (std::string(FailureQuery) + " LIMIT 1").c_str());
  F.integer(1, T.Id);
  if (F.step() == SQLITE_ROW)
    T.Failures.push_back(readFailure(F));
  return T;
}

} // namespace dfttune
