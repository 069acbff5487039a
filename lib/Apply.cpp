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

/// Where the file at Path (a real path) is written: itself (-i), or its
/// place under the output directory (-o). Nothing is written outside the
/// real --root (in place) or the real --output-dir, whatever symbolic links
/// say: otherwise Refusal holds the error line.
struct Destination {
  std::string Target;
  std::string Refusal;
};

static Destination destination(const BatchState &S, const std::string &Path) {
  const BatchOptions &Options = S.Options;
  auto It = S.Outcomes.find(Path);
  llvm::StringRef Name = It != S.Outcomes.end() && !It->second.Name.empty()
                             ? It->second.Name
                             : Path;
  if (!isUnder(Path, S.RealRoot)) {
    if (Name != Path)
      return {"", Name.str() + ": error: resolves outside --root (symlink to " +
                      Path + "); not written"};
    return {"",
            Path + ": error: outside --root " + Options.Root + "; not written"};
  }
  if (Options.Mode == OutputMode::InPlace)
    return {Path, ""}; // a link to Path, under the root, stays a link
  llvm::SmallString<256> Target(Options.OutputDir);
  llvm::sys::path::append(Target, relativeTo(Path, S.RealRoot));
  // A directory on the way that is a link out of the output directory
  // would take the file elsewhere; a link at Target itself is replaced by
  // the rename, never written through.
  llvm::SmallString<256> Real(
      realPathToCreate(llvm::sys::path::parent_path(Target)));
  if (Real.empty() || !isUnder(Real, S.RealOutputDir)) {
    llvm::sys::path::append(Real, llvm::sys::path::filename(Target));
    return {"", std::string(Target) +
                    ": error: resolves outside --output-dir (symlink to " +
                    std::string(Real) + "); not written"};
  }
  return {std::string(Target), ""};
}

/// Writes Text as the new content of the file at Path (-i or -o). False,
/// with the error printed and kept for the report, when nothing was
/// written.
static bool write(BatchState &S, const std::string &Path,
                  llvm::StringRef Text) {
  Destination D = destination(S, Path);
  std::string Error = D.Refusal;
  if (Error.empty())
    if (llvm::Error E = writeFileAtomically(D.Target, Text))
      Error = D.Target + ": error: " + llvm::toString(std::move(E));
  if (Error.empty())
    return true;
  S.Err << Error << "\n";
  S.WriteFailed = true;
  S.WriteErrors[Path] = Error;
  return false;
}

/// Writes the new text of the file at Path; a file that could not be
/// written has not changed, and a main file so is a failed one.
static void writeNewText(BatchState &S, const std::string &Path,
                         FileOutcome &O) {
  if (write(S, Path, O.NewText))
    return;
  O.Changed = false;
  S.Failed += O.IsMainFile;
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
        writeNewText(S, Path, O);
      break;
    case OutputMode::OutputDir:
      writeNewText(S, Path, O);
      break;
    case OutputMode::Diff:
      if (O.Changed)
        S.Out << unifiedDiff(Shown, O.Original, O.Merged);
      break;
    case OutputMode::Check:
      if (O.Changed)
        S.Out << Shown
              << (S.Options.Annotate.Strip ? ": would be stripped\n"
                                           : ": would be annotated\n");
      break;
    }
  }
}

/// Compiles the written form of R's main file in each of its
/// configurations (each compile command, with each --variant); the first
/// failure, named.
static VerifyOutcome
compileUnit(const BatchState &S,
            const clang::tooling::CompilationDatabase &Database,
            const TranslationUnitResult &R) {
  Destination D = destination(S, R.MainFile);
  if (!D.Refusal.empty())
    return {false, D.Refusal + "\n"};
  std::vector<Configuration> Configs =
      configurationsOf(Database, R.MainFile, S.Options.Annotate);
  if (Configs.empty())
    return {false, "no compile command"};
  for (const Configuration &C : Configs) {
    clang::tooling::CompileCommand Command = C.Command;
    Command.CommandLine.insert(Command.CommandLine.end(), C.ExtraFlags.begin(),
                               C.ExtraFlags.end());
    VerifyOutcome V = verifyCompiles(Command, D.Target, R.MainFile,
                                     S.Options.Annotate.RuntimeIncludeDir);
    if (!V.Compiles) {
      if (!C.Label.empty())
        V.Message = "with " + C.Label + ":\n" + V.Message;
      return V;
    }
  }
  return {true, ""};
}

void verifyUnits(BatchState &S,
                 const clang::tooling::CompilationDatabase &Database) {
  // Compile each unit that changed; put back the files of one that does
  // not compile.
  std::vector<size_t> Changed;
  for (size_t I = 0; I < S.Units.size(); ++I) {
    const TranslationUnitResult &R = S.Units[I];
    if (R.Failed || S.WriteErrors.count(R.MainFile))
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
          << ": error: the " << resultOf(S.Options)
          << " file does not compile; restored\n"
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
                << " does not compile with it " << resultOf(S.Options)
                << "\n";
        Restore(Path);
      }
    ++S.Failed;
    S.FailedVerify.insert(R.MainFile);
  }
}

} // namespace annotate
