//===- FunctionPlanner.h - The edits that annotate one function -*- C++ -*-===//
//
// Turns one selected function into edits (SPEC §2):
//
//   int write_block(int fd)          int write_block(int fd)
//   {                                {
//     if (fd < 0)                        DFTRACER_C_FUNCTION_START();
//       return -1;            ==>        if (fd < 0) { /* annotate */
//     return do_write(fd);                 DFTRACER_C_FUNCTION_END();
//   }                                      return -1;
//                                        }
//                                        { int annotate_ret = (do_write(fd)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
//                                    }
//
// `main` gets INIT after its MPI_Init statement and END + FINI before its
// MPI_Finalize statement, its returns and its noreturn calls in between.
// Edits that cannot be placed safely are dropped with a warning; if START
// itself cannot be placed the function is left alone.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_FUNCTIONPLANNER_H
#define ANNOTATE_LIB_FUNCTIONPLANNER_H

#include "AnnotateInternal.h"
#include "BodyFacts.h"
#include "ExitMacros.h"
#include "NestedEdits.h"

#include "llvm/ADT/DenseSet.h"

namespace annotate {

/// main's METADATA statements name their variable this, numbered from 0:
/// "annotate_meta_0".
inline constexpr llvm::StringLiteral MetadataNamePrefix = "annotate_meta_";

class FunctionPlanner {
public:
  FunctionPlanner(PlanContext &PC, const SourceText &Text,
                  const clang::FunctionDecl &FD);

  /// Plans the function's edits into Out. Returns false, adding nothing,
  /// when the function cannot be annotated (the reason is a warning).
  bool plan(FileEdits &Out);

  /// Lambdas written in the body, for the caller to report or annotate.
  const std::vector<const clang::LambdaExpr *> &lambdas() const {
    return Facts.lambdas();
  }

private:
  bool planBody();
  /// C++: only the RAII guard, which closes the span on every exit path,
  /// exceptions included.
  bool planGuard();
  bool planMain();
  void braceEverything();

  /// The statements that open the function, Starts, followed by the
  /// category update when the rule set asks for it (in the C++ form after
  /// the RAII guard, Guard, and in the C form after START, C++ main
  /// included: the C++ update names the guard), laid out by linesText and
  /// inserted at Offset. The edit must appear once however the
  /// configurations planned it (Edit::OnceKey): at the first place in the
  /// file, with the category of what the function calls in any of them
  /// (the update is the edit's tail, its Preference the category's rank;
  /// docs/rules.md §10).
  void insertStarts(unsigned Offset, llvm::StringRef Indent,
                    std::vector<std::string> Starts, bool Guard);
  /// Where START goes (offset, indent) when an exit macro's END lies in a
  /// scope that a condition or loop may skip, opened by a macro call at
  /// the body's top level (HDF5's FUNC_ENTER_NOAPI `{ if (H5_PKG_INIT_VAR
  /// || !H5_TERM_GLOBAL) {`): right after that call, so that START and END
  /// are skipped together. None when START stays at the top; with a
  /// warning naming the macro when it must but cannot move (EntryScope.h).
  std::optional<std::pair<unsigned, std::string>> startInEntryScope();
  /// Offset after the body's `{` (and a comment closing its line).
  unsigned afterOpeningBrace() const;
  std::string bodyIndent() const;
  /// Lines to insert at Offset, each on its own line at Indent after the
  /// line break of Offset's line (inline with --line-directives).
  std::string linesText(unsigned Offset, llvm::StringRef Indent,
                        llvm::ArrayRef<std::string> Lines) const;
  /// Inserts Lines right before Target, which starts at Offset, bracing its
  /// slot when it is a braceless body. False when that is not possible.
  bool insertBefore(const clang::Stmt *Target, unsigned Offset,
                    llvm::ArrayRef<std::string> Lines, llvm::StringRef What);
  /// END (and FINI in main) before a return, computing a value inside the
  /// span when evaluating it may do work.
  void closeBeforeReturn(const clang::ReturnStmt *R,
                         llvm::ArrayRef<std::string> Ends);
  void closeAtClosingBrace(llvm::ArrayRef<std::string> Ends);
  /// END + FINI before the statements of main that call noreturn functions
  /// between Begin and End.
  void closeBeforeNoReturnCalls(unsigned Begin, unsigned End,
                                llvm::ArrayRef<std::string> Ends);
  /// A return in a macro body: END before the macro call when the call is
  /// an exit (ExitMacros.h), else a warning.
  void closeBeforeMacroExit(const clang::ReturnStmt *R,
                            llvm::ArrayRef<std::string> Ends);
  std::string uniqueReturnVariable(llvm::StringRef ExprText) const;
  /// Folds the edits planned inside a value that a value return copies
  /// (ValueWindows) into that return's block, innermost first: a return
  /// inside a GNU statement expression that is itself returned,
  /// `return ({ if (x < 0) return -1; x / 2; });`, gets its END inside the
  /// copied value, and the value is still computed inside the span.
  /// Applied separately, the two edits would overlap and both be dropped.
  void composeNestedEdits();
  /// Offset in the file where S is written (the macro call for a statement
  /// produced by a macro).
  std::optional<unsigned> offsetOf(const clang::Stmt *S) const;

  PlanContext &PC;
  const SourceText &Text;
  const clang::FunctionDecl &FD;
  const clang::CompoundStmt *Body;
  BodyFacts Facts;
  std::vector<Edit> Edits;
  llvm::DenseSet<const clang::Stmt *> BracedSlots;
  llvm::DenseSet<const clang::Stmt *> Closed;
  /// The values value returns copy into their blocks (NestedEdits.h).
  std::vector<EditWindow> ValueWindows;
  /// The macro calls holding returns, found on the first such return.
  std::optional<std::vector<MacroExit>> MacroExits;
};

} // namespace annotate

#endif
