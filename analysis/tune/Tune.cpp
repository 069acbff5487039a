//===- Tune.cpp - dftracer-tune run: the tuning loop ----------------------===//

#include "Tune.h"

#include "Process.h"
#include "analyze/Analysis.h"
#include "analyze/Configuration.h"
#include "analyze/Report.h"
#include "diagnose/Diagnose.h"
#include "reader/TraceScanner.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <ctime>
#include <map>
#include <memory>
#include <set>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace dfttune {

using namespace dftanalyze;

namespace {

bool makeDirs(const std::string &Dir, std::string &Error) {
  for (size_t At = 1; At <= Dir.size(); ++At)
    if (At == Dir.size() || Dir[At] == '/') {
      std::string Part = Dir.substr(0, At);
      if (mkdir(Part.c_str(), 0755) != 0 && errno != EEXIST) {
        Error = Part + ": cannot create: " + std::strerror(errno);
        return false;
      }
    }
  return true;
}

/// True when Dir does not exist or holds nothing.
bool emptyOrAbsent(const std::string &Dir) {
  DIR *D = opendir(Dir.c_str());
  if (!D)
    return errno == ENOENT;
  bool Empty = true;
  while (struct dirent *E = readdir(D))
    if (std::strcmp(E->d_name, ".") != 0 && std::strcmp(E->d_name, "..") != 0) {
      Empty = false;
      break;
    }
  closedir(D);
  return Empty;
}

std::string utcNow(const char *Format) {
  std::time_t Now = std::time(nullptr);
  std::tm Tm{};
  gmtime_r(&Now, &Tm);
  char Buf[64];
  std::strftime(Buf, sizeof(Buf), Format, &Tm);
  return Buf;
}

std::string absolute(const std::string &Path) {
  if (!Path.empty() && Path[0] == '/')
    return Path;
  char Buf[PATH_MAX];
  if (!getcwd(Buf, sizeof(Buf)))
    return Path;
  return std::string(Buf) + "/" + Path;
}

std::string num(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Digits, V);
  return Buf;
}

/// What one analysed run says beyond the comparison's facts.
struct RunInfo {
  RunFacts Facts;
  std::string Exe;
  int64_t Ranks = 0, Nodes = 0;
  std::set<std::string> FsTypes;
  std::set<std::string> Versions;             // "HDF5 1.10.8"
  std::vector<TuningStat> Tuning;             // source DFTRACER_TUNE
  std::vector<std::vector<std::string>> Argv; // per program
  std::vector<std::pair<std::string, std::string>> Env;
};

/// One run of an arm.
struct Run {
  int Round = 0;
  std::string Dir;
  RunResult Result;
  bool Analysed = false;
  RunInfo Info;
  std::string FailKind; // "" | signal | exit | timeout | no trace
};

struct Arm {
  Candidate C;
  std::string DirName; // "baseline", "try1", ...
  std::vector<Run> Runs;
  bool Failed = false, Skipped = false;
  TrialRow SkippedBy;
};

/// Reads and diagnoses the traces under Dir in-process.
bool analyseRun(const std::vector<std::string> &Traces,
                const DiagnosisRules &Rules, const std::string &Name,
                RunInfo &Info) {
  std::vector<std::string> ArgErrors;
  std::vector<std::string> Files =
      dftrace::expandTraceArguments(Traces, ArgErrors);
  if (Files.empty())
    return false;
  std::vector<uint32_t> All;
  for (uint32_t I = 0; I < Files.size(); ++I)
    All.push_back(I);
  AnalyzeOptions AO;
  AO.SmallBytes = Rules.SmallBytes;
  unsigned Jobs = std::max(1u, std::thread::hardware_concurrency());
  Aggregate A = analyzeFiles(Files, largestFirst(Files, All), Jobs, AO);
  A.FileNames = Files;
  A.finish();
  Report R(A);
  Info.Facts = runFacts(Name, R, diagnose(R, Rules));
  Info.Ranks = static_cast<int64_t>(R.Ranks.size());
  Info.FsTypes = runFileSystems(R);
  for (const ProgramConfig &P : programConfigs(R)) {
    if (Info.Exe.empty() && P.HasConfig)
      Info.Exe = P.Exe;
    Info.Nodes = std::max<int64_t>(Info.Nodes, static_cast<int64_t>(P.Nodes));
    if (P.Ranks)
      Info.Ranks = static_cast<int64_t>(P.Ranks);
    for (const auto &[Lib, Version] : P.Versions)
      Info.Versions.insert(Lib + " " + Version);
    for (const TuningRow &T : P.Tuning)
      if (T.T.Source == "DFTRACER_TUNE")
        Info.Tuning.push_back(T.T);
    Info.Argv.push_back(P.Argv);
    Info.Env.insert(Info.Env.end(), P.Env.begin(), P.Env.end());
  }
  return true;
}

std::string join(const std::set<std::string> &S, const char *Sep) {
  std::string Out;
  for (const std::string &E : S)
    Out += (Out.empty() ? "" : Sep) + E;
  return Out;
}

/// Whether the candidate's change shows in its traces.
std::string tookEffect(const Arm &A) {
  const Candidate &C = A.C;
  std::map<std::string, std::string> Statuses; // status -> first "key: why"
  bool Any = false, AnyRun = false;
  for (const Run &R : A.Runs) {
    if (!R.Analysed)
      continue;
    AnyRun = true;
    if (C.K == Candidate::Tune)
      for (const TuningStat &T : R.Info.Tuning) {
        Any = true;
        if (!Statuses.count(T.Status)) {
          std::string What = T.Key.empty() ? T.Setting : T.Key;
          Statuses[T.Status] = What + (T.Reason.empty() ? "" : ": " + T.Reason);
        }
      }
    if (C.K == Candidate::Env) {
      auto Want = C.environment().front();
      for (const auto &[K, V] : R.Info.Env)
        if (K == Want.first) {
          Any = true;
          Statuses[V == Want.second ? "recorded" : "differs"] = K + "=" + V;
        }
    }
    if (C.K == Candidate::Args)
      for (const std::vector<std::string> &Argv : R.Info.Argv) {
        if (Argv.empty())
          continue;
        Any = true;
        bool All = true; // every word of ARGS in the recorded argv
        for (const std::string &W : C.ArgWords) {
          std::string S = substituteRun(W, R.Dir + "/out");
          if (std::find(Argv.begin(), Argv.end(), S) == Argv.end())
            All = false;
        }
        Statuses[All ? "in argv" : "not in argv"] = "";
      }
  }
  if (!AnyRun)
    return "-";
  if (!Any)
    return C.K == Candidate::Tune ? "no record (is DFTRACER_TUNE supported?)"
                                  : "not recorded";
  for (const char *Bad : {"invalid", "ignored", "differs", "not in argv"})
    if (Statuses.count(Bad))
      return std::string("no: ") + Bad +
             (Statuses[Bad].empty() ? "" : " (" + Statuses[Bad] + ")");
  std::string Out = "yes:";
  for (const auto &[S, Why] : Statuses)
    Out += " " + S;
  return Out;
}

std::string findingName(const FindingChange &F) {
  return F.Kind + (F.Function.empty() ? "" : " (" + F.Function + ")");
}

std::string commandJson(const std::vector<std::string> &Cmd) {
  return nlohmann::json(Cmd).dump();
}

/// The text table: columns padded to their widest cell.
void printTable(std::ostream &Os,
                const std::vector<std::vector<std::string>> &Rows) {
  std::vector<size_t> Width;
  for (const auto &Row : Rows)
    for (size_t I = 0; I < Row.size(); ++I) {
      if (Width.size() <= I)
        Width.push_back(0);
      Width[I] = std::max(Width[I], Row[I].size());
    }
  for (const auto &Row : Rows) {
    std::string Line;
    for (size_t I = 0; I < Row.size(); ++I) {
      Line += Row[I];
      if (I + 1 < Row.size())
        Line += std::string(Width[I] - Row[I].size() + 2, ' ');
    }
    Line.erase(Line.find_last_not_of(' ') + 1);
    Os << Line << "\n";
  }
}

} // namespace

int runTune(const TuneOptions &O, std::ostream &Out, std::ostream &Err) {
  std::string Error;
  std::unique_ptr<Ledger> L = Ledger::open(O.LedgerPath, Error);
  if (!L) {
    Err << "dftracer-tune: " << Error << "\n";
    return 1;
  }
  DiagnosisRules Rules;
  std::string RulesPath =
      O.RulesPath.empty() ? defaultDiagnosisRules() : O.RulesPath;
  if (RulesPath.empty() || !loadDiagnosisRules(RulesPath, Rules, Error)) {
    Err << "dftracer-tune: "
        << (RulesPath.empty() ? "no diagnosis rules (dftracer-analyze-"
                                "diagnosis.json next to the binary or in "
                                "share/dftracer)"
                              : Error)
        << "\n";
    return 1;
  }
  std::string Work =
      absolute(O.WorkDir.empty()
                   ? "dftracer-tune/" + O.Name + "-" + utcNow("%Y%m%d-%H%M%S")
                   : O.WorkDir);
  // A run's traces and outputs must be its own: a --work that already
  // holds runs would mix the old traces into the new analyses.
  if (!emptyOrAbsent(Work)) {
    Err << "dftracer-tune: " << Work
        << " is not empty: give a new --work directory (its runs would mix "
           "with the old ones)\n";
    return 2;
  }
  if (!makeDirs(Work, Error)) {
    Err << "dftracer-tune: " << Error << "\n";
    return 1;
  }

  std::vector<Candidate> Candidates = O.Candidates;
  if (!O.FromFindings.empty()) {
    // One candidate per distinct try list; the findings that advise it are
    // what it targets.
    RunInfo Info;
    std::string Traces;
    for (const std::string &T : O.FromFindings)
      Traces += (Traces.empty() ? "" : " ") + T;
    if (!analyseRun(O.FromFindings, Rules, Traces, Info)) {
      Err << "dftracer-tune: --from-findings: no trace in " << Traces << "\n";
      return 1;
    }
    std::map<std::string, std::string> Lists; // setting -> findings
    for (const Finding &F : Info.Facts.Findings) {
      if (F.Try.empty())
        continue;
      std::string Setting;
      for (const std::string &T : F.Try)
        Setting += (Setting.empty() ? "" : ";") + T;
      std::string Name =
          F.Kind + (F.Sites.empty() ? "" : " (" + F.Sites[0].Function + ")");
      std::string &To = Lists[Setting];
      To += (To.empty() ? "" : ", ") + Name;
    }
    if (Lists.empty())
      Err << "dftracer-tune: --from-findings: no finding of " << Traces
          << " has a setting to try (docs/diagnosis.md, \"try\")\n";
    for (const auto &[Setting, Findings] : Lists) {
      Candidate C;
      C.K = Candidate::Tune;
      C.Value = Setting;
      C.Targeted = Findings;
      Candidates.push_back(C);
    }
    if (Candidates.empty())
      return 0;
  }

  std::vector<Arm> Arms(1);
  Arms[0].C.Label = "baseline";
  Arms[0].DirName = "baseline";
  for (size_t I = 0; I < Candidates.size(); ++I) {
    Arm A;
    A.C = Candidates[I];
    A.C.Label = "#" + std::to_string(I + 1);
    A.DirName = "try" + std::to_string(I + 1);
    Arms.push_back(A);
  }
  for (Arm &A : Arms)
    A.C.describeChange(O.Command);

  size_t Total = Arms.size() * O.Replicates, Done = 0;
  std::string Date = utcNow("%Y-%m-%dT%H:%M:%SZ");
  for (unsigned Round = 0; Round < O.Replicates; ++Round) {
    for (size_t K = 0; K < Arms.size(); ++K) {
      Arm &A = Arms[(K + Round) % Arms.size()]; // rotated every round
      ++Done;
      if (A.Failed || A.Skipped)
        continue;
      if (A.Runs.empty() && A.C.K != Candidate::Baseline && !O.Retry) {
        // The ledger, with what the baseline's first run said.
        std::string Fs;
        int64_t Ranks = 0;
        for (const Run &R : Arms[0].Runs)
          if (R.Analysed) {
            Fs = join(R.Info.FsTypes, ",");
            Ranks = R.Info.Ranks;
            break;
          }
        std::optional<TrialRow> Bad =
            L->knownBad(O.Name, A.C.setting(), Fs, Ranks, Error);
        if (Bad) {
          A.Skipped = true;
          A.SkippedBy = *Bad;
          Err << "dftracer-tune: skipping " << A.C.Label << " ("
              << A.C.setting() << "): the ledger has " << trialLine(*Bad)
              << "; --retry runs it again\n";
          continue;
        }
      }
      Run R;
      R.Round = static_cast<int>(Round) + 1;
      R.Dir = Work + "/" + A.DirName + "/run" + std::to_string(R.Round);
      if (!makeDirs(R.Dir + "/traces", Error) ||
          !makeDirs(R.Dir + "/out", Error)) {
        Err << "dftracer-tune: " << Error << "\n";
        return 1;
      }
      RunSpec S;
      S.Argv = A.C.command(O.Command, R.Dir + "/out");
      S.Dir = R.Dir;
      S.TimeoutSeconds = O.TimeoutSeconds;
      S.Env = {{"DFTRACER_ENABLE", "1"},
               {"DFTRACER_LOG_FILE", R.Dir + "/traces/"}};
      if (!O.Preload.empty()) {
        const char *Was = std::getenv("LD_PRELOAD");
        S.Env.push_back(
            {"LD_PRELOAD",
             O.Preload + (Was && *Was ? std::string(":") + Was : "")});
      }
      for (const auto &E : A.C.environment())
        S.Env.push_back(E);
      std::string What =
          "[" + std::to_string(Done) + "/" + std::to_string(Total) + "] " +
          A.C.Label +
          (A.C.K == Candidate::Baseline ? "" : " " + A.C.setting()) +
          ", round " + std::to_string(R.Round);
      auto Tick = [&](double Elapsed) {
        if (O.Progress)
          Err << "\r" << What << ": " << num(Elapsed, 1) << " s" << std::flush;
      };
      R.Result = runProcess(S, Tick);
      { // the run's place in the whole sequence (the rotation, checkable)
        std::FILE *Seq = std::fopen((R.Dir + "/sequence").c_str(), "w");
        if (Seq) {
          std::fprintf(Seq, "%zu\n", Done);
          std::fclose(Seq);
        }
      }
      if (O.Progress)
        Err << "\r" << What << ": " << num(R.Result.WallSeconds, 1) << " s, "
            << R.Result.text() << "\n";
      if (R.Result.failed()) {
        R.FailKind = R.Result.TimedOut ? "timeout"
                     : R.Result.Signal ? "signal"
                                       : "exit";
      } else if (!analyseRun({R.Dir + "/traces"}, Rules,
                             A.DirName + "/run" + std::to_string(R.Round),
                             R.Info)) {
        R.FailKind = "no trace";
      } else {
        R.Analysed = true;
      }
      if (!R.FailKind.empty() && A.C.K == Candidate::Baseline) {
        Err << "dftracer-tune: the baseline's run " << R.Round << " failed ("
            << (R.FailKind == "no trace"
                    ? "no trace in " + R.Dir +
                          "/traces: is the program traced? link it with "
                          "libdftracer_core or give --preload "
                          "libdftracer_preload.so"
                    : R.Result.text())
            << "); its output is in " << R.Dir << "\n"
            << tailOf(R.Dir + "/stderr", 10);
        return 1;
      }
      if (!R.FailKind.empty())
        A.Failed = true;
      A.Runs.push_back(std::move(R));
    }
  }

  // Compare, record, print.
  std::vector<RunFacts> Base;
  const RunInfo *BaseInfo = nullptr;
  for (const Run &R : Arms[0].Runs) {
    Base.push_back(R.Info.Facts);
    if (!BaseInfo)
      BaseInfo = &R.Info;
  }
  RunVerdict BaseV = runVerdict(Base, {}, O.Metric);
  int D = O.Metric.Unit == "s" ? 4 : 1;
  auto Range = [&](const dftstats::Summary &S) {
    if (!S.N)
      return std::string("-");
    return num(S.Median, D) + " [" + num(S.Min, D) + ".." + num(S.Max, D) + "]";
  };
  std::vector<std::vector<std::string>> Table;
  Table.push_back({"candidate", "what changed",
                   O.Metric.Name + " (" + O.Metric.Unit + ") median [min..max]",
                   "change", "95% CI", "p", "verdict", "fixed", "new",
                   "took effect"});
  Table.push_back(
      {"baseline", "-", Range(BaseV.V.Before), "", "", "", "", "", "", ""});
  nlohmann::ordered_json Trials = nlohmann::ordered_json::array();
  std::vector<std::string> Whys;
  int Status = 0;
  for (size_t I = 1; I < Arms.size(); ++I) {
    Arm &A = Arms[I];
    if (A.Skipped) {
      Table.push_back({A.C.Label, A.C.Change, "-", "", "", "", "skipped", "",
                       "", "ledger #" + std::to_string(A.SkippedBy.Id)});
      continue;
    }
    TrialRow T;
    T.Date = Date;
    T.App = O.Name;
    T.Program =
        BaseInfo && !BaseInfo->Exe.empty() ? BaseInfo->Exe : O.Command.front();
    T.Arguments = commandJson(O.Command);
    if (BaseInfo) {
      T.Ranks = BaseInfo->Ranks;
      T.Nodes = BaseInfo->Nodes;
      T.FsTypes = join(BaseInfo->FsTypes, ",");
      T.Versions = join(BaseInfo->Versions, "; ");
    }
    T.Kind = A.C.kindName();
    T.Setting = A.C.setting();
    T.Change = A.C.Change;
    T.Metric = O.Metric.Name;
    T.Unit = O.Metric.Unit;
    T.Note = O.Note;
    T.Targeted = A.C.Targeted;
    T.WorkDir = Work + "/" + A.DirName;
    for (const Run &R : Arms[0].Runs) {
      ReplicateRow Row;
      Row.Side = "baseline";
      Row.Round = R.Round;
      auto It = R.Info.Facts.Metrics.find(O.Metric.Name);
      Row.HasMetric = It != R.Info.Facts.Metrics.end();
      Row.Metric = Row.HasMetric ? It->second : 0;
      Row.WallSeconds = R.Result.WallSeconds;
      Row.RunDir = R.Dir;
      T.Replicates.push_back(Row);
    }
    std::vector<RunFacts> Changed;
    for (const Run &R : A.Runs) {
      ReplicateRow Row;
      Row.Side = "candidate";
      Row.Round = R.Round;
      Row.WallSeconds = R.Result.WallSeconds;
      Row.ExitStatus = R.Result.ExitStatus;
      Row.Signal = R.Result.Signal;
      Row.TimedOut = R.Result.TimedOut;
      Row.RunDir = R.Dir;
      if (R.Analysed) {
        auto It = R.Info.Facts.Metrics.find(O.Metric.Name);
        Row.HasMetric = It != R.Info.Facts.Metrics.end();
        Row.Metric = Row.HasMetric ? It->second : 0;
        Changed.push_back(R.Info.Facts);
      } else {
        FailureRow F;
        F.Round = R.Round;
        F.Kind = R.FailKind;
        F.ExitStatus = R.Result.ExitStatus;
        F.Signal = R.Result.Signal;
        F.WallSeconds = R.Result.WallSeconds;
        F.RunDir = R.Dir;
        F.Evidence = tailOf(R.Dir + "/stderr", 20);
        T.Failures.push_back(F);
      }
      T.Replicates.push_back(Row);
    }
    std::string Fixed, New;
    std::string Verdict;
    if (A.Failed) {
      const FailureRow &F = T.Failures.front();
      const Run &R = A.Runs.back();
      T.Status = "failed";
      T.Why = (F.Kind == "no trace" ? std::string("no trace written")
                                    : R.Result.text()) +
              " in round " + std::to_string(F.Round) + " (" + F.RunDir + ")";
      Verdict = "failed: " + (F.Kind == "no trace" ? std::string("no trace")
                                                   : R.Result.text());
    } else {
      Comparison C =
          compareRuns(Base, Changed, Rules.CompareTolerance, O.Metric);
      const dftstats::Verdict &V = C.Verdict.V;
      T.Status = V.Status;
      T.Why = V.Why;
      T.HasStats = true;
      T.BaselineMedian = V.Before.Median;
      T.BaselineMin = V.Before.Min;
      T.BaselineMax = V.Before.Max;
      T.BaselineN = static_cast<int64_t>(V.Before.N);
      T.Median = V.After.Median;
      T.Min = V.After.Min;
      T.Max = V.After.Max;
      T.N = static_cast<int64_t>(V.After.N);
      T.ChangePercent = V.Ratio.Valid ? 100 * (V.Ratio.Ratio - 1) : 0;
      T.CiLow = V.Ratio.Low;
      T.CiHigh = V.Ratio.High;
      T.P = V.Test.P;
      for (const FindingChange &F : C.Findings) {
        if (F.Status == "fixed")
          Fixed += (Fixed.empty() ? "" : ", ") + findingName(F);
        if (F.Status == "new")
          New += (New.empty() ? "" : ", ") + findingName(F);
      }
      Verdict = V.Status;
      if (!C.Changes.empty()) // what the traces say changed
        T.Change += " | " + C.ChangedLine;
    }
    T.Fixed = Fixed;
    T.New = New;
    T.TookEffect = tookEffect(A);
    if (!L->addTrial(T, Error)) {
      Err << "dftracer-tune: " << Error << "\n";
      Status = 1;
    }
    auto Pct = [](double P) { return (P >= 0 ? "+" : "") + num(P, 1) + "%"; };
    dftstats::Summary After;
    if (T.HasStats) {
      After.N = static_cast<size_t>(T.N);
      After.Median = T.Median;
      After.Min = T.Min;
      After.Max = T.Max;
    }
    Table.push_back({A.C.Label, A.C.Change, Range(After),
                     T.HasStats ? Pct(T.ChangePercent) : "",
                     T.HasStats && (T.N > 1 || T.BaselineN > 1)
                         ? num(T.CiLow, 3) + ".." + num(T.CiHigh, 3)
                         : "",
                     T.HasStats ? num(T.P, 3) : "", Verdict,
                     Fixed.empty() ? "-" : Fixed, New.empty() ? "-" : New,
                     T.TookEffect});
    Trials.push_back(trialJson(T));
    Whys.push_back(A.C.Label + ": " + T.Status + ": " + T.Why);
  }
  if (O.Json) {
    nlohmann::ordered_json J;
    J["tool"] = "dftracer-tune";
    J["name"] = O.Name;
    J["work_dir"] = Work;
    J["ledger"] = L->path();
    J["metric"] = O.Metric.Name;
    J["baseline"] = verdictJson(BaseV)["baseline"];
    J["trials"] = Trials;
    Out << J.dump(2) << "\n";
  } else {
    Out << O.Name << ": " << O.Replicates << " rounds, " << O.Metric.Description
        << " (" << O.Metric.Unit << ")\n";
    printTable(Out, Table);
    for (const std::string &W : Whys)
      Out << W << "\n";
    Out << "runs: " << Work << "\nledger: " << L->path() << "\n";
  }
  return Status;
}

} // namespace dfttune
