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

std::string tuneLine(const std::vector<std::string> &Try) {
  std::string Value;
  for (const std::string &S : Try)
    Value += (Value.empty() ? "" : ";") + S;
  std::string Quoted = "'";
  for (char C : Value)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return "DFTRACER_TUNE=" + Quoted + "'";
}

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
  // Text with its {NAME} placeholders filled; Missing counts those that
  // name no variable (left as they are).
  auto Fill = [&](const std::string &Text, size_t &Missing) {
    std::string T;
    for (size_t I = 0; I < Text.size(); ++I) {
      size_t Close;
      if (Text[I] == '{' && (Close = Text.find('}', I)) != std::string::npos) {
        if (const std::string *V = Var(Text.substr(I + 1, Close - I - 1))) {
          T += *V;
          I = Close;
          continue;
        }
        ++Missing;
      }
      T += Text[I];
    }
    return T;
  };
  for (const Advice &Adv : Rule.Advices) {
    if (!Holds(Adv))
      continue;
    size_t Missing = 0;
    F.Advices.push_back(Fill(Adv.Text, Missing));
    // A setting with a placeholder the finding cannot fill is no setting;
    // one the trace shows in effect would change nothing.
    for (const std::string &Template : Adv.Try) {
      Missing = 0;
      std::string Setting = Fill(Template, Missing);
      if (!Missing && !inEffect(F, Setting) &&
          std::find(F.Try.begin(), F.Try.end(), Setting) == F.Try.end())
        F.Try.push_back(std::move(Setting));
    }
  }
}

bool Diagnoser::inEffect(const Finding &F, const std::string &Setting) const {
  size_t Eq = Setting.find('=');
  if (Eq == std::string::npos)
    return false;
  std::string Key = Setting.substr(0, Eq), Value = Setting.substr(Eq + 1);
  // The key's entry, or the longest prefix entry ("mpiio.") it starts with;
  // Rest: the key past that prefix (the hint's name).
  const TuneKey *T = nullptr;
  std::string Rest;
  if (auto It = Rules.TuneKeys.find(Key); It != Rules.TuneKeys.end()) {
    T = &It->second;
  } else {
    size_t Best = 0;
    for (const auto &[Name, K] : Rules.TuneKeys)
      if (Name.size() > Best && Name.back() == '.' &&
          Key.size() > Name.size() && Key.compare(0, Name.size(), Name) == 0) {
        Best = Name.size();
        T = &K;
        Rest = Key.substr(Best);
      }
  }
  if (!T)
    return false;
  // The finding's files; the trace's when it names none.
  std::vector<std::pair<const std::string *, const FileStat *>> Files;
  for (const FindingFile &File : F.Files)
    if (auto It = A.Files.find(File.Path); It != A.Files.end())
      Files.emplace_back(&It->first, &It->second);
  if (F.Files.empty())
    for (const auto &[Path, S] : A.Files)
      Files.emplace_back(&Path, &S);
  size_t Judged = 0;
  for (const auto &[Path, S] : Files) {
    std::string Now;
    if (T->Record == "MPIIO_HINTS") {
      auto H = S->MpiInfo.Hints.find(Rest);
      if (H == S->MpiInfo.Hints.end())
        continue;
      Now = mostCommon(H->second, "");
    } else if (T->Record == "HDF5_FILE") {
      bool All = true;
      for (const std::string &P : T->Properties) {
        auto H = S->Hdf5Props.find(P);
        if (H == S->Hdf5Props.end()) {
          All = false;
          break;
        }
        Now += (Now.empty() ? "" : ",") + mostCommon(H->second, "");
      }
      if (!All)
        continue;
    } else { // H5D_XFER: the transfers of the file's datasets
      uint64_t Coll = 0, Indep = 0;
      for (const auto &[DKey, D] : A.Datasets)
        if (DKey.first == *Path) {
          Coll += D.Collective;
          Indep += D.Independent;
        }
      if (!Coll && !Indep)
        continue;
      Now = !Indep ? "collective" : !Coll ? "independent" : "mixed";
    }
    ++Judged;
    if (Now != Value)
      return false;
  }
  return Judged > 0;
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
