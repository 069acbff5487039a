//===- Apply.cpp - The apply stage: answer, write, verify -----------------===//

#include "BatchStages.h"
#include "Paths.h"
#include "annotate/Output.h"
#include "annotate/Verify.h"

#include "llvm/Support/Path.h"

namespace annotate {

int explainFunctions(BatchState &S) {
  const BatchOptions &Options = S.Options;
  bool Seen = false;
  for (const auto &[Key, F] : S.Functions) {
    llvm::StringRef Name(F.Name);
    if (Name != Options.Explain && !Name.ends_with("::" + Options.Explain))
      continue;
    Seen = true;
    S.Out << relativeTo(F.File, Options.Root) << ":" << F.Line << ": " << F.Name
          << ": "
          << (F.Annotated ? std::string("annotated")
                          : "skipped: " + F.SkipReason)
          << (F.Detail.empty() ? "" : " (" + F.Detail + ")") << "\n";
  }
  if (!Seen)
    S.Out << Options.Explain << ": no definition in the files annotated\n";
  return S.Failed || !Seen ? 1 : 0;
}

/// Where the file at Path is written: itself (-i), or its place under the
/// output directory (-o); "" when it has none there (outside --root).
static std::string destination(const BatchOptions &Options,
                               const std::string &Path) {
  if (Options.Mode == OutputMode::InPlace)
    return Path;
  std::string Shown = relativeTo(Path, Options.Root);
  if (Shown == Path && llvm::sys::path::is_absolute(Path))
    return ""; // outside the root: nowhere to mirror it
  llvm::SmallString<256> Target(Options.OutputDir);
  llvm::sys::path::append(Target, Shown);
  return std::string(Target);
}

/// Writes Text as the new content of the file at Path (-i or -o).
static void write(BatchState &S, const std::string &Path,
                  llvm::StringRef Text) {
  std::string Target = destination(S.Options, Path);
  if (Target.empty()) {
    S.Err << Path << ": error: outside --root " << S.Options.Root
          << "; not written\n";
    S.WriteFailed = true;
    return;
  }
  if (llvm::Error E = writeFileAtomically(Target, Text)) {
    S.Err << Target << ": error: " << llvm::toString(std::move(E)) << "\n";
    S.WriteFailed = true;
  }
}

void writeOutcomes(BatchState &S) {
  for (auto &[Path, O] : S.Outcomes) {
    std::string Shown = relativeTo(Path, S.Options.Root);
    switch (S.Options.Mode) {
    case OutputMode::Stdout:
      if (O.IsMainFile)
        S.Out << O.NewText;
      break;
    case OutputMode::InPlace:
      if (O.Changed)
        write(S, Path, O.NewText);
      break;
    case OutputMode::OutputDir:
      write(S, Path, O.NewText);
      break;
    case OutputMode::Diff:
      if (O.Changed)
        S.Out << unifiedDiff(Shown, O.Original, O.Merged);
      break;
    case OutputMode::Check:
      if (O.Changed)
        S.Out << Shown << ": would be annotated\n";
      break;
    }
  }
}

/// Compiles the written form of R's main file with its first command.
static VerifyOutcome
compileUnit(const BatchState &S,
            const clang::tooling::CompilationDatabase &Database,
            const TranslationUnitResult &R) {
  auto Commands = Database.getCompileCommands(R.MainFile);
  if (Commands.empty())
    return {false, "no compile command"};
  return verifyCompiles(Commands.front(), destination(S.Options, R.MainFile),
                        R.MainFile, S.Options.Annotate.RuntimeIncludeDir);
}

void verifyUnits(BatchState &S,
                 const clang::tooling::CompilationDatabase &Database) {
  // Compile each unit that changed; put back the files of one that does
  // not compile.
  std::vector<size_t> Changed;
  for (size_t I = 0; I < S.Units.size(); ++I) {
    const TranslationUnitResult &R = S.Units[I];
    if (R.Failed)
      continue;
    for (const auto &[Path, F] : R.Files)
      if (S.Outcomes[Path].Changed) {
        Changed.push_back(I);
        break;
      }
  }
  std::vector<VerifyOutcome> Verdicts(Changed.size());
  parallelFor(Changed.size(), S.Options.Jobs, [&](size_t K) {
    Verdicts[K] = compileUnit(S, Database, S.Units[Changed[K]]);
  });
  for (size_t K = 0; K < Changed.size(); ++K) {
    if (Verdicts[K].Compiles)
      continue;
    const TranslationUnitResult &R = S.Units[Changed[K]];
    S.Err << R.MainFile
          << ": error: the annotated file does not compile; restored\n"
          << Verdicts[K].Message;
    // Restore the unit's own file first: a header it shares with other
    // units stays annotated unless the unit still fails without it.
    auto Restore = [&](const std::string &Path) {
      FileOutcome &O = S.Outcomes[Path];
      if (!O.Changed)
        return;
      write(S, Path, O.Original);
      O.Changed = false;
    };
    Restore(R.MainFile);
    if (!compileUnit(S, Database, R).Compiles)
      for (const auto &[Path, F] : R.Files) {
        if (Path != R.MainFile && S.Outcomes[Path].Changed)
          S.Err << Path << ": note: restored too: " << R.MainFile
                << " does not compile with it annotated\n";
        Restore(Path);
      }
    ++S.Failed;
    S.FailedVerify.insert(R.MainFile);
  }
}

} // namespace annotate
