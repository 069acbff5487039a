//===- TuneOutput.cpp - The ledger's trials as text, JSON and markdown ----===//
//
// `dftracer-tune ledger [--app NAME] [--json|--markdown]`. The markdown
// entry holds the fields engineers keep by hand in their notes (date, app,
// workload, file system, ranks, bottleneck, setting, result, before,
// after, change, verdict, note):
//
// \code
//   ### #2 2026-06-25 ior: args -t 1m: faster
//   - workload: `["ior","-t","4k","-b","16m"]`
//   - file system: lustre; ranks: 384; nodes: 8
//   - bottleneck: small_requests (write_block)
//   - setting: args -t 1m (-t 4k -> 1m); took effect: yes: in argv
//   - before: 12.100000 s [11.800000..12.900000], n 5
//   - after: 4.200000 s [4.100000..4.400000], n 5
//   - change: -65.3% (95% CI 0.31..0.40), p = 0.00794
//   - verdict: faster (p = 0.00794 < 0.05 and ...)
//   - note: ...
// \endcode
//
//===----------------------------------------------------------------------===//

#include "Tune.h"

#include <cstdio>
#include <iostream>

namespace dfttune {

namespace {

std::string num(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Digits, V);
  return Buf;
}

std::string g(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}

int digits(const TrialRow &T) { return T.Unit == "s" ? 6 : 1; }

std::string failureText(const FailureRow &F) {
  if (F.Kind == "signal")
    return "signal " + std::to_string(F.Signal);
  if (F.Kind == "exit")
    return "exit " + std::to_string(F.ExitStatus);
  return F.Kind;
}

} // namespace

std::string trialLine(const TrialRow &T) {
  std::string S = "#" + std::to_string(T.Id) + " " + T.Date.substr(0, 10) +
                  " " + T.App + ": " + T.Setting + ": " + T.Status;
  if (!T.Failures.empty())
    S += " (" + failureText(T.Failures.front()) + " in round " +
         std::to_string(T.Failures.front().Round) + ")";
  else if (T.HasStats)
    S += " (" + std::string(T.ChangePercent >= 0 ? "+" : "") +
         num(T.ChangePercent, 1) + "%, p = " + g(T.P) + ")";
  if (!T.FsTypes.empty())
    S += ", " + T.FsTypes;
  if (T.Ranks)
    S += ", " + std::to_string(T.Ranks) + (T.Ranks == 1 ? " rank" : " ranks");
  return S;
}

nlohmann::ordered_json trialJson(const TrialRow &T) {
  using Json = nlohmann::ordered_json;
  Json J;
  J["id"] = T.Id;
  J["date"] = T.Date;
  J["app"] = T.App;
  J["program"] = T.Program;
  J["arguments"] =
      Json::parse(T.Arguments.empty() ? "[]" : T.Arguments, nullptr, false);
  J["ranks"] = T.Ranks;
  J["nodes"] = T.Nodes;
  J["fs_types"] = T.FsTypes;
  J["versions"] = T.Versions;
  J["kind"] = T.Kind;
  J["setting"] = T.Setting;
  J["change"] = T.Change;
  J["metric"] = T.Metric;
  J["unit"] = T.Unit;
  J["status"] = T.Status;
  J["why"] = T.Why;
  if (T.HasStats) {
    J["baseline"] = {{"n", T.BaselineN},
                     {"median", T.BaselineMedian},
                     {"min", T.BaselineMin},
                     {"max", T.BaselineMax}};
    J["candidate"] = {
        {"n", T.N}, {"median", T.Median}, {"min", T.Min}, {"max", T.Max}};
    J["change_percent"] = T.ChangePercent;
    J["ci"] = {T.CiLow, T.CiHigh};
    J["p"] = T.P;
  }
  J["targeted"] = T.Targeted;
  J["fixed"] = T.Fixed;
  J["new"] = T.New;
  J["took_effect"] = T.TookEffect;
  J["note"] = T.Note;
  J["work_dir"] = T.WorkDir;
  Json Fs = Json::array();
  for (const FailureRow &F : T.Failures)
    Fs.push_back({{"round", F.Round},
                  {"kind", F.Kind},
                  {"exit_status", F.ExitStatus},
                  {"signal", F.Signal},
                  {"wall_seconds", F.WallSeconds},
                  {"run_dir", F.RunDir},
                  {"evidence", F.Evidence}});
  J["failures"] = Fs;
  Json Rs = Json::array();
  for (const ReplicateRow &R : T.Replicates) {
    Json Row{{"side", R.Side}, {"round", R.Round}};
    Row["metric"] = R.HasMetric ? Json(R.Metric) : Json(nullptr);
    Row["wall_seconds"] = R.WallSeconds;
    Row["exit_status"] = R.ExitStatus;
    Row["signal"] = R.Signal;
    Row["timed_out"] = R.TimedOut;
    Row["run_dir"] = R.RunDir;
    Rs.push_back(Row);
  }
  J["replicates"] = Rs;
  return J;
}

void printTrialMarkdown(std::ostream &Os, const TrialRow &T) {
  int D = digits(T);
  Os << "### #" << T.Id << " " << T.Date.substr(0, 10) << " " << T.App << ": "
     << T.Setting << ": " << T.Status << "\n\n";
  Os << "- workload: `" << T.Arguments << "`\n";
  Os << "- file system: " << (T.FsTypes.empty() ? "unknown" : T.FsTypes)
     << "; ranks: " << (T.Ranks ? std::to_string(T.Ranks) : "unknown")
     << "; nodes: " << (T.Nodes ? std::to_string(T.Nodes) : "unknown") << "\n";
  if (!T.Versions.empty())
    Os << "- versions: " << T.Versions << "\n";
  Os << "- bottleneck: " << (T.Targeted.empty() ? "-" : T.Targeted) << "\n";
  Os << "- setting: " << T.Setting << " (" << T.Change
     << "); took effect: " << T.TookEffect << "\n";
  if (T.HasStats) {
    Os << "- before: " << num(T.BaselineMedian, D) << " " << T.Unit << " ["
       << num(T.BaselineMin, D) << ".." << num(T.BaselineMax, D) << "], n "
       << T.BaselineN << "\n";
    Os << "- after: " << num(T.Median, D) << " " << T.Unit << " ["
       << num(T.Min, D) << ".." << num(T.Max, D) << "], n " << T.N << "\n";
    Os << "- change: " << (T.ChangePercent >= 0 ? "+" : "")
       << num(T.ChangePercent, 1) << "%";
    if (T.N > 1 || T.BaselineN > 1)
      Os << " (95% CI " << num(T.CiLow, 3) << ".." << num(T.CiHigh, 3) << ")";
    Os << ", p = " << g(T.P) << "\n";
  }
  for (const FailureRow &F : T.Failures) {
    Os << "- result: failed, " << failureText(F) << " in round " << F.Round
       << " after " << num(F.WallSeconds, 1) << " s (" << F.RunDir << ")\n";
    if (!F.Evidence.empty())
      Os << "\n  ```\n  " << [&] {
        std::string E = F.Evidence;
        for (size_t At = E.find('\n');
             At != std::string::npos && At + 1 < E.size();
             At = E.find('\n', At + 3))
          E.replace(At, 1, "\n  ");
        return E;
      }() << "  ```\n\n";
  }
  Os << "- verdict: " << T.Status << " (" << T.Why << ")\n";
  Os << "- findings fixed: " << (T.Fixed.empty() ? "-" : T.Fixed)
     << "; new: " << (T.New.empty() ? "-" : T.New) << "\n";
  Os << "- note: " << (T.Note.empty() ? "-" : T.Note) << "\n\n";
}

int printLedger(const std::string &Path, const std::string &App, LedgerFormat F,
                std::ostream &Out, std::ostream &Err) {
  std::string Error;
  std::unique_ptr<Ledger> L = Ledger::open(Path, Error);
  if (!L) {
    Err << "dftracer-tune: " << Error << "\n";
    return 1;
  }
  std::vector<TrialRow> Trials = L->trials(App, Error);
  if (!Error.empty()) {
    Err << "dftracer-tune: " << Error << "\n";
    return 1;
  }
  if (F == LedgerFormat::Json) {
    nlohmann::ordered_json J;
    J["ledger"] = L->path();
    J["schema_version"] = SchemaVersion;
    nlohmann::ordered_json A = nlohmann::ordered_json::array();
    for (const TrialRow &T : Trials)
      A.push_back(trialJson(T));
    J["trials"] = A;
    Out << J.dump(2) << "\n";
    return 0;
  }
  if (F == LedgerFormat::Markdown) {
    Out << "# Tuning ledger (" << L->path() << ")\n\n";
    for (const TrialRow &T : Trials)
      printTrialMarkdown(Out, T);
    return 0;
  }
  Out << L->path() << ": " << Trials.size() << " trial"
      << (Trials.size() == 1 ? "" : "s") << "\n";
  for (const TrialRow &T : Trials)
    Out << "  " << trialLine(T) << (T.Note.empty() ? "" : "; note: " + T.Note)
        << "\n";
  return 0;
}

} // namespace dfttune
