//===- Batch.h - Annotating many files and writing the results -*- C++ -*-===//
//
// What the CLI does after parsing options: annotate each translation unit
// (in parallel with Jobs > 1), merge the edits planned for each file by
// every unit that saw it, then print, write or diff the results and tell
// what happened in one summary line:
//
//   annotate: 12 files, 9 changed, 1 failed; 140 functions annotated,
//   6 skipped (4 already annotated, 2 macro expansion); 3 warnings
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_BATCH_H
#define ANNOTATE_BATCH_H

#include "annotate/Annotator.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/raw_ostream.h"

namespace annotate {

enum class OutputMode {
  /// One file: the annotated source on stdout.
  Stdout,
  /// -i: rewrite the files in place.
  InPlace,
  /// -o DIR: write the files under DIR, mirroring their place under Root.
  OutputDir,
  /// --diff: a unified diff on stdout; nothing written.
  Diff,
  /// --check: exit 1 when some file would change; nothing written.
  Check,
};

struct BatchOptions {
  AnnotateOptions Annotate;
  OutputMode Mode = OutputMode::Stdout;
  /// For OutputMode::OutputDir: "annotated/"
  std::string OutputDir;
  /// Absolute; paths are shown and mirrored relative to it: "/src/ior"
  std::string Root;
  unsigned Jobs = 1;
  /// --report: per file and function, what was done and why: "report.json"
  std::string ReportPath;
  /// --coverage: the coverage record, one JSON line: per translation unit,
  /// whether it was annotated, and each function left unannotated with
  /// why (docs/integration.md, "Coverage"): "io.o.coverage.json"
  std::string CoveragePath;
  /// --verify (with -i or -o): compile each changed translation unit with
  /// its own command; restore the files of one that fails.
  bool Verify = false;
  /// --explain NAME: say why each function NAME was annotated or skipped,
  /// write nothing: "write_block"
  std::string Explain;
  /// --verbose: print every warning; without it, repeated warnings of one
  /// kind and cause are one line with their count and first location.
  bool Verbose = false;
};

/// Annotates Files and writes the results as Options say. Returns the exit
/// code: 0 success, 1 a file failed or --check found work.
int runBatch(const clang::tooling::CompilationDatabase &Database,
             const std::vector<std::string> &Files, const BatchOptions &Options,
             llvm::raw_ostream &Out, llvm::raw_ostream &Err);

} // namespace annotate

#endif
