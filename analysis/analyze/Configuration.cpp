//===- Configuration.cpp - The run's configuration, per program -----------===//

#include "Configuration.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace dftanalyze {

namespace {

/// The trace file name's program ("mpiio_shared" of
/// ".../mpiio_shared-3f2a...-app.pfw"), as Report labels ranks.
std::string filePrefix(const Aggregate &A, uint32_t FileIndex) {
  if (FileIndex >= A.FileNames.size())
    return "";
  return traceProgram(A.FileNames[FileIndex]);
}

std::string joined(const std::set<std::string> &Values) {
  std::string S;
  for (const std::string &V : Values)
    S += (S.empty() ? "" : " | ") + V;
  return S;
}

bool notInEffect(const TuningStat &T) {
  return T.Status == "ignored" || T.Status == "invalid";
}

} // namespace

std::string tuningText(const TuningStat &T) {
  if (T.Key.empty() || T.Requested.empty())
    return T.Setting.empty() ? T.Key : T.Setting;
  return T.Key + (T.Op == "default" ? "?=" : "=") + T.Requested;
}

std::string shellWords(const std::vector<std::string> &Argv) {
  std::string S;
  for (const std::string &W : Argv) {
    bool Plain =
        !W.empty() && W.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                          "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                          "-_./=:,+@%") == std::string::npos;
    if (!S.empty())
      S += ' ';
    if (Plain) {
      S += W;
      continue;
    }
    S += '\'';
    for (char C : W)
      S += C == '\'' ? std::string("'\\''") : std::string(1, C);
    S += '\'';
  }
  return S;
}

std::vector<ProgramConfig> programConfigs(const Report &R) {
  const Aggregate &A = R.A;
  bool Any =
      std::any_of(A.Processes.begin(), A.Processes.end(),
                  [](const ProcessStat &P) { return !P.Config.empty(); });
  if (!Any)
    return {};
  // Key: (no CONFIG, exe, argv, file prefix); processes in rank order.
  using Key =
      std::tuple<bool, std::string, std::vector<std::string>, std::string>;
  std::map<Key, std::vector<const RankFigures *>> Groups;
  for (const RankFigures &Rk : R.Ranks) {
    const ProcessConfig &C = Rk.P->Config;
    Groups[C.HasConfig ? Key{false, C.Exe, C.Argv, ""}
                       : Key{true, "", {}, filePrefix(A, Rk.P->FileIndex)}]
        .push_back(&Rk);
  }
  std::vector<ProgramConfig> Out;
  for (const auto &[K, Members] : Groups) {
    ProgramConfig G;
    G.HasConfig = !std::get<0>(K);
    G.Exe = std::get<1>(K);
    G.Argv = std::get<2>(K);
    G.Program = std::get<3>(K);
    if (G.HasConfig) // Report's name of it, when several are read together
      G.Program = Members.front()->Program;
    G.Processes = Members.size();
    std::set<std::string> Cwds, Hosts;
    std::map<std::string, std::set<std::string>> Env, Versions;
    std::map<std::string, size_t> EnvSeen;
    std::map<TuningStat, std::vector<std::string>> Tuning;
    for (const RankFigures *Rk : Members) {
      const ProcessStat &P = *Rk->P;
      const ProcessConfig &C = P.Config;
      if (!P.Host.empty())
        Hosts.insert(P.Host);
      if (C.HasJob)
        G.Ranks = std::max(G.Ranks, C.JobSize);
      for (const auto &[Lib, V] : C.Versions)
        Versions[Lib].insert(V);
      for (const TuningStat &T : C.Tuning) {
        std::vector<std::string> &Ranks = Tuning[T];
        if (Ranks.empty() || Ranks.back() != Rk->Label)
          Ranks.push_back(Rk->Label);
      }
      if (!C.HasConfig)
        continue;
      G.ArgvDropped = std::max(G.ArgvDropped, C.ArgvDropped);
      G.EnvDropped = std::max(G.EnvDropped, C.EnvDropped);
      Cwds.insert(C.Cwd);
      if (!C.Glibc.empty())
        Versions["glibc"].insert(C.Glibc);
      for (const auto &[Name, V] : C.Env) {
        Env[Name].insert(V);
        ++EnvSeen[Name];
      }
    }
    size_t WithConfig = 0;
    for (const RankFigures *Rk : Members)
      WithConfig += Rk->P->Config.HasConfig;
    G.Cwd = joined(Cwds);
    for (auto &[Name, Values] : Env) {
      if (EnvSeen[Name] < WithConfig)
        Values.insert(""); // some processes lack it
      if (Values.size() == 1)
        G.Env.emplace_back(Name, *Values.begin());
      else
        G.EnvVaries[Name].assign(Values.begin(), Values.end());
    }
    for (const auto &[Lib, Values] : Versions)
      G.Versions[Lib] = joined(Values);
    G.Nodes = Hosts.size();
    for (auto &[T, Ranks] : Tuning)
      G.Tuning.push_back({T, std::move(Ranks)});
    Out.push_back(std::move(G));
  }
  return Out;
}

uint64_t ProgramCoverage::notAnnotated() const {
  return std::max<uint64_t>(C->Failed + C->Excluded, C->Files.size());
}

std::vector<ProgramCoverage> programCoverage(const Report &R) {
  std::map<std::string, ProgramCoverage> ByName;
  for (const RankFigures &Rk : R.Ranks) {
    const CoverageStat &C = Rk.P->Config.Coverage;
    if (!C.Has)
      continue;
    ProgramCoverage &G = ByName[C.Program];
    if (!G.C)
      G.C = &C;
    G.Ranks.push_back(Rk.Label);
  }
  std::vector<ProgramCoverage> Out;
  for (auto &[Name, G] : ByName)
    Out.push_back(std::move(G));
  return Out;
}

std::vector<std::string> tuningCaveats(const Report &R) {
  // (source, setting, status, reason) -> paths, processes (rank order).
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::map<Key, std::pair<std::set<std::string>, std::vector<std::string>>>
      Groups;
  for (const RankFigures &Rk : R.Ranks)
    for (const TuningStat &T : Rk.P->Config.Tuning) {
      if (!notInEffect(T))
        continue;
      Key K{T.Source.empty() ? "DFTRACER_TUNE" : T.Source, tuningText(T),
            T.Status, T.Reason};
      auto &[Paths, Ranks] = Groups[K];
      if (!T.Path.empty())
        Paths.insert(T.Path);
      if (Ranks.empty() || Ranks.back() != Rk.Label)
        Ranks.push_back(Rk.Label);
    }
  std::vector<std::string> Out;
  for (const auto &[K, Where] : Groups) {
    const auto &[Source, Text, Status, Reason] = K;
    const auto &[Paths, Ranks] = Where;
    std::string S = Source + " " + Text + " was " + Status;
    if (Paths.size() == 1)
      S += " on " + *Paths.begin();
    else if (Paths.size() > 1)
      S += " on " + std::to_string(Paths.size()) + " files (" + *Paths.begin() +
           ", ...)";
    if (!Reason.empty())
      S += ": " + Reason;
    if (Ranks.size() > 1)
      S += " (" + std::to_string(Ranks.size()) + " processes)";
    Out.push_back(std::move(S));
  }
  return Out;
}

} // namespace dftanalyze
