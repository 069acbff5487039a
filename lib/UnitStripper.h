//===- UnitStripper.h - Strip one translation unit --------------*- C++ -*-===//
//
// The AST consumer of `annotate --strip`, the counterpart of UnitPlanner:
//
//   checkCompiled     a unit with errors fails, nothing is edited
//   findDefinitions   every function definition written in a file we may
//                     edit (templates as written, lambdas, members of local
//                     classes), and where the file uses declarations of the
//                     rule set's header
//   stripDefinition   the rule set's opt-out comments and filters keep a
//                     function as it is (the overhead guard does not: it
//                     says nothing of what is in a function); otherwise
//                     StripPlanner plans its removals
//   stripFiles        per file: the include and #line directives, the
//                     file's text and edits into the unit's result
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_UNITSTRIPPER_H
#define ANNOTATE_LIB_UNITSTRIPPER_H

#include "AnnotateInternal.h"
#include "Selection.h"
#include "StripPlanner.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"

#include <functional>
#include <map>
#include <memory>

namespace annotate {

class UnitStripper : public clang::ASTConsumer {
public:
  /// Wanted says which files may be edited: the main file, and headers
  /// under --root when it is given.
  UnitStripper(clang::CompilerInstance &CI, const PreprocessorIndex &Index,
               const AnnotateOptions &Options,
               std::function<bool(clang::FileID)> Wanted,
               TranslationUnitResult &Result);

  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  /// One file's text and planner.
  struct File {
    std::unique_ptr<SourceText> Text;
    std::unique_ptr<StripPlanner> Planner;
    /// Offsets where it uses declarations of the rule set's header.
    std::vector<unsigned> DeclUses;
    bool RemovedStatements = false;
  };

  void stripDefinition(const clang::FunctionDecl &FD, PlanContext &PC);
  void stripFiles(clang::ASTContext &Ctx, PlanContext &PC);
  File &file(clang::FileID FID, PlanContext &PC);

  clang::CompilerInstance &CI;
  const PreprocessorIndex &Index;
  AnnotateOptions Options;
  std::function<bool(clang::FileID)> Wanted;
  TranslationUnitResult &Result;
  std::unique_ptr<StripPatterns> Patterns;
  std::map<clang::FileID, File> Files;
  RuleVerdicts Verdicts;
};

} // namespace annotate

#endif
