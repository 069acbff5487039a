//===- Batch.cpp - Annotating many files and writing the results ----------===//

#include "annotate/Batch.h"
#include "annotate/Output.h"

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
  std::string NewText;
  bool Changed = false;
  bool IsMainFile = false;
};

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

/// Runs annotateFile over Files with Jobs threads; results in input order.
std::vector<TranslationUnitResult>
annotateAll(const clang::tooling::CompilationDatabase &Database,
            const std::vector<std::string> &Files, const BatchOptions &Options,
            Progress &P) {
  std::vector<TranslationUnitResult> Results(Files.size());
  std::atomic<size_t> Next{0};
  auto Worker = [&] {
    for (size_t I = Next++; I < Files.size(); I = Next++) {
      P.started(Files[I]);
      if (!llvm::sys::fs::exists(Files[I])) {
        Results[I].MainFile = Files[I];
        Results[I].Failed = true;
        Results[I].FailureReason = "no such file";
        continue;
      }
      Results[I] = annotateFile(Database, Files[I], Options.Annotate);
    }
  };
  unsigned Jobs = std::max(1u, std::min<unsigned>(Options.Jobs, Files.size()));
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < Jobs; ++J)
    Threads.emplace_back(Worker);
  Worker();
  for (std::thread &T : Threads)
    T.join();
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
  for (const TranslationUnitResult &R : Results) {
    for (const Diagnostic &D : R.Diagnostics)
      if (Printed.insert(D.format()).second) {
        Err << D.format() << "\n";
        ++Warnings;
      }
    if (R.Failed) {
      ++Failed;
      Err << R.MainFile << ": error: " << R.FailureReason << "\n";
      continue;
    }
    for (const FunctionRecord &F : R.Functions)
      Functions.try_emplace({F.File, F.Line, F.Name}, F);
    for (const auto &[Path, F] : R.Files) {
      FileOutcome &O = Outcomes[Path];
      O.Original = F.Original;
      O.Edits.append(F.Edits);
      O.IsMainFile |= Path == R.MainFile;
    }
    if (!Outcomes.count(R.MainFile)) {
      // Nothing to change: still part of the output (stdout, -o).
      auto Buffer = llvm::MemoryBuffer::getFile(R.MainFile, /*IsText=*/false);
      FileOutcome &O = Outcomes[R.MainFile];
      if (Buffer)
        O.Original = (*Buffer)->getBuffer().str();
      O.IsMainFile = true;
    }
  }
  for (auto &[Path, O] : Outcomes) {
    FileEdits::Merged M = O.Edits.merge();
    for (const Edit &C : M.Conflicts) {
      Err << Path << ": warning: conflicting edits at offset " << C.Offset
          << " dropped\n";
      ++Warnings;
    }
    O.NewText = applyEdits(O.Original, M.Edits);
    O.Changed = O.NewText != O.Original;
  }

  // Act.
  size_t Changed = 0;
  bool WriteFailed = false;
  for (auto &[Path, O] : Outcomes) {
    Changed += O.Changed;
    std::string Shown = relativeTo(Path, Options.Root);
    switch (Options.Mode) {
    case OutputMode::Stdout:
      if (O.IsMainFile)
        Out << O.NewText;
      break;
    case OutputMode::InPlace:
      if (O.Changed)
        if (llvm::Error E = writeFileAtomically(Path, O.NewText)) {
          Err << Path << ": error: " << llvm::toString(std::move(E)) << "\n";
          WriteFailed = true;
        }
      break;
    case OutputMode::OutputDir: {
      if (Shown == Path && llvm::sys::path::is_absolute(Path)) {
        Err << Path << ": error: outside --root " << Options.Root
            << "; not written\n";
        WriteFailed = true;
        break;
      }
      llvm::SmallString<256> Target(Options.OutputDir);
      llvm::sys::path::append(Target, Shown);
      if (llvm::Error E = writeFileAtomically(Target, O.NewText)) {
        Err << Target << ": error: " << llvm::toString(std::move(E)) << "\n";
        WriteFailed = true;
      }
      break;
    }
    case OutputMode::Diff:
      if (O.Changed)
        Out << unifiedDiff(Shown, O.Original, O.Edits.merge().Edits);
      break;
    case OutputMode::Check:
      if (O.Changed)
        Out << Shown << ": would be annotated\n";
      break;
    }
  }

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
      F["status"] = R.Failed ? "failed"
                    : Outcomes.count(R.MainFile) && Outcomes[R.MainFile].Changed
                        ? "changed"
                        : "unchanged";
      if (R.Failed)
        F["reason"] = R.FailureReason;
      nlohmann::json Fns = nlohmann::json::array();
      for (const FunctionRecord &Fn : R.Functions) {
        nlohmann::json J = {{"name", Fn.Name},
                            {"file", Fn.File},
                            {"line", Fn.Line},
                            {"annotated", Fn.Annotated}};
        if (!Fn.Annotated)
          J["reason"] = Fn.SkipReason;
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
