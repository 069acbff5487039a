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
  /// Text printed by one unit (Clang's errors), whole: the lines of
  /// parallel units never interleave.
  void print(llvm::StringRef Text) {
    if (Text.empty())
      return;
    std::lock_guard<std::mutex> Lock(M);
    if (Total >= 2 && Terminal)
      Err << "\r\x1b[K";
    Err << Text;
    if (!Text.ends_with("\n"))
      Err << "\n";
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

/// Plans each file in each of its configurations (configurationsOf), all
/// of them in parallel, then merges each file's; results in input order.
std::vector<TranslationUnitResult>
annotateUnits(const clang::tooling::CompilationDatabase &Database,
              const std::vector<std::string> &Files,
              const BatchOptions &Options, llvm::raw_ostream &Err) {
  struct Job {
    size_t File;
    size_t Config;
  };
  std::vector<TranslationUnitResult> Units(Files.size());
  std::vector<std::vector<Configuration>> Configs(Files.size());
  std::vector<std::vector<TranslationUnitResult>> Results(Files.size());
  std::vector<Job> Jobs;
  for (size_t I = 0; I < Files.size(); ++I) {
    if (!llvm::sys::fs::exists(Files[I])) {
      Units[I].MainFile = Files[I];
      Units[I].Failed = true;
      Units[I].FailureReason = "no such file";
      continue;
    }
    Configs[I] = configurationsOf(Database, Files[I], Options.Annotate);
    Results[I].resize(Configs[I].size());
    for (size_t C = 0; C < Configs[I].size(); ++C)
      Jobs.push_back({I, C});
  }
  // One file (stdout, annotate-cc, annotate_target) prints no progress,
  // whatever its configurations.
  Progress P(Err, Files.size() < 2 ? 1 : Jobs.size());
  parallelFor(Jobs.size(), Options.Jobs, [&](size_t K) {
    const auto &[I, C] = Jobs[K];
    const Configuration &Config = Configs[I][C];
    P.started(Config.Label.empty() ? Files[I]
                                   : Files[I] + " [" + Config.Label + "]");
    Results[I][C] = annotateConfiguration(Config, Files[I], Options.Annotate);
    P.print(Results[I][C].CompilerOutput);
  });
  P.done();
  for (size_t I = 0; I < Files.size(); ++I)
    if (!Units[I].Failed)
      Units[I] =
          mergeConfigurations(Files[I], std::move(Results[I]), Configs[I]);
  return Units;
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
