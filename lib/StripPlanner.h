//===- StripPlanner.h - The edits that take annotations out again -*- C++
//-*-===//
//
// `annotate --strip` (docs/rules.md §13), for one file of a translation
// unit: the removals of each of its functions (FunctionStripper.h, rules
// 1-5), the ranges of the functions that keep their annotations, then what
// the file holds besides:
//
//  6. The include of the rule set's header goes, as annotate writes it
//     (`#include <h>` alone on its line), when nothing left in the file
//     uses the header (its macros, or declarations the AST saw); so do the
//     `#line` directives --line-directives wrote: `#line 1 "<path>"` first
//     in the file, <path> absolute, and `#line N "<path>"` after the
//     include.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_STRIPPLANNER_H
#define ANNOTATE_LIB_STRIPPLANNER_H

#include "AnnotateInternal.h"
#include "StripPatterns.h"

#include "clang/AST/Decl.h"

namespace annotate {

class StripPlanner {
public:
  StripPlanner(PlanContext &PC, const SourceText &Text,
               const StripPatterns &Patterns);

  struct FunctionOutcome {
    /// What was found and is removed.
    Removal Removed;
    /// Something of the function is not in annotate's form: nothing of it
    /// is removed, and each reason is a warning (Diagnostic::Unremoved).
    bool Kept = false;
    bool foundAny() const { return Kept || Removed.total() > 0; }
  };
  /// Plans the removal of FD's annotations (FD's body is in this file).
  FunctionOutcome planFunction(const clang::FunctionDecl &FD);

  /// After the functions: the #line directives and, when statements of the
  /// file were removed (a file without annotations keeps every byte), the
  /// include (rule 6). DeclUses: offsets where the AST saw the file use a
  /// declaration of the rule set's header.
  void planFile(llvm::ArrayRef<unsigned> DeclUses, bool RemovedStatements);

  const FileEdits &edits() const { return Edits; }
  /// Ranges nothing may be removed from (FileAnnotation::Kept): the bodies
  /// of functions kept, the include when still used.
  const Ranges &kept() const { return Kept; }

private:
  PlanContext &PC;
  const SourceText &Text;
  const StripPatterns &Patterns;
  FileEdits Edits;
  /// What the edits planned so far take out.
  Ranges RemovedRanges;
  Ranges Kept;
};

} // namespace annotate

#endif
