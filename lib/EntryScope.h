//===- EntryScope.h - START inside the scope an entry macro opens -*- C++ -*-===//
//
// HDF5 1.10's FUNC_ENTER_NOAPI opens `{ if (H5_PKG_INIT_VAR ||
// !H5_TERM_GLOBAL) {` and FUNC_LEAVE_NOAPI, listed in the rule set's
// exit_macros, closes it and then returns:
//
//   herr_t H5X_close(H5X_t *x)
//   {
//       herr_t ret_value = SUCCEED;
//       FUNC_ENTER_NOAPI(FAIL)
//       DFTRACER_C_FUNCTION_START();      <- here, not first in the body
//       ...
//       DFTRACER_C_FUNCTION_END();        <- inside the `if`
//       FUNC_LEAVE_NOAPI(ret_value)
//   }
//
// END goes before the exit macro, inside the `if`; with START at the top
// a path that skips the `if` would begin a span and return without ending
// it (issue 21). So when an exit macro's END lies below a condition or
// loop inside a top-level statement that a macro call opens, START goes
// right after that call: both are skipped together. Decided from the AST
// and source locations, never from names. When START must move but
// cannot (an END would be outside the scope), the planner warns, naming
// the macro.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_ENTRYSCOPE_H
#define ANNOTATE_LIB_ENTRYSCOPE_H

#include "BodyFacts.h"
#include "ExitMacros.h"
#include "SourceText.h"

#include "clang/AST/Decl.h"

#include <optional>
#include <string>

namespace annotate {

struct EntryScope {
  /// START goes at the end of the opening macro call, [OpenBegin, OpenEnd)
  /// in the file.
  bool Inside = false;
  unsigned OpenBegin = 0, OpenEnd = 0;
  /// START must move but cannot: where to warn and the message.
  std::optional<std::pair<clang::SourceLocation, std::string>> Refusal;
};

/// Where FD's START goes given its exit macros Exits (findMacroExits);
/// neither Inside nor Refusal: first in the body, as always. A macro call
/// that is an exit only if START goes inside the scope (ScopeMaySkip)
/// becomes one (Exit) when, with START there, every span is closed on
/// every path (ScopeSpan.h); when it is not, or START cannot move, it stays
/// a return the planner warns about, and START stays at the top unless a
/// listed exit macro needs it inside.
EntryScope findEntryScope(const clang::FunctionDecl &FD,
                          const BodyFacts &Facts, const SourceText &Text,
                          clang::ASTContext &Ctx, const RuleSet &Rules,
                          std::vector<MacroExit> &Exits);

} // namespace annotate

#endif
