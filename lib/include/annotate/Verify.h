//===- Verify.h - Does the annotated file still compile? -------*- C++ -*-===//
//
// `--verify` compiles each changed file with its own compile command (its
// compiler, its flags, its working directory) plus `-fsyntax-only` and the
// runtime's include directory, so that what the user's real compiler
// rejects (not only what Clang rejects) is caught and the file restored.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_VERIFY_H
#define ANNOTATE_VERIFY_H

#include "clang/Tooling/CompilationDatabase.h"

#include <string>

namespace annotate {

struct VerifyOutcome {
  bool Compiles = false;
  /// The compiler's output, or why it could not run.
  std::string Message;
};

/// Compiles CompiledPath, the annotated form of the file Command compiles,
/// for syntax only. OriginalPath's directory stays searchable for quoted
/// includes when the copy lives elsewhere.
VerifyOutcome verifyCompiles(const clang::tooling::CompileCommand &Command,
                             llvm::StringRef CompiledPath,
                             llvm::StringRef OriginalPath,
                             llvm::StringRef RuntimeIncludeDir);

} // namespace annotate

#endif
