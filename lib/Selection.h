//===- Selection.h - Which function definitions get annotated --*- C++ -*-===//
//
// By default every function definition with a body written in a file being
// annotated (SPEC §4), except the ones below. Each exclusion has a reason
// that the summary counts and the report shows.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_SELECTION_H
#define ANNOTATE_LIB_SELECTION_H

#include "PreprocessorIndex.h"
#include "annotate/RuleSet.h"

#include "clang/AST/Decl.h"

#include <string>

namespace annotate {

enum class Selection {
  Selected,
  /// Not reported: not ours to annotate at all (no body, system header,
  /// template instantiation).
  Ignored,
  Implicit,
  Defaulted,
  Deleted,
  Constexpr,
  Naked,
  Lambda,
  NestedFunction,
  MacroExpansion,
  FunctionTryBlock,
  Coroutine,
  AlreadyAnnotated,
};

/// "already annotated", "macro expansion", ... ("" for Selected/Ignored).
const char *describe(Selection S);

Selection selectFunction(const clang::FunctionDecl &FD,
                         const clang::SourceManager &SM,
                         const PreprocessorIndex &PP, const RuleSet &Rules);

} // namespace annotate

#endif
