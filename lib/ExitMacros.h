//===- ExitMacros.h - Macro calls that leave the function ------*- C++ -*-===//
//
// Real libraries leave their functions through macros:
//
//   herr_t H5X_close(H5X_t *x)              PetscErrorCode Solve(Mat A)
//   {                                       {
//       herr_t ret_value = SUCCEED;             PetscFunctionBeginUser;
//       FUNC_ENTER_NOAPI(FAIL)                  PetscCall(MatSetUp(A));
//       if (x->open < 0)                        PetscFunctionReturn(0);
//           HGOTO_ERROR(H5E_ARGS, ...)      }
//       ...
//   done:
//       FUNC_LEAVE_NOAPI(ret_value)
//   }
//
// The return is in the macro body, which annotate never edits. A macro call
// is an exit when, from where it starts, every path leaves the function
// (returns, or calls a noreturn function) without running code written
// outside the call: END can then go before the call, as before a return.
// That is decided on Clang's CFG of the function, not from a list of names
// (FUNC_LEAVE_NOAPI above is an exit; HGOTO_ERROR jumps to `done` and
// PetscCall returns on error only, so they are not). FUNC_LEAVE_NOAPI also
// closes the scopes FUNC_ENTER_NOAPI opened: every scope between the call
// and its return must be a plain block, which control leaves at its end
// only, so that no path reaches the return without passing the call's
// start. The rule set's exit_macros names more, for what the analysis
// cannot decide.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_EXITMACROS_H
#define ANNOTATE_LIB_EXITMACROS_H

#include "BodyFacts.h"
#include "SourceText.h"
#include "annotate/RuleSet.h"

#include "clang/AST/Decl.h"

#include <string>
#include <vector>

namespace annotate {

/// A macro call written in the function's file whose expansion holds
/// returns of the function.
struct MacroExit {
  /// The call in the file: [Begin, End), from the macro's name to its `)`.
  unsigned Begin = 0, End = 0;
  /// The outermost macro: "FUNC_LEAVE_NOAPI"
  std::string Name;
  /// The first statement of its expansion in statement position (the
  /// whole `do { ... } while (0)` of a statement macro): where END goes,
  /// braced with it when it is a braceless body.
  const clang::Stmt *First = nullptr;
  /// The returns of the function in the call.
  std::vector<const clang::ReturnStmt *> Returns;
  /// Whether END may go before the call.
  bool Exit = false;
  /// Listed in the rule set's exit_macros (not analysed).
  bool Listed = false;
  /// An exit but for a condition before it that may skip the scope it
  /// returns from (HDF5 1.10's FUNC_LEAVE_NOAPI): one when START goes
  /// inside that scope, which findEntryScope decides (ScopeSpan.h) and
  /// then sets Exit.
  bool ScopeMaySkip = false;
  /// Why it is not an exit: "it returns on some paths only".
  std::string Why;
};

/// The macro calls of FD's body, written in Text's file, that hold returns
/// of FD (ordered by Begin). The CFG is built only when there is one.
std::vector<MacroExit> findMacroExits(const clang::FunctionDecl &FD,
                                      const BodyFacts &Facts,
                                      const SourceText &Text,
                                      clang::ASTContext &Ctx,
                                      const RuleSet &Rules);

/// Whether S, an if, always runs its branch Branch: its condition is a
/// constant (`if (TRUE || ...)`, as FUNC_ENTER_NOAPI expands in an HDF5
/// file without a package).
bool alwaysTaken(const clang::Stmt *S, const clang::Stmt *Branch,
                 const clang::ASTContext &Ctx);

} // namespace annotate

#endif
