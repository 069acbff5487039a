//===- Compare.cpp - A baseline run against a changed run -----------------===//

#include "Compare.h"

#include "analyze/FileAnalyzer.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace dftanalyze {

namespace {

/// "small_posix" of ".../small_posix-0ba65c4e25273b46-app.pfw".
std::string programOf(const std::string &File) {
  size_t Slash = File.find_last_of('/');
  std::string P = File.substr(Slash == std::string::npos ? 0 : Slash + 1);
  return P.substr(0, P.find('-'));
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
  for (const std::string &File : A.FileNames)
    Programs.insert(programOf(File));
  F.Programs.assign(Programs.begin(), Programs.end());
  F.Ranks = R.Ranks.size();
  // Files of the run only: not MPI's shared-memory segments, /proc, or a
  // stat of "/" (which would make every path relative to "/").
  std::vector<std::string> Paths;
  for (const auto &[Path, S] : A.Files)
    if (Path.rfind("/dev/shm/", 0) != 0 && Path.rfind("/proc/", 0) != 0 &&
        Path != "/")
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
  return F;
}

Comparison compareRuns(const std::vector<RunFacts> &Before,
                       const std::vector<RunFacts> &After, double Tolerance) {
  Comparison C;
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
        C.Differences.push_back(Run.Name + ": files only here: " +
                                Join(Only, 3) + "; files only in " + Ref.Name +
                                ": " + Join(Missing, 3));
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
    C.Findings.push_back(Ch);
  }
  return C;
}

} // namespace dftanalyze
