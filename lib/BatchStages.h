//===- BatchStages.h - The stages of a run over many files -----*- C++ -*-===//
//
// runBatch (Batch.cpp) is the pipeline of docs/architecture.md over a list
// of files, one function per stage, sharing a BatchState:
//
//   annotateUnits     parse, select, plan, validate: each file in each of
//                     its configurations (in parallel), then
//                     mergeConfigurations (Configurations.cpp) (Batch.cpp)
//   mergeUnits        per file, the edits of every unit that saw it; each
//                     diagnostic and function once           (Merge.cpp)
//   explainFunctions  --explain: answer, write nothing       (Apply.cpp)
//   writeOutcomes     stdout, -i, -o, --diff, --check        (Apply.cpp)
//   verifyUnits       --verify: compile, restore what fails  (Apply.cpp)
//   printSummary      the one summary line on stderr         (Report.cpp)
//   writeReport       --report FILE.json                     (Report.cpp)
//   writeCoverage     --coverage FILE.json                   (Report.cpp)
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_BATCHSTAGES_H
#define ANNOTATE_LIB_BATCHSTAGES_H

#include "annotate/Batch.h"

#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace annotate {

/// Everything planned for one file by the units that saw it.
struct FileOutcome {
  /// The name it was given or included by (symbolic links kept), for
  /// messages; the map holding outcomes is keyed by real path.
  std::string Name;
  std::string Original;
  FileEdits Edits;
  /// A header included by C and by C++ units gets two plans (START/END and
  /// the RAII guard) that must not both apply: the C one compiles as both.
  FileEdits CxxEdits;
  bool FromC = false, FromCxx = false;
  /// The merged edits, once per file: the text and a diff both use them.
  std::vector<Edit> Merged;
  /// --strip: what the merged edits take out, and the ranges some unit
  /// keeps (FileAnnotation::Kept).
  Removal Removed;
  std::vector<std::pair<unsigned, unsigned>> Kept;
  std::string NewText;
  bool Changed = false;
  bool IsMainFile = false;
};

/// A function reported by several units (a header's) is one function.
using FunctionKey = std::tuple<std::string, unsigned, std::string>;

struct BatchState {
  BatchState(const BatchOptions &Options, size_t Inputs, llvm::raw_ostream &Out,
             llvm::raw_ostream &Err);

  const BatchOptions &Options;
  /// The real paths of --root and --output-dir: nothing is written
  /// anywhere else.
  std::string RealRoot, RealOutputDir;
  /// How many files were given.
  size_t Inputs;
  llvm::raw_ostream &Out;
  llvm::raw_ostream &Err;
  /// One per file given, in input order.
  std::vector<TranslationUnitResult> Units;
  /// By real path: every file some unit planned for, and the main files.
  std::map<std::string, FileOutcome> Outcomes;
  std::map<FunctionKey, FunctionRecord> Functions;
  size_t Failed = 0, Warnings = 0;
  /// Every warning once, in the order found; printed grouped (one line per
  /// message, with its count) unless --verbose.
  std::vector<Diagnostic> WarningList;
  /// The lines the warnings were printed on.
  size_t WarningLines = 0;
  /// Flags Clang does not know, dropped from compile commands (each once).
  std::vector<std::string> DroppedFlags;
  /// Exits in blocks no planned configuration compiled (each a warning).
  size_t UncompiledExits = 0;
  /// --strip: annotations left because they are not in annotate's form.
  size_t Unremoved = 0;
  /// Main files whose annotated form did not compile (--verify).
  std::set<std::string> FailedVerify;
  /// Why a file was not written, by real path: "src/link.c: error: ..."
  std::map<std::string, std::string> WriteErrors;
  bool WriteFailed = false;
};

/// What a run makes of a file, for messages: "annotated" or "stripped".
inline const char *resultOf(const BatchOptions &Options) {
  return Options.Annotate.Strip ? "stripped" : "annotated";
}

/// Calls Work(0) ... Work(N - 1) on up to Jobs threads.
void parallelFor(size_t N, unsigned Jobs,
                 const std::function<void(size_t)> &Work);

std::vector<TranslationUnitResult>
annotateUnits(const clang::tooling::CompilationDatabase &Database,
              const std::vector<std::string> &Files,
              const BatchOptions &Options, llvm::raw_ostream &Err);
void mergeUnits(BatchState &S);
/// Returns the exit code of --explain.
int explainFunctions(BatchState &S);
void writeOutcomes(BatchState &S);
void verifyUnits(BatchState &S,
                 const clang::tooling::CompilationDatabase &Database);
void printSummary(BatchState &S);
void writeReport(BatchState &S);
/// --coverage FILE: what the run left untraced, as one JSON line.
void writeCoverage(BatchState &S);
int exitCode(const BatchState &S);

} // namespace annotate

#endif
