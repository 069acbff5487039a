//===- Configurations.cpp - Every build configuration of a file -----------===//
//
// A file is planned once per configuration: each compile command the
// database has for it (one source built into several targets, with other
// -D and -I), each alone and with each --variant's flags. Clang sees the
// active branch of every #if only, so each configuration plans the returns
// it compiles; merged, the edits cover every branch some configuration
// compiled. Identical edits are kept once, overlapping ones dropped with a
// warning, and of what must appear once (a function's START group, planned
// with another category, indent or place by another configuration) one is
// kept, as for a header included by several units (FileEdits::merge).
//
//===----------------------------------------------------------------------===//

#include "Paths.h"
#include "SkippedExits.h"
#include "annotate/Annotator.h"

#include "clang/Tooling/ArgumentsAdjusters.h"

#include <set>

namespace annotate {

std::vector<Configuration>
configurationsOf(const clang::tooling::CompilationDatabase &Database,
                 llvm::StringRef File, const AnnotateOptions &Options) {
  std::vector<clang::tooling::CompileCommand> Commands =
      Database.getCompileCommands(File);
  // The same flags in one directory are one configuration, whatever object
  // file or dependency file each command writes.
  auto StripOutput = clang::tooling::combineAdjusters(
      clang::tooling::getClangStripOutputAdjuster(),
      clang::tooling::getClangStripDependencyFileAdjuster());
  std::set<std::vector<std::string>> Seen;
  std::vector<clang::tooling::CompileCommand> Distinct;
  for (clang::tooling::CompileCommand &C : Commands) {
    std::vector<std::string> Key = StripOutput(C.CommandLine, File);
    Key.push_back(C.Directory);
    if (Seen.insert(std::move(Key)).second)
      Distinct.push_back(std::move(C));
  }
  std::vector<Configuration> Configs;
  for (size_t I = 0; I < Distinct.size(); ++I) {
    std::string Command = Distinct.size() > 1
                              ? "compile command " + std::to_string(I + 1) +
                                    " of " + std::to_string(Distinct.size())
                              : "";
    Configs.push_back({Distinct[I], {}, Command});
    for (const Variant &V : Options.Variants)
      Configs.push_back({Distinct[I], V.Flags,
                         (Command.empty() ? "" : Command + ", ") +
                             "--variant '" + V.Spelled + "'"});
  }
  return Configs;
}

TranslationUnitResult
mergeConfigurations(llvm::StringRef File,
                    std::vector<TranslationUnitResult> Results,
                    const std::vector<Configuration> &Configs) {
  TranslationUnitResult Merged;
  Merged.MainFile = realPath(File);
  Merged.MainFileName = absolutePath(File);
  if (Results.empty()) {
    Merged.Failed = true;
    Merged.FailureReason = "no compile command for it; left unchanged";
    return Merged;
  }
  Merged.MainFile = Results.front().MainFile;
  Merged.MainFileName = Results.front().MainFileName;
  Merged.Cxx = Results.front().Cxx;

  std::set<std::string> Printed;
  auto AddDiagnostic = [&](const Diagnostic &D) {
    if (Printed.insert(D.format()).second)
      Merged.Diagnostics.push_back(D);
  };
  std::map<std::tuple<std::string, unsigned, std::string>, size_t> Functions;
  for (size_t I = 0; I < Results.size(); ++I) {
    TranslationUnitResult &R = Results[I];
    for (const Diagnostic &D : R.Diagnostics)
      AddDiagnostic(D);
    for (const std::string &Flag : R.DroppedFlags)
      if (!llvm::is_contained(Merged.DroppedFlags, Flag))
        Merged.DroppedFlags.push_back(Flag);
    if (R.Failed && !Merged.Failed) {
      Merged.Failed = true;
      std::string Label = I < Configs.size() ? Configs[I].Label : "";
      Merged.FailureReason = Label.empty()
                                 ? R.FailureReason
                                 : "with " + Label + ": " + R.FailureReason;
      Merged.FirstError = R.FirstError;
      Merged.FailureHint = R.FailureHint;
    }
    // Each function once: annotated if any configuration annotated it
    // (--strip: kept if any kept it).
    for (FunctionRecord &F : R.Functions) {
      auto [It, Inserted] = Functions.try_emplace({F.File, F.Line, F.Name}, 0);
      if (Inserted) {
        It->second = Merged.Functions.size();
        Merged.Functions.push_back(std::move(F));
        continue;
      }
      FunctionRecord &Old = Merged.Functions[It->second];
      if (F.supersedes(Old))
        Old = std::move(F);
    }
    for (auto &[Path, F] : R.Files) {
      FileAnnotation &M = Merged.Files[Path];
      if (M.Path.empty()) {
        M.Path = F.Path;
        M.Name = F.Name;
        M.Original = F.Original;
      }
      M.Edits.append(F.Edits);
      M.Kept.insert(M.Kept.end(), F.Kept.begin(), F.Kept.end());
    }
  }
  if (Merged.Failed) {
    Merged.Files.clear();
    return Merged;
  }

  // What every configuration skipped, and the exits written there.
  for (const TranslationUnitResult &R : Results)
    for (const auto &[Path, Ranges] : R.Skipped) {
      auto [It, First] = Merged.Skipped.try_emplace(Path, Ranges);
      if (!First)
        It->second = intersectRanges(It->second, Ranges);
    }
  std::set<std::pair<std::string, unsigned>> Seen;
  for (TranslationUnitResult &R : Results)
    for (SkippedExit &E : R.SkippedExits)
      if (Seen.insert({E.Path, E.Offset}).second)
        Merged.SkippedExits.push_back(std::move(E));
  return Merged;
}

} // namespace annotate
