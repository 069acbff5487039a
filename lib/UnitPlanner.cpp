//===- UnitPlanner.cpp - Select and plan one translation unit -------------===//

#include "UnitPlanner.h"
#include "FunctionPlanner.h"
#include "IncludePlanner.h"
#include "Paths.h"
#include "SkippedExits.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace annotate {

void UnitPlanner::HandleTranslationUnit(ASTContext &Ctx) {
  if (!checkParsed(Ctx))
    return;
  DiagnosticSink Sink(Ctx.getSourceManager(), Result.Diagnostics);
  PlanContext PC{Ctx, Index, Options, Sink};
  findDefinitions(Ctx.getTranslationUnitDecl(), PC);
  planFiles(Ctx);
  recordSkipped(Ctx.getSourceManager());
}

void UnitPlanner::recordSkipped(const SourceManager &SM) {
  // A header entered twice (no include guard) was compiled wherever one of
  // its inclusions did not skip.
  std::map<std::string, unsigned> Entries;
  for (const auto &[FID, Facts] : Index.files()) {
    std::string Path = canonicalPath(SM, FID);
    if (Path.empty())
      continue;
    Ranges Skipped = Facts.Skipped;
    llvm::sort(Skipped);
    Ranges &Recorded = Result.Skipped[Path];
    Recorded = Entries[Path]++ ? intersectRanges(Recorded, Skipped) : Skipped;
  }
}

bool UnitPlanner::checkParsed(ASTContext &Ctx) {
  if (!checkCompiled(CI, Ctx, Result))
    return false;
  if (Ctx.getLangOpts().CPlusPlus && Options.Rules.CxxFunctionStart.empty()) {
    Result.Failed = true;
    Result.FailureReason = "rule set '" + Options.Rules.Name +
                           "' has no C++ rules (\"cxx\"); left unchanged";
    return false;
  }
  return true;
}

/// The lambdas in S, not looking inside them (their own lambdas are found
/// when they are planned).
static void collectLambdas(const Stmt *S,
                           std::vector<const LambdaExpr *> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(Child))
      Out.push_back(L);
    else
      collectLambdas(Child, Out);
  }
}

/// Finds the written function definitions: at file scope, in extern "C"
/// blocks, namespaces and classes, and the pattern of each template (never
/// its instantiations).
void UnitPlanner::findDefinitions(const DeclContext *DC, PlanContext &PC) {
  const SourceManager &SM = PC.Ctx.getSourceManager();
  for (const Decl *D : DC->decls()) {
    if (D->isImplicit() && !isa<FunctionDecl>(D))
      continue;
    // Declarations from system headers hold nothing of ours (and std alone
    // holds thousands).
    if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
      continue;
    if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    else if (const auto *Template = dyn_cast<ClassTemplateDecl>(D))
      D = Template->getTemplatedDecl();
    else if (const auto *Friend = dyn_cast<FriendDecl>(D))
      if (NamedDecl *Befriended = Friend->getFriendDecl())
        D = Befriended;
    if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D);
        Spec && !Spec->isExplicitSpecialization())
      continue;
    if (isa<LinkageSpecDecl, NamespaceDecl, CXXRecordDecl>(D)) {
      findDefinitions(cast<DeclContext>(D), PC);
      continue;
    }
    // Lambdas outside functions: `auto twice = [](int x) { ... };` at
    // namespace scope, in static members and default member initialisers.
    const Expr *Init = nullptr;
    if (const auto *Var = dyn_cast<VarDecl>(D))
      Init = Var->getInit();
    else if (const auto *Field = dyn_cast<FieldDecl>(D))
      Init = Field->getInClassInitializer();
    if (Init && Wanted(SM.getFileID(SM.getExpansionLoc(D->getLocation())))) {
      std::vector<const LambdaExpr *> Lambdas;
      if (const auto *L = dyn_cast<LambdaExpr>(Init->IgnoreImplicit()))
        Lambdas.push_back(L);
      else
        collectLambdas(Init, Lambdas);
      planLambdas(Lambdas, PC);
      continue;
    }
    const auto *FD = dyn_cast<FunctionDecl>(D);
    if (!FD || !FD->isThisDeclarationADefinition())
      continue;
    FileID FID = SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
    if (!Wanted(FID))
      continue;
    planDefinition(*FD, selectDefinition(*FD, PC), PC);
  }
}

Verdict UnitPlanner::selectDefinition(const FunctionDecl &FD, PlanContext &PC) {
  const SourceManager &SM = PC.Ctx.getSourceManager();
  Verdict V{selectFunction(FD, SM, Index, Options.Rules), ""};
  if (V.S != Selection::Selected)
    return V;
  FileID FID = SM.getFileID(SM.getExpansionLoc(FD.getLocation()));
  Verdict Rules = Verdicts.of(FD, FID, SM, PC.Ctx.getLangOpts());
  // The guard judges the body this configuration compiles: with #if blocks
  // in it, another configuration may see a bigger one and annotate it, and
  // START from that plan would have no END here. Such bodies are not judged.
  if (Rules.S == Selection::Guarded) {
    const auto *Body = cast<CompoundStmt>(FD.getBody());
    auto Begin = SM.getDecomposedExpansionLoc(Body->getLBracLoc());
    auto End = SM.getDecomposedExpansionLoc(Body->getRBracLoc());
    if (Begin.first == End.first &&
        Index.hasConditionalIn(Begin.first, Begin.second, End.second))
      return {Selection::Selected,
              "selected: the overhead guard does not judge a body with #if "
              "blocks, which may be larger in another configuration"};
  }
  return Rules;
}

/// Lambdas are reported, and annotated when the rule set opts in.
void UnitPlanner::planLambdas(llvm::ArrayRef<const LambdaExpr *> Lambdas,
                              PlanContext &PC) {
  const SourceManager &SM = PC.Ctx.getSourceManager();
  for (const LambdaExpr *L : Lambdas) {
    const CXXMethodDecl *Call = L->getCallOperator();
    planDefinition(*Call,
                   Verdict{selectFunction(*Call, SM, Index, Options.Rules), ""},
                   PC);
  }
}

void UnitPlanner::planDefinition(const FunctionDecl &FD, Verdict V,
                                 PlanContext &PC) {
  const SourceManager &SM = PC.Ctx.getSourceManager();
  Selection S = V.S;
  if (S == Selection::Ignored)
    return;
  FunctionRecord Record = recordFor(FD, SM);
  Record.Detail = V.Detail.empty() ? builtInRule(FD, S) : V.Detail;
  if (S != Selection::Selected) {
    Record.SkipReason = describe(S);
    Result.Functions.push_back(std::move(Record));
    planLocalClasses(FD, PC); // each member has its own verdict
    return;
  }
  FileID FID = SM.getFileID(FD.getBody()->getBeginLoc());
  auto &Text = Texts[FID];
  if (!Text)
    Text = std::make_unique<SourceText>(SM, PC.Ctx.getLangOpts(), FID);
  FunctionPlanner Planner(PC, *Text, FD);
  Record.Annotated = Planner.plan(Edits[FID]);
  if (!Record.Annotated)
    Record.SkipReason = "cannot be annotated safely";
  // In C, a return in a block this configuration skipped has no END (C++'s
  // guard closes the span on every path).
  if (Record.Annotated && !Result.Cxx && !Options.Rules.FunctionEnd.empty())
    for (SkippedExit &E :
         skippedExits(FD, *Text, Index, Options.Rules, canonicalPath(SM, FID)))
      Result.SkippedExits.push_back(std::move(E));
  Result.Functions.push_back(std::move(Record));
  planLambdas(Planner.lambdas(), PC);
  planLocalClasses(FD, PC);
}

/// Classes defined in a function body (a C++ functor before lambdas, say)
/// have member functions of their own. The body's lambdas are not among
/// these records: they come from the planner.
void UnitPlanner::planLocalClasses(const FunctionDecl &FD, PlanContext &PC) {
  for (const Decl *D : FD.decls())
    if (const auto *Record = dyn_cast<CXXRecordDecl>(D);
        Record && !Record->isLambda() && !Record->isImplicit())
      findDefinitions(Record, PC);
}

void UnitPlanner::planFiles(ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  // With line directives, a main file that needs nothing still names its
  // original, so that a compiled copy points back at it.
  FileID Main = SM.getMainFileID();
  if (Options.LineDirectives && Edits[Main].empty() && !Texts[Main])
    Texts[Main] = std::make_unique<SourceText>(SM, Ctx.getLangOpts(), Main);
  for (auto &[FID, FileEditsOfFile] : Edits) {
    bool Unchanged = FileEditsOfFile.empty();
    if (Unchanged && !(Options.LineDirectives && FID == Main))
      continue;
    const SourceText &Text = *Texts[FID];
    OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
    bool Guarded =
        FID != SM.getMainFileID() && FE &&
        CI.getPreprocessor().getHeaderSearchInfo().isFileMultipleIncludeGuarded(
            *FE);
    unsigned FirstEdit = ~0u;
    for (const Edit &E : FileEditsOfFile.merge().Edits)
      FirstEdit = std::min(FirstEdit, E.Offset);
    std::string Path = canonicalPath(SM, FID);
    std::string Directive = Options.LineDirectives ? Path : "";
    if (!Unchanged)
      if (auto Include = planInclude(Options.Rules.Include, Text, Index,
                                     FirstEdit, Guarded, Directive)) {
        Include->OnceKey = "include";
        FileEditsOfFile.add(*Include);
      }
    if (Options.LineDirectives) // first in the file, after a byte-order mark
      FileEditsOfFile.add({Text.textStart(), 0,
                           lineDirective(1, Path, Text.lineBreakAt(0)),
                           /*Rank=*/0});
    fileResult(Result, Text).Edits.append(FileEditsOfFile);
  }
}

} // namespace annotate
