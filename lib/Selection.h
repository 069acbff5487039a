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
#include "annotate/Annotator.h"
#include "annotate/RuleSet.h"

#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"

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
  /// `__attribute__((pure))` or `((const))`: calls may be merged or
  /// dropped, which a span would change.
  Pure,
  Naked,
  Lambda,
  NestedFunction,
  MacroExpansion,
  FunctionTryBlock,
  Coroutine,
  AlreadyAnnotated,
  /// Rejected by a function or file filter of the rule set or command line.
  Filtered,
  /// An opt-out comment before the function or in the file.
  OptOut,
  /// The overhead guard: a small leaf function.
  Guarded,
};

struct Verdict {
  Selection S = Selection::Selected;
  /// Which rule decided: "excluded by exclude '*_cb' (app.json)".
  std::string Detail;
};

/// "already annotated", "macro expansion", ... ("" for Selected/Ignored).
const char *describe(Selection S);

/// The built-in rule behind a reason that no rule set decides, for
/// --explain and the report's "rule": "constexpr: evaluated at compile
/// time, where a span cannot run (docs/rules.md §9)".
std::string builtInRule(const clang::FunctionDecl &FD, Selection S);

/// FD's name and place for the summary, --report and --explain: the
/// qualified name, "(lambda in io::run)" for a lambda.
FunctionRecord recordFor(const clang::FunctionDecl &FD,
                         const clang::SourceManager &SM);

Selection selectFunction(const clang::FunctionDecl &FD,
                         const clang::SourceManager &SM,
                         const PreprocessorIndex &PP, const RuleSet &Rules);

/// The rule-set's say on a function that selectFunction selected, in order
/// of precedence: an opt-out comment before it, the file filter (on
/// RelativePath), the function filter (on its qualified name), then the
/// overhead guard unless a function rule included it explicitly.
Verdict applySelectionRules(const clang::FunctionDecl &FD,
                            const clang::SourceManager &SM,
                            const clang::LangOptions &LO, const RuleSet &Rules,
                            llvm::StringRef RelativePath);

/// Whether a comment of file FID holds Marker ("annotate: skip-file").
bool fileOptsOut(const clang::SourceManager &SM, const clang::LangOptions &LO,
                 clang::FileID FID, llvm::StringRef Marker);

/// The rule set's say on the definitions of one translation unit, for
/// annotation and --strip alike: the opt-out comment of their file, then
/// applySelectionRules on the file's path relative to FilterRoot. What a
/// file says as a whole is looked up once.
class RuleVerdicts {
public:
  RuleVerdicts(const RuleSet &Rules, llvm::StringRef FilterRoot)
      : Rules(Rules), FilterRoot(FilterRoot.str()) {}

  /// The verdict on FD, written in FID.
  Verdict of(const clang::FunctionDecl &FD, clang::FileID FID,
             const clang::SourceManager &SM, const clang::LangOptions &LO);

private:
  struct FileRules {
    std::string RelativePath;
    bool OptsOut = false;
  };

  const RuleSet &Rules;
  std::string FilterRoot;
  llvm::DenseMap<clang::FileID, FileRules> Files;
};

/// Statements in a body, nested ones included: `{ x = 1; if (c) y(); }` has 3.
unsigned countStatements(const clang::Stmt *Body);
/// Whether Body calls nothing but compiler builtins.
bool isLeaf(const clang::Stmt *Body);

} // namespace annotate

#endif
