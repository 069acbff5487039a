//===- DiagnoseAdvice.cpp - What to change: the rule file's advice --------===//
//
// A rule's advice texts hold when their "when" conditions do (the file
// system, the layer called, MPI-IO or HDF5 in the trace, an MPI-IO hint's
// recorded value, a flag the detector sets); {NAME} placeholders are the
// finding's variables (docs/diagnosis.md, "Advice").
//
//===----------------------------------------------------------------------===//

#include "DiagnoseInternal.h"

#include <algorithm>

namespace dftanalyze {
namespace diagnosis {

/// Advice whose conditions hold, with the placeholders filled in.
void Diagnoser::advise(const DiagnosisRule &Rule, Finding &F,
                       std::map<std::string, std::string> Vars) {
  std::vector<std::string> Fs;
  for (const FindingFile &File : F.Files)
    Fs.push_back(File.FsType);
  if (Fs.empty())
    Fs.push_back("unknown");
  std::string TopLayer;
  if (!F.Sites.empty()) {
    auto It = A.Diag.Sites.find({F.Sites[0].Function, F.Sites[0].Chain});
    if (It != A.Diag.Sites.end())
      TopLayer = dftrace::layerName(static_cast<Layer>(It->second.TopLayer));
  }
  if (!F.Sites.empty()) {
    Vars.emplace("function", F.Sites[0].Function);
    Vars.emplace("chain", F.Sites[0].Function + " > " + F.Sites[0].Chain);
  }
  if (!F.Files.empty()) {
    Vars.emplace("file", F.Files[0].Path);
    Vars.emplace("fs_type", F.Files[0].FsType);
  }
  Vars.emplace("small_bytes", std::to_string(Rules.SmallBytes));
  // A variable: Vars's, or "hint:NAME", the MPI-IO hint's value recorded
  // on the finding's files (MPIIO_HINTS records).
  auto Var = [&](const std::string &Name) -> const std::string * {
    auto V = Vars.find(Name);
    if (V == Vars.end() && Name.rfind("hint:", 0) == 0)
      V = Vars.emplace(Name, recordedHint(F, Name.substr(5))).first;
    return V == Vars.end() ? nullptr : &V->second;
  };
  auto Holds = [&](const Advice &Adv) {
    for (const auto &[Cond, List] : Adv.When) {
      // A lambda may not capture a structured binding in C++17 (clang
      // warns): a reference to the list.
      const std::vector<std::string> &Values = List;
      auto Any = [&](const std::string &V) {
        return std::find(Values.begin(), Values.end(), V) != Values.end();
      };
      if (Cond == "fs_type" && std::none_of(Fs.begin(), Fs.end(), Any))
        return false;
      if (Cond == "fs_type_not" && std::any_of(Fs.begin(), Fs.end(), Any))
        return false;
      if (Cond == "layer" && !Any(TopLayer))
        return false;
      if (Cond == "mpiio" && !Any(MpiIo ? "true" : "false"))
        return false;
      if (Cond == "hdf5" && !Any(Hdf5 ? "true" : "false"))
        return false;
      // Any other key is the finding's own variable (hint:NAME, or a
      // flag the rule sets, e.g. hdf5_unaligned's "metadata").
      if (Cond != "fs_type" && Cond != "fs_type_not" && Cond != "layer" &&
          Cond != "mpiio" && Cond != "hdf5") {
        const std::string *V = Var(Cond);
        if (!V || !Any(*V))
          return false;
      }
    }
    return true;
  };
  for (const Advice &Adv : Rule.Advices) {
    if (!Holds(Adv))
      continue;
    std::string T;
    for (size_t I = 0; I < Adv.Text.size(); ++I) {
      size_t Close;
      if (Adv.Text[I] == '{' &&
          (Close = Adv.Text.find('}', I)) != std::string::npos) {
        if (const std::string *V = Var(Adv.Text.substr(I + 1, Close - I - 1))) {
          T += *V;
          I = Close;
          continue;
        }
      }
      T += Adv.Text[I];
    }
    F.Advices.push_back(std::move(T));
  }
}

/// The most common value of MPI-IO hint Name recorded (MPIIO_HINTS) on
/// the finding's files, "unrecorded" when none has it.
std::string Diagnoser::recordedHint(const Finding &F,
                                    const std::string &Name) const {
  std::map<std::string, uint64_t> Opens;
  for (const FindingFile &File : F.Files) {
    auto It = A.Files.find(File.Path);
    if (It == A.Files.end())
      continue;
    auto H = It->second.MpiInfo.Hints.find(Name);
    if (H != It->second.MpiInfo.Hints.end())
      for (const auto &[Value, N] : H->second)
        Opens[Value] += N;
  }
  return mostCommon(Opens, "unrecorded");
}

/// The value with the largest count (the smallest among equals).
std::string Diagnoser::mostCommon(const std::map<std::string, uint64_t> &Counts,
                                  const std::string &None) {
  const std::string *Best = nullptr;
  uint64_t Most = 0;
  for (const auto &[Value, N] : Counts)
    if (N > Most) {
      Most = N;
      Best = &Value;
    }
  return Best ? *Best : None;
}

} // namespace diagnosis
} // namespace dftanalyze
