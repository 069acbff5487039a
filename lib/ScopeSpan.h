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
// So a library written this way needs no exit_macros list.
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
/// before it). "" when it is; otherwise why not ("a goto enters the scope
/// past START").
std::string spanClosedInScope(const clang::FunctionDecl &FD,
                              const clang::CompoundStmt &Scope,
                              const MacroExit &Call, const BodyFacts &Facts,
                              const SourceText &Text, clang::ASTContext &Ctx,
                              const RuleSet &Rules,
                              const std::vector<MacroExit> &Exits);

} // namespace annotate

#endif
