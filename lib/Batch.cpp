//===- Batch.cpp - Annotating many files and writing the results ----------===//

#include "annotate/Batch.h"
#include "annotate/Output.h"
#include "annotate/Verify.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <thread>

namespace annotate {
namespace {

/// Everything planned for one file by the units that saw it.
struct FileOutcome {
  std::string Original;
  FileEdits Edits;
  /// A header included by C and by C++ units gets two plans (START/END and
  /// the RAII guard) that must not both apply: the C one compiles as both.
  FileEdits CxxEdits;
  bool FromC = false, FromCxx = false;
  /// The merged edits, once per file: the text and a diff both use them.
  std::vector<Edit> Merged;
  std::string NewText;
  bool Changed = false;
  bool IsMainFile = false;
};

/// Records Path, a unit's main file, as output unchanged unless it already
/// has an outcome. A file that cannot be read gets none: nothing to copy.
void keepUnchanged(std::map<std::string, FileOutcome> &Outcomes,
                   const std::string &Path) {
  if (Outcomes.count(Path))
    return;
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/false);
  if (!Buffer)
    return;
  FileOutcome &O = Outcomes[Path];
  O.Original = (*Buffer)->getBuffer().str();
  O.IsMainFile = true;
}

std::string relativeTo(llvm::StringRef Path, llvm::StringRef Root) {
  if (!Root.empty() && Path.starts_with(Root)) {
    llvm::StringRef Rest = Path.drop_front(Root.size());
    if (Rest.empty() || llvm::sys::path::is_separator(Rest.front()))
      return Rest.ltrim("/").str();
  }
  return Path.str();
}

class Progress {
public:
  Progress(llvm::raw_ostream &Err, size_t Total)
      : Err(Err), Total(Total), Terminal(llvm::sys::Process::StandardErrIsDisplayed()),
        Start(std::chrono::steady_clock::now()) {}

  void started(llvm::StringRef File) {
    if (Total < 2)
      return;
    std::lock_guard<std::mutex> Lock(M);
    ++Count;
    double Elapsed = std::chrono::duration<double>(
                         std::chrono::steady_clock::now() - Start)
                         .count();
    std::string Line = "[" + std::to_string(Count) + "/" +
                       std::to_string(Total) + "] " + File.str() + " (" +
                       std::to_string(static_cast<int>(Elapsed)) + "s)";
    if (Terminal)
      Err << "\r\x1b[K" << Line;
    else
      Err << "annotate: " << Line << "\n";
    Err.flush();
  }
  void done() {
    if (Total >= 2 && Terminal)
      Err << "\r\x1b[K";
  }

private:
  llvm::raw_ostream &Err;
  size_t Total;
  bool Terminal;
  std::chrono::steady_clock::time_point Start;
  std::mutex M;
  size_t Count = 0;
};

/// Calls Work(0) ... Work(N - 1) on up to Jobs threads.
void parallelFor(size_t N, unsigned Jobs,
                 const std::function<void(size_t)> &Work) {
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < N; I = Next++)
      Work(I);
  };
  Jobs = std::max(1u, std::min<unsigned>(Jobs, N));
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < Jobs; ++J)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();
}

/// Runs annotateFile over Files; results in input order.
std::vector<TranslationUnitResult>
annotateAll(const clang::tooling::CompilationDatabase &Database,
            const std::vector<std::string> &Files, const BatchOptions &Options,
            Progress &P) {
  std::vector<TranslationUnitResult> Results(Files.size());
  parallelFor(Files.size(), Options.Jobs, [&](size_t I) {
    P.started(Files[I]);
    if (!llvm::sys::fs::exists(Files[I])) {
      Results[I].MainFile = Files[I];
      Results[I].Failed = true;
      Results[I].FailureReason = "no such file";
      return;
    }
    Results[I] = annotateFile(Database, Files[I], Options.Annotate);
  });
  P.done();
  return Results;
}

std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

} // namespace

int runBatch(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const BatchOptions &Options,
             llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  Progress P(Err, Files.size());
  std::vector<TranslationUnitResult> Results =
      annotateAll(Database, Files, Options, P);

  // Merge what every unit planned for each file; report each diagnostic and
  // each function once, however many units included its header.
  std::map<std::string, FileOutcome> Outcomes;
  std::set<std::string> Printed;
  std::map<std::tuple<std::string, unsigned, std::string>, FunctionRecord>
      Functions;
  size_t Failed = 0, Warnings = 0;
  std::set<std::string> FailedFiles;
  for (const TranslationUnitResult &R : Results) {
    for (const Diagnostic &D : R.Diagnostics)
      if (Printed.insert(D.format()).second) {
        Err << D.format() << "\n";
        ++Warnings;
      }
    if (R.Failed) {
      ++Failed;
      Err << R.MainFile << ": error: " << R.FailureReason << "\n";
      // -o mirrors every file it was given: one that failed goes there as
      // it is, so that the output tree is complete.
      if (Options.Mode == OutputMode::OutputDir)
        keepUnchanged(Outcomes, R.MainFile);
      continue;
    }
    for (const FunctionRecord &F : R.Functions)
      Functions.try_emplace({F.File, F.Line, F.Name}, F);
    for (const auto &[Path, F] : R.Files) {
      FileOutcome &O = Outcomes[Path];
      O.Original = F.Original;
      (R.Cxx ? O.CxxEdits : O.Edits).append(F.Edits);
      (R.Cxx ? O.FromCxx : O.FromC) = true;
      O.IsMainFile |= Path == R.MainFile;
    }
    // Nothing to change: still part of the output (stdout, -o).
    keepUnchanged(Outcomes, R.MainFile);
  }
  for (auto &[Path, O] : Outcomes) {
    if (O.FromC && O.FromCxx) {
      Err << Path << ": warning: included by C and C++ translation units; "
                     "annotated in its C form, which compiles as both\n";
      ++Warnings;
    } else if (O.FromCxx) {
      O.Edits = O.CxxEdits;
    }
    FileEdits::Merged M = O.Edits.merge();
    for (const Edit &C : M.Conflicts) {
      Err << Path << ": warning: conflicting edits at offset " << C.Offset
          << " dropped\n";
      ++Warnings;
    }
    O.Merged = std::move(M.Edits);
    O.NewText = applyEdits(O.Original, O.Merged);
    O.Changed = O.NewText != O.Original;
  }

  // --explain: answer and stop.
  if (!Options.Explain.empty()) {
    bool Seen = false;
    for (const auto &[Key, F] : Functions) {
      llvm::StringRef Name(F.Name);
      if (Name != Options.Explain && !Name.ends_with("::" + Options.Explain))
        continue;
      Seen = true;
      Out << relativeTo(F.File, Options.Root) << ":" << F.Line << ": " << F.Name
          << ": "
          << (F.Annotated ? std::string("annotated")
                          : "skipped: " + F.SkipReason)
          << (F.Detail.empty() ? "" : " (" + F.Detail + ")") << "\n";
    }
    if (!Seen)
      Out << Options.Explain << ": no definition in the files annotated\n";
    return Failed || !Seen ? 1 : 0;
  }

  // Act.
  auto Destination = [&](const std::string &Path) -> std::string {
    if (Options.Mode == OutputMode::InPlace)
      return Path;
    std::string Shown = relativeTo(Path, Options.Root);
    if (Shown == Path && llvm::sys::path::is_absolute(Path))
      return ""; // outside the root: nowhere to mirror it
    llvm::SmallString<256> Target(Options.OutputDir);
    llvm::sys::path::append(Target, Shown);
    return std::string(Target);
  };
  bool WriteFailed = false;
  auto Write = [&](const std::string &Path, llvm::StringRef Text) {
    std::string Target = Destination(Path);
    if (Target.empty()) {
      Err << Path << ": error: outside --root " << Options.Root
          << "; not written\n";
      WriteFailed = true;
      return;
    }
    if (llvm::Error E = writeFileAtomically(Target, Text)) {
      Err << Target << ": error: " << llvm::toString(std::move(E)) << "\n";
      WriteFailed = true;
    }
  };
  for (auto &[Path, O] : Outcomes) {
    std::string Shown = relativeTo(Path, Options.Root);
    switch (Options.Mode) {
    case OutputMode::Stdout:
      if (O.IsMainFile)
        Out << O.NewText;
      break;
    case OutputMode::InPlace:
      if (O.Changed)
        Write(Path, O.NewText);
      break;
    case OutputMode::OutputDir:
      Write(Path, O.NewText);
      break;
    case OutputMode::Diff:
      if (O.Changed)
        Out << unifiedDiff(Shown, O.Original, O.Merged);
      break;
    case OutputMode::Check:
      if (O.Changed)
        Out << Shown << ": would be annotated\n";
      break;
    }
  }

  // --verify: compile each unit that changed; put back the files of one
  // that does not compile.
  if (Options.Verify && (Options.Mode == OutputMode::InPlace ||
                         Options.Mode == OutputMode::OutputDir)) {
    std::vector<size_t> Units;
    for (size_t I = 0; I < Results.size(); ++I) {
      const TranslationUnitResult &R = Results[I];
      if (R.Failed)
        continue;
      for (const auto &[Path, F] : R.Files)
        if (Outcomes[Path].Changed) {
          Units.push_back(I);
          break;
        }
    }
    std::vector<VerifyOutcome> Verdicts(Units.size());
    parallelFor(Units.size(), Options.Jobs, [&](size_t K) {
      const TranslationUnitResult &R = Results[Units[K]];
      auto Commands = Database.getCompileCommands(R.MainFile);
      if (Commands.empty()) {
        Verdicts[K].Message = "no compile command";
        return;
      }
      Verdicts[K] = verifyCompiles(Commands.front(), Destination(R.MainFile),
                                   R.MainFile,
                                   Options.Annotate.RuntimeIncludeDir);
    });
    for (size_t K = 0; K < Units.size(); ++K) {
      if (Verdicts[K].Compiles)
        continue;
      const TranslationUnitResult &R = Results[Units[K]];
      Err << R.MainFile
          << ": error: the annotated file does not compile; restored\n"
          << Verdicts[K].Message;
      // Restore the unit's own file first: a header it shares with other
      // units stays annotated unless the unit still fails without it.
      auto Restore = [&](const std::string &Path) {
        FileOutcome &O = Outcomes[Path];
        if (!O.Changed)
          return;
        Write(Path, O.Original);
        O.Changed = false;
      };
      Restore(R.MainFile);
      auto Commands = Database.getCompileCommands(R.MainFile);
      bool StillFails =
          Commands.empty() ||
          !verifyCompiles(Commands.front(), Destination(R.MainFile), R.MainFile,
                          Options.Annotate.RuntimeIncludeDir)
               .Compiles;
      if (StillFails)
        for (const auto &[Path, F] : R.Files) {
          if (Path != R.MainFile && Outcomes[Path].Changed)
            Err << Path << ": note: restored too: " << R.MainFile
                << " does not compile with it annotated\n";
          Restore(Path);
        }
      ++Failed;
      FailedFiles.insert(R.MainFile);
    }
  }
  size_t Changed = 0;
  for (const auto &[Path, O] : Outcomes)
    Changed += O.Changed;

  // Summary.
  size_t Annotated = 0, Skipped = 0;
  std::map<std::string, size_t> Reasons;
  for (const auto &[Key, F] : Functions) {
    if (F.Annotated) {
      ++Annotated;
    } else {
      ++Skipped;
      ++Reasons[F.SkipReason];
    }
  }
  std::string Summary = "annotate: " + plural(Files.size(), "file", "files") +
                        ", " + std::to_string(Changed) + " changed, " +
                        std::to_string(Failed) + " failed; " +
                        plural(Annotated, "function", "functions") +
                        " annotated, " + std::to_string(Skipped) + " skipped";
  if (!Reasons.empty()) {
    Summary += " (";
    bool First = true;
    for (const auto &[Reason, N] : Reasons) {
      Summary += (First ? "" : ", ") + std::to_string(N) + " " + Reason;
      First = false;
    }
    Summary += ")";
  }
  Summary += "; " + plural(Warnings, "warning", "warnings");
  Err << Summary << "\n";

  if (!Options.ReportPath.empty()) {
    nlohmann::json Report;
    Report["summary"] = {{"files", Files.size()},
                         {"changed", Changed},
                         {"failed", Failed},
                         {"annotated", Annotated},
                         {"skipped", Skipped},
                         {"warnings", Warnings}};
    nlohmann::json FileList = nlohmann::json::array();
    for (const TranslationUnitResult &R : Results) {
      nlohmann::json F;
      F["path"] = R.MainFile;
      F["status"] = R.Failed || FailedFiles.count(R.MainFile) ? "failed"
                    : Outcomes.count(R.MainFile) && Outcomes[R.MainFile].Changed
                        ? "changed"
                        : "unchanged";
      if (R.Failed)
        F["reason"] = R.FailureReason;
      else if (FailedFiles.count(R.MainFile))
        F["reason"] = "the annotated file does not compile; restored";
      nlohmann::json Fns = nlohmann::json::array();
      for (const FunctionRecord &Fn : R.Functions) {
        nlohmann::json J = {{"name", Fn.Name},
                            {"file", Fn.File},
                            {"line", Fn.Line},
                            {"annotated", Fn.Annotated}};
        if (!Fn.Annotated)
          J["reason"] = Fn.SkipReason;
        if (!Fn.Detail.empty())
          J["rule"] = Fn.Detail;
        Fns.push_back(J);
      }
      F["functions"] = Fns;
      nlohmann::json Diags = nlohmann::json::array();
      for (const Diagnostic &D : R.Diagnostics)
        Diags.push_back(D.format());
      F["warnings"] = Diags;
      FileList.push_back(F);
    }
    Report["files"] = FileList;
    if (llvm::Error E =
            writeFileAtomically(Options.ReportPath, Report.dump(2) + "\n")) {
      Err << Options.ReportPath << ": error: " << llvm::toString(std::move(E))
          << "\n";
      WriteFailed = true;
    }
  }

  if (Failed || WriteFailed)
    return 1;
  if (Options.Mode == OutputMode::Check && Changed)
    return 1;
  return 0;
}

} // namespace annotate
