//===- AnnotateInternal.h - The annotation pipeline ------------*- C++ -*-===//
//
// How a translation unit is annotated:
//
//   rules    RuleSet, loaded and checked once per run (RuleSet.cpp)
//   parse    annotateUnits runs the units in parallel (Batch.cpp); Clang
//            parses each with its compile command (Annotator.cpp);
//            PreprocessorIndex records directives, includes and marker
//            macros of the files we may edit; checkCompiled (in
//            UnitPlanner::checkParsed) refuses a unit with errors
//   select   UnitPlanner::findDefinitions and selectDefinition keep or skip
//            each function definition with a reason (Selection.cpp)
//   plan     UnitPlanner::planDefinition: FunctionPlanner turns a function
//            into edits: START, END before returns (BodyFacts,
//            ReturnClassifier), END at the closing brace when the CFG says
//            it is reachable (Reachability), INIT/FINI in main; braces where
//            an insertion lands in a braceless body (Braces);
//            UnitPlanner::planFiles adds the include once per file
//            (IncludePlanner)
//   validate every edit is anchored at a location spelled in the edited file
//            (SourceText::offset refuses macro expansions and other files;
//            ranges must not contain directives); a failing edit is dropped
//            with a warning that says why
//   merge    mergeUnits (Merge.cpp): FileEdits::merge de-duplicates, orders
//            and rejects overlaps, per file, over every unit
//   apply    explainFunctions, writeOutcomes, verifyUnits (Apply.cpp):
//            stdout, -i, -o, --diff, --check, --explain, --verify
//   report   printSummary, writeReport (Report.cpp)
//
// --strip (AnnotateOptions::Strip) swaps the consumer: UnitStripper selects
// the definitions and StripPlanner plans the removals of what annotate
// wrote in each file, each function's by stripFunction (FunctionStripper;
// StripPatterns: the rule set's statements as tokens); merge, apply and
// report are shared.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_ANNOTATEINTERNAL_H
#define ANNOTATE_LIB_ANNOTATEINTERNAL_H

#include "PreprocessorIndex.h"
#include "SourceText.h"
#include "annotate/Annotator.h"

#include "clang/AST/ASTContext.h"
#include "clang/Frontend/CompilerInstance.h"

namespace annotate {

/// Collects diagnostics at AST locations, compiler style.
class DiagnosticSink {
public:
  DiagnosticSink(const clang::SourceManager &SM,
                 std::vector<Diagnostic> &Out)
      : SM(SM), Out(Out) {}
  void warn(clang::SourceLocation Loc, const llvm::Twine &Message);
  /// --strip: a warning about an annotation that stays (Unremoved).
  void unremoved(clang::SourceLocation Loc, const llvm::Twine &Message);

private:
  const clang::SourceManager &SM;
  std::vector<Diagnostic> &Out;
};

/// What planners share for one translation unit.
struct PlanContext {
  clang::ASTContext &Ctx;
  const PreprocessorIndex &PP;
  const AnnotateOptions &Options;
  DiagnosticSink &Diags;
};

/// Why a unit that Clang reported errors in is left as it is.
inline constexpr llvm::StringLiteral NotCompiled =
    "the file does not compile; left unchanged";

/// The first step of both consumers (UnitPlanner, UnitStripper): records
/// the unit's language in Result; false, Result failed, when Clang reported
/// errors (nothing is edited then).
bool checkCompiled(const clang::CompilerInstance &CI,
                   const clang::ASTContext &Ctx,
                   TranslationUnitResult &Result);

/// The result of Text's file in Result (keyed by its real path), with its
/// path, its name (as the compiler opened it; the main file's as given)
/// and its original bytes.
FileAnnotation &fileResult(TranslationUnitResult &Result,
                           const SourceText &Text);

/// The outermost macro whose expansion produced Loc: "CHECK".
std::string macroNameAt(clang::SourceLocation Loc,
                        const clang::SourceManager &SM,
                        const clang::LangOptions &LO);

} // namespace annotate

#endif
