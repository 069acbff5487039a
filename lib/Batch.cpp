//===- Batch.cpp - Annotating many files and writing the results ----------===//

#include "BatchStages.h"
#include "Paths.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Process.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

namespace annotate {
namespace {

/// Files done of the total and the time since the start, as one line that
/// rewrites itself on a terminal ("annotate: 12/300 files, 0:42 elapsed");
/// nothing when stderr is not a terminal (a log gets the summary only),
/// except with --verbose: a line per configuration as it starts
/// ("annotate: [3/7] src/buffer.c [compile command 2 of 2] (1s)").
class Progress {
public:
  Progress(llvm::raw_ostream &Err, size_t Files, size_t Units, bool Verbose)
      : Err(Err), Files(Files), Units(Units),
        Shown(Files > 1 && llvm::sys::Process::StandardErrIsDisplayed()),
        Logged(Files > 1 && Verbose && !Shown),
        Start(std::chrono::steady_clock::now()) {}

  void started(llvm::StringRef Unit) {
    if (!Logged)
      return;
    std::lock_guard<std::mutex> Lock(M);
    Err << "annotate: [" << ++Begun << "/" << Units << "] " << Unit << " ("
        << seconds() << "s)\n";
    Err.flush();
  }

  void fileDone() {
    std::lock_guard<std::mutex> Lock(M);
    ++Done;
    draw();
  }
  /// Text printed by one unit (Clang's errors), whole: the lines of
  /// parallel units never interleave, and the progress line stays last.
  void print(llvm::StringRef Text) {
    if (Text.empty())
      return;
    std::lock_guard<std::mutex> Lock(M);
    if (Shown)
      Err << "\r\x1b[K";
    Err << Text;
    if (!Text.ends_with("\n"))
      Err << "\n";
    draw();
  }
  void done() {
    if (Shown) {
      Err << "\r\x1b[K";
      Err.flush();
    }
  }

private:
  long seconds() const {
    return static_cast<long>(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
            .count());
  }
  void draw() {
    if (!Shown)
      return;
    long Seconds = seconds();
    char Elapsed[32];
    snprintf(Elapsed, sizeof Elapsed, "%ld:%02ld", Seconds / 60, Seconds % 60);
    Err << "\r\x1b[Kannotate: " << Done << "/" << Files << " files, "
        << Elapsed << " elapsed";
    Err.flush();
  }

  llvm::raw_ostream &Err;
  size_t Files, Units;
  bool Shown, Logged;
  std::chrono::steady_clock::time_point Start;
  std::mutex M;
  size_t Done = 0, Begun = 0;
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
  // whatever its configurations; a file is done when all of them are.
  Progress P(Err, Files.size(), Jobs.size(), Options.Verbose);
  std::vector<std::atomic<size_t>> Left(Files.size());
  for (size_t I = 0; I < Files.size(); ++I)
    Left[I] = Configs[I].size();
  for (size_t I = 0; I < Files.size(); ++I)
    if (Configs[I].empty())
      P.fileDone();
  parallelFor(Jobs.size(), Options.Jobs, [&](size_t K) {
    const auto &[I, C] = Jobs[K];
    const Configuration &Config = Configs[I][C];
    P.started(Config.Label.empty() ? Files[I]
                                   : Files[I] + " [" + Config.Label + "]");
    Results[I][C] = annotateConfiguration(Config, Files[I], Options.Annotate);
    P.print(Results[I][C].CompilerOutput);
    if (--Left[I] == 0)
      P.fileDone();
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
  writeCoverage(S);
  return exitCode(S);
}

} // namespace annotate
