//===- UnitPlanner.h - Select and plan one translation unit ----*- C++ -*-===//
//
// The AST consumer that runs the select and plan stages of the pipeline
// (docs/architecture.md) once Clang has parsed a translation unit:
//
//   checkParsed        a unit with errors (or C++ without C++ rules) fails
//   findDefinitions    walks file scope, extern "C", namespaces, classes,
//                      the written templates, friends and lambdas outside
//                      functions, for the files we may edit
//   selectDefinition   the verdict: Selection.cpp, then the rule set's
//                      opt-out comments, filters and overhead guard
//   planDefinition     FunctionPlanner's edits, or the reason it was
//                      skipped; then the lambdas and local classes inside
//   planFiles          per changed file: the include, #line directives,
//                      the file's text and edits into the unit's result
//   recordSkipped      per file, the blocks the preprocessor skipped, and
//                      (planDefinition) the exits written in them
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_UNITPLANNER_H
#define ANNOTATE_LIB_UNITPLANNER_H

#include "AnnotateInternal.h"
#include "Selection.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/DenseMap.h"

#include <functional>
#include <map>
#include <memory>

namespace annotate {

class UnitPlanner : public clang::ASTConsumer {
public:
  /// Wanted says which files may be edited: the main file, and headers
  /// under --root when it is given.
  UnitPlanner(clang::CompilerInstance &CI, const PreprocessorIndex &Index,
              const AnnotateOptions &Options,
              std::function<bool(clang::FileID)> Wanted,
              TranslationUnitResult &Result)
      : CI(CI), Index(Index), Options(Options), Wanted(std::move(Wanted)),
        Result(Result), Verdicts(Options.Rules, Options.FilterRoot) {}

  void HandleTranslationUnit(clang::ASTContext &Ctx) override;

private:
  bool checkParsed(clang::ASTContext &Ctx);
  void findDefinitions(const clang::DeclContext *DC, PlanContext &PC);
  Verdict selectDefinition(const clang::FunctionDecl &FD, PlanContext &PC);
  void planDefinition(const clang::FunctionDecl &FD, Verdict V,
                      PlanContext &PC);
  void planLambdas(llvm::ArrayRef<const clang::LambdaExpr *> Lambdas,
                   PlanContext &PC);
  void planLocalClasses(const clang::FunctionDecl &FD, PlanContext &PC);
  void planFiles(clang::ASTContext &Ctx);
  /// Per file the unit read, the blocks its preprocessor skipped: what
  /// this configuration did not compile.
  void recordSkipped(const clang::SourceManager &SM);

  clang::CompilerInstance &CI;
  const PreprocessorIndex &Index;
  const AnnotateOptions &Options;
  std::function<bool(clang::FileID)> Wanted;
  TranslationUnitResult &Result;
  std::map<clang::FileID, std::unique_ptr<SourceText>> Texts;
  RuleVerdicts Verdicts;
  std::map<clang::FileID, FileEdits> Edits;
};

} // namespace annotate

#endif
