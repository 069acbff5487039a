//===- Compare.cpp - A baseline run against a changed run -----------------===//

#include "Compare.h"
#include "DiagnoseInternal.h"

#include "analyze/Configuration.h"
#include "analyze/FileAnalyzer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

namespace dftanalyze {

namespace {

/// A process's program as the report names programs (analyze/Report.cpp),
/// without the "#N" of launches with other arguments (a --try-args
/// candidate changes the arguments, not the program): CONFIG's executable
/// name, else the trace file name's (traceProgram: "my-run" and "my-test"
/// are two programs).
std::string programOf(const Aggregate &A, const ProcessStat &P) {
  const ProcessConfig &C = P.Config;
  std::string Exe = C.HasConfig ? C.Exe : std::string();
  if (C.HasConfig && Exe.empty() && !C.Argv.empty())
    Exe = C.Argv[0];
  if (!Exe.empty())
    return Exe.substr(Exe.find_last_of('/') == std::string::npos
                          ? 0
                          : Exe.find_last_of('/') + 1);
  return P.FileIndex < A.FileNames.size()
             ? traceProgram(A.FileNames[P.FileIndex])
             : std::string();
}

/// Paths relative to the longest directory all of them share: the run
/// directory, which differs between runs.
std::map<std::string, std::string>
runRelative(const std::vector<std::string> &Paths) {
  std::string Common;
  for (size_t I = 0; I < Paths.size(); ++I) {
    std::string Dir = Paths[I].substr(0, Paths[I].find_last_of('/') + 1);
    if (I == 0) {
      Common = Dir;
      continue;
    }
    while (!Common.empty() && Dir.compare(0, Common.size(), Common) != 0) {
      Common.pop_back(); // the '/'
      Common = Common.substr(0, Common.find_last_of('/') + 1);
    }
  }
  std::map<std::string, std::string> Out;
  for (const std::string &P : Paths)
    Out[P] = P.substr(Common.size());
  return Out;
}

Spread spread(const std::vector<double> &V) {
  Spread S;
  if (V.empty())
    return S;
  S.Min = *std::min_element(V.begin(), V.end());
  S.Max = *std::max_element(V.begin(), V.end());
  double Sum = 0;
  for (double X : V)
    Sum += X;
  S.Mean = Sum / V.size();
  return S;
}

/// "v" for one value, "v1 (2), v2 (1)" for several (value: opens).
std::string propText(const std::map<std::string, uint64_t> &Values) {
  if (Values.size() == 1)
    return Values.begin()->first;
  std::string S;
  for (const auto &[V, N] : Values)
    S += (S.empty() ? "" : ", ") + V + " (" + std::to_string(N) + ")";
  return S;
}

/// S with every Dir replaced by Name (Dir without its final '/').
std::string replaced(std::string S, std::string Dir, const std::string &Name) {
  while (Dir.size() > 1 && Dir.back() == '/')
    Dir.pop_back();
  // Only a directory of 2 levels or more: "/" or "/tmp" would mangle
  // unrelated paths.
  if (std::count(Dir.begin(), Dir.end(), '/') < 2)
    return S;
  for (size_t At = S.find(Dir); At != std::string::npos;
       At = S.find(Dir, At + Name.size()))
    S.replace(At, Dir.size(), Name);
  return S;
}

/// The run's configuration (RunFacts::Config).
void configOf(const Report &R, const std::map<std::string, std::string> &Rel,
              const std::string &DataDir, RunFacts &F) {
  const Aggregate &A = R.A;
  std::string TraceDir;
  for (const std::string &File : A.FileNames) {
    std::string D = File.substr(0, File.find_last_of('/') + 1);
    TraceDir = TraceDir.empty() || TraceDir == D ? D : "/";
  }
  auto Norm = [&](std::string V) {
    V = replaced(std::move(V), TraceDir, "{traces}");
    return replaced(std::move(V), DataDir, "{run}");
  };
  auto Set = [&](const char *Scope, const std::string &Key,
                 const std::string &Value) {
    F.Config[{Scope, Key}] = Norm(Value);
  };
  std::vector<ProgramConfig> Programs = programConfigs(R);
  for (const ProgramConfig &P : Programs) {
    std::string Pre = Programs.size() > 1 ? P.Program + " " : "";
    for (size_t I = 0; I < P.Argv.size(); ++I)
      Set("command", Pre + "argv[" + std::to_string(I) + "]", P.Argv[I]);
    if (P.Ranks)
      Set("job", Pre + "ranks", std::to_string(P.Ranks));
    if (P.Nodes)
      Set("job", Pre + "nodes", std::to_string(P.Nodes));
    Set("job", Pre + "processes", std::to_string(P.Processes));
    for (const auto &[K, V] : P.Env)
      Set("env", Pre + K, V);
    for (const auto &[Lib, V] : P.Versions)
      Set("version", Pre + Lib, V);
    for (const TuningRow &T : P.Tuning) {
      auto It = Rel.find(T.T.Path);
      std::string On = T.T.Path.empty()
                           ? ""
                           : " on " + (It != Rel.end() ? It->second : T.T.Path);
      Set("tuning", Pre + T.T.Source + " " + T.T.Key + On,
          T.T.Requested + ": " + T.T.Status);
    }
  }
  for (const auto &[Path, S] : A.Files) {
    auto It = Rel.find(Path);
    if (It == Rel.end())
      continue;
    const std::string &File = It->second;
    if (!S.Fs.Type.empty())
      Set("file", File + " fs", S.Fs.Type);
    if (S.Fs.StripeCount || S.Fs.StripeSize)
      Set("file", File + " stripe",
          std::to_string(S.Fs.StripeCount) + " x " +
              std::to_string(S.Fs.StripeSize));
    for (const auto &[K, Values] : S.MpiInfo.Hints)
      Set("file", File + " hint " + K, propText(Values));
    for (const auto &[K, Values] : S.Hdf5Props)
      Set("file", File + " hdf5 " + K, propText(Values));
    IoTotals T = S.reached();
    Set("measured", "bytes " + File, std::to_string(T.bytes()));
  }
  for (const auto &[Key, D] : A.Datasets) {
    auto It = Rel.find(Key.first);
    if (It == Rel.end())
      continue;
    std::string Name = It->second + ":" + Key.second;
    for (const auto &[K, Values] : D.Props)
      if (K != "dims")
        Set("dataset", Name + " " + K, propText(Values));
    if (D.Collective || D.Independent)
      Set("dataset", Name + " xfer",
          D.Collective && D.Independent
              ? "collective " + std::to_string(D.Collective) +
                    ", independent " + std::to_string(D.Independent)
          : D.Collective ? "collective"
                         : "independent");
  }
  for (const LayerFigures &L : R.Layers) {
    if (!dftrace::isIoLayer(L.L))
      continue;
    for (int W = 0; W < 2; ++W) {
      const uint64_t *Bins = W ? L.S->WriteBins : L.S->ReadBins;
      std::string Text;
      for (size_t B = 0; B < NumSizeBins; ++B)
        if (Bins[B])
          Text += (Text.empty() ? "" : ", ") +
                  std::string(dftrace::sizeBinName(B)) + ": " +
                  std::to_string(Bins[B]);
      if (!Text.empty())
        Set("measured",
            std::string(dftrace::layerName(L.L)) + (W ? " write" : " read") +
                " sizes",
            Text);
    }
    // The transfer modes MPI-IO data calls used (independent, collective,
    // non-blocking, split): a switch to collective I/O is a change of them.
    std::string Kinds;
    for (size_t K = 0; K < NumMpiKinds; ++K)
      if (uint64_t Ops = L.S->Mpi.Kinds[K].Ops)
        Kinds += (Kinds.empty() ? "" : ", ") +
                 std::string(dftrace::mpiKindName(static_cast<MpiKind>(K))) +
                 " " + std::to_string(Ops);
    if (!Kinds.empty())
      Set("measured", std::string(dftrace::layerName(L.L)) + " transfers",
          Kinds);
  }
}

std::string findingKey(const Finding &F) {
  return F.Kind + "\n" + (F.Sites.empty() ? "" : F.Sites[0].Function);
}

} // namespace

RunFacts runFacts(const std::string &Name, const Report &R,
                  std::vector<Finding> Findings) {
  const Aggregate &A = R.A;
  RunFacts F;
  F.Name = Name;
  std::set<std::string> Programs;
  for (const ProcessStat &P : A.Processes)
    Programs.insert(programOf(A, P));
  F.Programs.assign(Programs.begin(), Programs.end());
  F.Ranks = R.Ranks.size();
  // Files of the run only: not MPI's shared-memory segments (data staged
  // in /dev/shm is the run's), /proc, or a stat of "/" (which would make
  // every path relative to "/").
  std::vector<std::string> Paths;
  for (const auto &[Path, S] : A.Files)
    if (!diagnosis::Diagnoser::mpiSharedMemory(Path) &&
        Path.rfind("/proc/", 0) != 0 && Path != "/")
      Paths.push_back(Path);
  std::map<std::string, std::string> Rel = runRelative(Paths);
  for (const auto &[Path, S] : A.Files) {
    auto It = Rel.find(Path);
    if (It == Rel.end())
      continue;
    F.Files.push_back(It->second);
    IoTotals T = S.reached();
    F.Rows["file"][It->second] = {T.Ops, T.bytes(), T.TimeUs};
  }
  std::sort(F.Files.begin(), F.Files.end());
  std::string DataDir;
  if (!Rel.empty()) {
    const auto &[Path, Relative] = *Rel.begin();
    DataDir = Path.substr(0, Path.size() - Relative.size());
  }
  configOf(R, Rel, DataDir, F);
  for (const LayerFigures &L : R.Layers) {
    if (!dftrace::isIoLayer(L.L))
      continue;
    const IoTotals &T = L.S->Totals;
    F.Rows["layer"][dftrace::layerName(L.L)] = {T.Ops, T.bytes(), T.TimeUs};
    for (size_t O = 0; O < NumOps; ++O)
      if (L.S->ByOp[O].Ops)
        F.Rows["operation"][std::string(dftrace::layerName(L.L)) + " " +
                            dftrace::opName(static_cast<Op>(O))] = {
            L.S->ByOp[O].Ops, L.S->ByOp[O].Bytes, L.S->ByOp[O].TimeUs};
  }
  for (const FunctionFigures &Fn : R.Functions) {
    IoTotals T = Fn.S->Inclusive.reached();
    if (T.Ops)
      F.Rows["function"][Fn.Name] = {T.Ops, T.bytes(), T.TimeUs};
  }
  F.Findings = std::move(Findings);
  // The run metrics (RunMetric).
  double IoSeconds = R.Slowest ? R.Slowest->P->IoUnionUs / 1e6 : 0;
  int64_t WallUs = 0;
  for (const ProcessStat &P : A.Processes)
    WallUs = std::max(WallUs, P.wallUs());
  F.Metrics["io"] = IoSeconds;
  F.Metrics["wall"] = WallUs / 1e6;
  F.Metrics["bandwidth"] =
      R.Slowest
          ? mebibytesPerSecond(A.Io.reached().bytes(), R.Slowest->P->IoUnionUs)
          : 0;
  for (const FunctionFigures &Fn : R.Functions)
    F.Metrics["function:" + Fn.Name] = Fn.S->TimeUs / 1e6;
  return F;
}

bool parseRunMetric(const std::string &Name, RunMetric &M, std::string &Error) {
  M = RunMetric();
  M.Name = Name;
  if (Name == "io")
    return true;
  if (Name == "wall") {
    M.Description = "longest process's wall time";
    return true;
  }
  if (Name == "bandwidth") {
    M.Unit = "MiB/s";
    M.Description = "bytes per second at the files";
    M.Better = dftstats::Direction::HigherIsBetter;
    return true;
  }
  if (Name.rfind("function:", 0) == 0 && Name.size() > 9) {
    M.Description = "time in " + Name.substr(9);
    return true;
  }
  Error = "--metric must be io, wall, bandwidth or function:NAME, not '" +
          Name + "'";
  return false;
}

std::string runPhrase(const std::string &Status) {
  if (Status == "faster")
    return "run faster";
  if (Status == "slower")
    return "run slower";
  if (Status == "no detectable change")
    return "run no faster";
  return "run: cannot decide";
}

std::vector<ConfigChange> configChanges(const std::vector<RunFacts> &Before,
                                        const std::vector<RunFacts> &After) {
  std::vector<ConfigChange> Out;
  if (Before.empty() || After.empty())
    return Out;
  using Key = std::pair<std::string, std::string>;
  auto Varies = [](const std::vector<RunFacts> &Side, const Key &K) {
    const std::string *First = nullptr;
    std::string None;
    for (const RunFacts &Run : Side) {
      auto It = Run.Config.find(K);
      const std::string &V = It == Run.Config.end() ? None : It->second;
      if (First && *First != V)
        return true;
      First = &V;
    }
    return false;
  };
  std::set<Key> Keys;
  for (const auto *Run : {&Before.front(), &After.front()})
    for (const auto &[K, V] : Run->Config)
      Keys.insert(K);
  const char *Order[] = {"tuning",  "env",  "command", "job",
                         "version", "file", "dataset", "measured"};
  for (const char *Scope : Order)
    for (const Key &K : Keys) {
      if (K.first != Scope || Varies(Before, K) || Varies(After, K))
        continue;
      auto B = Before.front().Config.find(K), A = After.front().Config.find(K);
      std::string VB = B == Before.front().Config.end() ? "" : B->second;
      std::string VA = A == After.front().Config.end() ? "" : A->second;
      if (VB != VA)
        Out.push_back({K.first, K.second, VB, VA});
    }
  return Out;
}

std::string changedLine(const std::vector<ConfigChange> &Changes) {
  if (Changes.empty())
    return "changed: nothing in the configuration the traces record";
  std::string S = "changed: ";
  size_t Shown = 0;
  for (const ConfigChange &C : Changes) {
    if (Shown == 4) {
      S += ", ... (" + std::to_string(Changes.size()) + " in all)";
      break;
    }
    S += (Shown ? ", " : "") + C.Key + " " +
         (C.Before.empty() ? "(none)" : C.Before) + " -> " +
         (C.After.empty() ? "(none)" : C.After);
    ++Shown;
  }
  return S;
}

RunVerdict runVerdict(const std::vector<RunFacts> &Before,
                      const std::vector<RunFacts> &After,
                      const RunMetric &Metric) {
  RunVerdict V;
  V.Metric = Metric;
  const std::vector<RunFacts> *Sides[2] = {&Before, &After};
  for (int I = 0; I < 2; ++I)
    for (const RunFacts &Run : *Sides[I]) {
      auto It = Run.Metrics.find(Metric.Name);
      if (It != Run.Metrics.end())
        V.Values[I].push_back(It->second);
    }
  V.V = dftstats::decide(V.Values[0], V.Values[1], Metric.Better);
  return V;
}

Comparison compareRuns(const std::vector<RunFacts> &Before,
                       const std::vector<RunFacts> &After, double Tolerance,
                       const RunMetric &Metric) {
  Comparison C;
  C.Verdict = runVerdict(Before, After, Metric);
  C.Changes = configChanges(Before, After);
  C.ChangedLine = changedLine(C.Changes);
  C.Runs[0] = Before.size();
  C.Runs[1] = After.size();
  const std::vector<RunFacts> *Sides[2] = {&Before, &After};

  // Comparable: every run against the first baseline run.
  const RunFacts &Ref = Before.front();
  auto Join = [](const std::vector<std::string> &V, size_t Max) {
    std::string S;
    for (size_t I = 0; I < V.size() && I < Max; ++I)
      S += (I ? ", " : "") + V[I];
    if (V.size() > Max)
      S += ", ... (" + std::to_string(V.size()) + ")";
    return S.empty() ? std::string("none") : S;
  };
  for (const std::vector<RunFacts> *Side : Sides)
    for (const RunFacts &Run : *Side) {
      if (&Run == &Ref)
        continue;
      if (Run.Programs != Ref.Programs)
        C.Differences.push_back(Run.Name + ": programs " +
                                Join(Run.Programs, 5) + " against " +
                                Join(Ref.Programs, 5) + " in " + Ref.Name);
      if (Run.Ranks != Ref.Ranks)
        C.Differences.push_back(Run.Name + ": " + std::to_string(Run.Ranks) +
                                " ranks against " + std::to_string(Ref.Ranks) +
                                " in " + Ref.Name);
      if (Run.Files != Ref.Files) {
        std::vector<std::string> Only, Missing;
        std::set_difference(Run.Files.begin(), Run.Files.end(),
                            Ref.Files.begin(), Ref.Files.end(),
                            std::back_inserter(Only));
        std::set_difference(Ref.Files.begin(), Ref.Files.end(),
                            Run.Files.begin(), Run.Files.end(),
                            std::back_inserter(Missing));
        C.Differences.push_back(
            Run.Name + ": files only here: " + Join(Only, 3) +
            "; files only in " + Ref.Name + ": " + Join(Missing, 3));
      }
    }
  C.Comparable = C.Differences.empty();

  // Rows: every (scope, name) of any run; absent counts as zero.
  std::set<std::pair<std::string, std::string>> Keys;
  for (const std::vector<RunFacts> *Side : Sides)
    for (const RunFacts &Run : *Side)
      for (const auto &[Scope, Names] : Run.Rows)
        for (const auto &[Name, Fig] : Names)
          Keys.insert({Scope, Name});
  const char *Order[] = {"layer", "operation", "file", "function"};
  for (const char *Scope : Order)
    for (const auto &[S, Name] : Keys) {
      if (S != Scope)
        continue;
      CompareRow Row;
      Row.Scope = S;
      Row.Name = Name;
      for (int I = 0; I < 2; ++I) {
        std::vector<double> Ops, Bytes, Secs, Bw;
        for (const RunFacts &Run : *Sides[I]) {
          Figures Fig;
          auto Sc = Run.Rows.find(S);
          if (Sc != Run.Rows.end()) {
            auto It = Sc->second.find(Name);
            if (It != Sc->second.end())
              Fig = It->second;
          }
          Ops.push_back(double(Fig.Ops));
          Bytes.push_back(double(Fig.Bytes));
          Secs.push_back(Fig.TimeUs / 1e6);
          Bw.push_back(mebibytesPerSecond(Fig.Bytes, Fig.TimeUs));
        }
        Row.Ops[I] = spread(Ops);
        Row.Bytes[I] = spread(Bytes);
        Row.Seconds[I] = spread(Secs);
        Row.MiBs[I] = spread(Bw);
      }
      C.Rows.push_back(std::move(Row));
    }

  // Findings by kind and first site's function.
  std::map<std::string, FindingChange> Changes;
  for (int I = 0; I < 2; ++I) {
    for (const RunFacts &Run : *Sides[I])
      for (const Finding &F : Run.Findings) {
        FindingChange &Ch = Changes[findingKey(F)];
        Ch.Kind = F.Kind;
        Ch.Function = F.Sites.empty() ? "" : F.Sites[0].Function;
        if (Ch.Summary[I].empty())
          Ch.Summary[I] = F.Summary;
      }
  }
  for (auto &[Key, Ch] : Changes) {
    bool Present[2] = {false, false};
    for (int I = 0; I < 2; ++I) {
      std::vector<double> Secs, Rec;
      for (const RunFacts &Run : *Sides[I]) {
        double S = 0, R = 0;
        for (const Finding &F : Run.Findings)
          if (findingKey(F) == Key) {
            S = F.TimeUs / 1e6;
            R = F.RecoverableUs / 1e6;
            Present[I] = true;
            break;
          }
        Secs.push_back(S);
        Rec.push_back(R);
      }
      Ch.Seconds[I] = spread(Secs);
      Ch.Recoverable[I] = spread(Rec);
    }
    double Before = Ch.Seconds[0].Mean, After = Ch.Seconds[1].Mean;
    // The noise band: the replicates' spread, else the tolerance.
    double Band = std::max(Ch.Seconds[0].Max - Ch.Seconds[0].Min,
                           Ch.Seconds[1].Max - Ch.Seconds[1].Min);
    if (C.Runs[0] < 2 && C.Runs[1] < 2)
      Band = Tolerance * std::max(Before, After);
    if (!Present[1])
      Ch.Status = "fixed";
    else if (!Present[0])
      Ch.Status = "new";
    else if (After < Before - Band)
      Ch.Status = "improved";
    else if (After > Before + Band)
      Ch.Status = "regressed";
    else
      Ch.Status = "unchanged";
    Ch.Run = runPhrase(C.Verdict.V.Status);
    // Where the time went: a finding that went away (or shrank) in a run
    // that is not faster; the operation whose time grew most, if it grew by
    // at least half of what the finding lost.
    double Lost = Ch.Seconds[0].Mean - Ch.Seconds[1].Mean;
    if ((Ch.Status == "fixed" || Ch.Status == "improved") && Lost > 0 &&
        C.Verdict.V.Status != "faster") {
      const CompareRow *Grew = nullptr;
      for (const CompareRow &Row : C.Rows)
        if (Row.Scope == "operation" &&
            (!Grew || Row.Seconds[1].Mean - Row.Seconds[0].Mean >
                          Grew->Seconds[1].Mean - Grew->Seconds[0].Mean))
          Grew = &Row;
      double Gain = Grew ? Grew->Seconds[1].Mean - Grew->Seconds[0].Mean : 0;
      if (Grew && Gain >= Lost / 2) {
        char Buf[64];
        std::snprintf(Buf, sizeof(Buf), " +%.6f s", Gain);
        Ch.MovedTo = Grew->Name + Buf;
      }
    }
    C.Findings.push_back(Ch);
  }
  return C;
}

} // namespace dftanalyze
