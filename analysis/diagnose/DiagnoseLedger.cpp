//===- DiagnoseLedger.cpp - What the ledger knows about an advice ---------===//
//
// dftracer-analyze --diagnose --ledger FILE: each finding's "try" settings
// looked up among the trials dftracer-tune recorded (analysis/tune/Ledger.h
// reads them; this file only matches, so the analysis library needs no
// SQLite). A trial counts for a finding when it ran the same program, on
// the same file system types when both the ledger and the traces know
// them, and one of its DFTRACER_TUNE settings is one the advice proposes:
// the engineer sees "tried ..., slower, p = 0.008" before trying it again.
//
//===----------------------------------------------------------------------===//

#include "Diagnose.h"
#include "DiagnoseInternal.h"

#include "analyze/Configuration.h"

#include <cstdio>
#include <set>

namespace dftanalyze {

namespace {

std::string baseName(const std::string &Path) {
  size_t Slash = Path.find_last_of('/');
  return Slash == std::string::npos ? Path : Path.substr(Slash + 1);
}

/// The settings of a DFTRACER_TUNE trial ("DFTRACER_TUNE=a;b" -> {a, b}).
std::set<std::string> tuneSettings(const std::string &Setting) {
  std::set<std::string> Out;
  const std::string Prefix = "DFTRACER_TUNE=";
  if (Setting.rfind(Prefix, 0) != 0)
    return Out;
  std::string Rest = Setting.substr(Prefix.size());
  for (size_t At = 0; At <= Rest.size();) {
    size_t End = Rest.find(';', At);
    if (End == std::string::npos)
      End = Rest.size();
    if (End > At)
      Out.insert(Rest.substr(At, End - At));
    At = End + 1;
  }
  return Out;
}

} // namespace

std::set<std::string> runFileSystems(const Report &R) {
  std::set<std::string> Out;
  for (const auto &[Path, S] : R.A.Files)
    if (!S.Fs.Type.empty() && S.Fs.Type != "unknown" &&
        !diagnosis::Diagnoser::mpiSharedMemory(Path))
      Out.insert(S.Fs.Type);
  return Out;
}

void addLedgerTrials(std::vector<Finding> &Fs, const Report &R,
                     const std::vector<LedgerTrial> &Trials) {
  // The run's programs (executables' names; without CONFIG, the trace
  // names') and file system types, as dftracer-tune records them.
  std::set<std::string> Programs;
  for (const ProgramConfig &P : programConfigs(R))
    if (P.HasConfig && !P.Exe.empty())
      Programs.insert(baseName(P.Exe));
  if (Programs.empty())
    for (const RankFigures &Rk : R.Ranks)
      if (Rk.P->FileIndex < R.A.FileNames.size())
        Programs.insert(traceProgram(R.A.FileNames[Rk.P->FileIndex]));
  std::string FsTypes;
  for (const std::string &T : runFileSystems(R))
    FsTypes += (FsTypes.empty() ? "" : ",") + T;
  for (Finding &F : Fs) {
    F.LedgerRead = true;
    std::set<std::string> Try(F.Try.begin(), F.Try.end());
    for (const LedgerTrial &T : Trials) {
      if (!Programs.count(baseName(T.Program)))
        continue;
      if (!T.FsTypes.empty() && !FsTypes.empty() && T.FsTypes != FsTypes)
        continue;
      bool Tried = false;
      for (const std::string &S : tuneSettings(T.Setting))
        Tried = Tried || Try.count(S);
      if (Tried)
        F.Ledger.push_back(T);
    }
  }
}

std::string ledgerTrialText(const LedgerTrial &T) {
  std::string Setting = T.Setting.rfind("DFTRACER_TUNE=", 0) == 0
                            ? T.Setting.substr(14)
                            : T.Setting;
  std::string S = Setting + " tried " + T.Date.substr(0, 10) + " (#" +
                  std::to_string(T.Id) + ")";
  if (T.Ranks)
    S += ", " + std::to_string(T.Ranks) + (T.Ranks == 1 ? " rank" : " ranks");
  S += ", " + (T.FsTypes.empty() ? std::string("file system unknown")
                                 : T.FsTypes);
  S += ": ";
  char Buf[64];
  if (T.Status == "failed") {
    S += "failed";
    if (!T.Failure.empty())
      S += " (" + T.Failure + ")";
    return S;
  }
  if (T.HasStats) {
    std::snprintf(Buf, sizeof(Buf), "%+.1f%%, ", T.ChangePercent);
    S += Buf;
  }
  S += T.Status;
  if (T.HasStats) {
    std::snprintf(Buf, sizeof(Buf), ", p = %.3g", T.P);
    S += Buf;
  }
  return S;
}

} // namespace dftanalyze
