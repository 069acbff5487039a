//===- ScopeSpan.h - A span opened at the top of a scope, closed on every path -*- C++ -*-===//
//
// HDF5 1.10's FUNC_ENTER_NOAPI opens `{ if (H5_PKG_INIT_VAR ||
// !H5_TERM_GLOBAL) {` and FUNC_LEAVE_NOAPI closes both scopes, then
// returns: its return runs whether or not the `if` did, so END before the
// macro call is not an exit on every path (ExitMacros.h). With START right
// after FUNC_ENTER_NOAPI, inside the `if` (EntryScope.h), it is: a path
// that skips the scope skips START and END together. That is decided here,
// on Clang's CFG, for the plan as placed:
//
//   1. every path from START (the edge into the if's branch) passes an END
//      before it leaves the scope: an END before a return written in the
//      file, before an exit macro inside the scope, or the one before the
//      call, which a path passes when it leaves the scope at its end (the
//      call's statements come last in it); a goto, break or continue that
//      jumps out of the scope does not pass it;
//   2. no path reaches the scope's code but through that edge (a goto into
//      the scope, as HDF5's package initialisation makes to `done:` on
//      failure, would pass END without START).
//
// So a library written this way needs no exit_macros list. When only rule
// 2 fails, and every path that enters the scope, through the edge or by a
// goto, passes an END as in rule 1, the call is an exit with START left
// at the top (EntryScope.cpp): every path that enters the scope ends its
// span, and only the path that skips the scope (HDF5: a package not yet
// initialised while the library terminates) returns without END, which
// the planner says.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_SCOPESPAN_H
#define ANNOTATE_LIB_SCOPESPAN_H

#include "BodyFacts.h"
#include "ExitMacros.h"
#include "SourceText.h"

#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace annotate {

/// With START first in Scope and END before Call (whose first statement
/// must be last in Scope, after only its own statements), whether every
/// span START opens is closed by an END, decided on FD's CFG. Exits are
/// all of FD's macro calls holding returns (an exit among them has an END
/// before it). Why is "" when it is; otherwise why not ("a goto enters the
/// scope past START"). EnteredPastStart: rule 2 alone failed, and every
/// path into the scope, the gotos' too, passes an END (rule 1 from each).
struct ScopeSpanVerdict {
  std::string Why;
  bool EnteredPastStart = false;
};
ScopeSpanVerdict spanClosedInScope(const clang::FunctionDecl &FD,
                                   const clang::CompoundStmt &Scope,
                                   const MacroExit &Call,
                                   const BodyFacts &Facts,
                                   const SourceText &Text,
                                   clang::ASTContext &Ctx,
                                   const RuleSet &Rules,
                                   const std::vector<MacroExit> &Exits);

} // namespace annotate

#endif
