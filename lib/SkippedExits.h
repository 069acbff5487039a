//===- SkippedExits.h - Exits in code the preprocessor skipped -*- C++ -*-===//
//
// Clang's AST holds the active branch of each #if only, so END is planned
// before the returns of the configuration parsed. A return in a skipped
// branch gets none:
//
//   static int open_target(const char *path, int flags)
//   {
//       DFTRACER_C_FUNCTION_START();
//   #ifdef HAVE_LUSTRE
//       if (stripe_count > 0) return lustre_open(path, flags);   <- no END
//   #endif
//       ...
//
// These are found by raw-lexing the skipped blocks (PreprocessorIndex)
// inside an annotated body: `return`, `goto`, and calls of the rule set's
// noreturn functions (exit, MPI_Abort) and finalize calls (MPI_Finalize).
// Whether some other planned configuration compiled them is decided when
// configurations are merged (mergeConfigurations).
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_SKIPPEDEXITS_H
#define ANNOTATE_LIB_SKIPPEDEXITS_H

#include "PreprocessorIndex.h"
#include "SourceText.h"
#include "annotate/Annotator.h"

#include "clang/AST/Decl.h"

namespace annotate {

/// The exits in the skipped blocks of FD's body, which is in Text's file
/// (real path Path).
std::vector<SkippedExit> skippedExits(const clang::FunctionDecl &FD,
                                      const SourceText &Text,
                                      const PreprocessorIndex &PP,
                                      const RuleSet &Rules,
                                      llvm::StringRef Path);

/// The warning for an exit that no planned configuration compiled.
Diagnostic uncompiledExitWarning(const SkippedExit &E);

/// The directive that opens the branch holding Offset, as written:
/// "#ifdef HAVE_LUSTRE", "#elif defined(IO_HDF5)"; for an #else, with the
/// #if it belongs to: "#else of #ifdef HAVE_LUSTRE".
std::string blockCondition(llvm::StringRef Buffer, unsigned Offset);

} // namespace annotate

#endif
