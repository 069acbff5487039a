//===- Batch.cpp - Annotating many files and writing the results ----------===//

#include "BatchStages.h"
#include "Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>

namespace annotate {
namespace {

class Progress {
public:
  Progress(llvm::raw_ostream &Err, size_t Total)
      : Err(Err), Total(Total),
        Terminal(llvm::sys::Process::StandardErrIsDisplayed()),
        Start(std::chrono::steady_clock::now()) {}

  void started(llvm::StringRef File) {
    if (Total < 2)
      return;
    std::lock_guard<std::mutex> Lock(M);
    ++Count;
    double Elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
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

} // namespace

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
annotateUnits(const clang::tooling::CompilationDatabase &Database,
              const std::vector<std::string> &Files,
              const BatchOptions &Options, llvm::raw_ostream &Err) {
  Progress P(Err, Files.size());
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

BatchState::BatchState(const BatchOptions &Options, size_t Inputs,
                       llvm::raw_ostream &Out, llvm::raw_ostream &Err)
    : Options(Options), RealRoot(realPathToCreate(Options.Root)),
      RealOutputDir(
          Options.OutputDir.empty() ? "" : realPathToCreate(Options.OutputDir)),
      Inputs(Inputs), Out(Out), Err(Err) {}

int runBatch(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const BatchOptions &Options,
             llvm::raw_ostream &Out, llvm::raw_ostream &Err) {
  BatchState S(Options, Files.size(), Out, Err);
  S.Units = annotateUnits(Database, Files, Options, Err);
  mergeUnits(S);
  if (!Options.Explain.empty())
    return explainFunctions(S);
  writeOutcomes(S);
  if (Options.Verify && (Options.Mode == OutputMode::InPlace ||
                         Options.Mode == OutputMode::OutputDir))
    verifyUnits(S, Database);
  printSummary(S);
  writeReport(S);
  return exitCode(S);
}

} // namespace annotate
