//===- Reachability.h - Can control fall off the end of a body? -*- C++ -*-===//
//
// END goes before a function's closing brace only when control can get
// there. That is a question for Clang's CFG, not for the last line: after
//
//   for (;;) { ... }          or          MPI_Abort(comm, 1);
//
// the brace is dead code. Calls to functions the rule set lists as not
// returning (MPI_Abort is not declared noreturn by MPI) end paths too.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_REACHABILITY_H
#define ANNOTATE_LIB_REACHABILITY_H

#include "annotate/RuleSet.h"

namespace clang {
class ASTContext;
class CFGBlock;
class FunctionDecl;
} // namespace clang

namespace annotate {

/// Whether some path from the entry reaches the closing brace of FD's body
/// without returning, looping forever, or calling a noreturn function.
/// When Clang cannot build a CFG for the body the answer is true: an END
/// that is dead code is harmless, one that is missing is not.
bool canFallOffEnd(const clang::FunctionDecl &FD, clang::ASTContext &Ctx,
                   const RuleSet &Rules);

/// Whether every path through B ends in it: B calls something declared
/// noreturn or listed in the rule set's noreturn_functions.
bool endsPaths(const clang::CFGBlock &B, const RuleSet &Rules);

/// Whether B's edge to the exit is not a fall-off: B returns, throws, or
/// dispatches an exception that no handler of the try catches.
bool leavesOtherwise(const clang::CFGBlock &B);

} // namespace annotate

#endif
