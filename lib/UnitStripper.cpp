//===- UnitStripper.cpp - Strip one translation unit ----------------------===//

#include "UnitStripper.h"
#include "Selection.h"

#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace annotate {
namespace {

/// The function definitions written in the files we may edit, and where
/// those files use declarations of the rule set's header. Declarations of
/// other files (system headers hold thousands) are not entered.
class DefinitionFinder : public RecursiveASTVisitor<DefinitionFinder> {
public:
  DefinitionFinder(const SourceManager &SM, const PreprocessorIndex &Index,
                   const std::function<bool(FileID)> &Wanted)
      : SM(SM), Index(Index), Wanted(Wanted) {}

  bool TraverseDecl(Decl *D) {
    if (D && !isa<TranslationUnitDecl>(D)) {
      SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
      if (Loc.isInvalid() || !Wanted(SM.getFileID(Loc)))
        return true;
    }
    return RecursiveASTVisitor::TraverseDecl(D);
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    if (FD->isThisDeclarationADefinition() && !FD->isImplicit() &&
        isa_and_nonnull<CompoundStmt>(FD->getBody()))
      Functions.push_back(FD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    Functions.push_back(L->getCallOperator());
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    use(E->getDecl(), E->getLocation());
    return true;
  }
  bool VisitTypedefTypeLoc(TypedefTypeLoc TL) {
    use(TL.getTypedefNameDecl(), TL.getNameLoc());
    return true;
  }
  bool VisitTagTypeLoc(TagTypeLoc TL) {
    use(TL.getDecl(), TL.getNameLoc());
    return true;
  }

  std::vector<const FunctionDecl *> Functions;
  /// Offsets, per file, where a declaration of the tracked header is used.
  std::map<FileID, std::vector<unsigned>> Uses;

private:
  void use(const Decl *D, SourceLocation At) {
    // Builtins (__builtin_expect) are declared implicitly where first used,
    // which may be the header.
    if (!D || D->isImplicit() || At.isInvalid())
      return;
    FileID Declared = SM.getFileID(SM.getExpansionLoc(D->getLocation()));
    auto [It, Inserted] = Tracked.try_emplace(Declared, false);
    if (Inserted)
      It->second = Index.isTrackedHeader(SM, Declared);
    if (!It->second)
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(At));
    Uses[FID].push_back(Offset);
  }

  const SourceManager &SM;
  const PreprocessorIndex &Index;
  const std::function<bool(FileID)> &Wanted;
  llvm::DenseMap<FileID, bool> Tracked;
};

/// Whether one of the rule set's markers was expanded in FD's body.
bool hasMarkers(const FunctionDecl &FD, const SourceManager &SM,
                const PreprocessorIndex &Index) {
  const auto *Body = cast<CompoundStmt>(FD.getBody());
  auto [FID, Begin] = SM.getDecomposedLoc(SM.getExpansionLoc(Body->getLBracLoc()));
  unsigned End = SM.getFileOffset(SM.getExpansionLoc(Body->getRBracLoc()));
  const PreprocessorIndex::FileFacts *Facts = Index.facts(FID);
  return Facts && llvm::any_of(Facts->Markers, [&](const auto &M) {
           return Begin < M.Offset && M.Offset < End;
         });
}

} // namespace

UnitStripper::UnitStripper(CompilerInstance &CI, const PreprocessorIndex &Index,
                           const AnnotateOptions &Options,
                           std::function<bool(FileID)> Wanted,
                           TranslationUnitResult &Result)
    : CI(CI), Index(Index), Options(Options), Wanted(std::move(Wanted)),
      Result(Result), Verdicts(this->Options.Rules, Options.FilterRoot) {
  // What a function holds decides, never how big it is.
  this->Options.Rules.GuardMinStatements = 0;
}

void UnitStripper::HandleTranslationUnit(ASTContext &Ctx) {
  if (!checkCompiled(CI, Ctx, Result))
    return;
  Patterns = std::make_unique<StripPatterns>(Options.Rules, Ctx.getLangOpts());
  DiagnosticSink Sink(Ctx.getSourceManager(), Result.Diagnostics);
  PlanContext PC{Ctx, Index, Options, Sink};
  DefinitionFinder Finder(Ctx.getSourceManager(), Index, Wanted);
  Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  for (auto &[FID, Uses] : Finder.Uses)
    file(FID, PC).DeclUses = std::move(Uses);
  for (const FunctionDecl *FD : Finder.Functions)
    stripDefinition(*FD, PC);
  stripFiles(Ctx, PC);
}

UnitStripper::File &UnitStripper::file(FileID FID, PlanContext &PC) {
  File &F = Files[FID];
  if (!F.Text) {
    F.Text = std::make_unique<SourceText>(PC.Ctx.getSourceManager(),
                                          PC.Ctx.getLangOpts(), FID);
    F.Planner = std::make_unique<StripPlanner>(PC, *F.Text, *Patterns);
  }
  return F;
}

void UnitStripper::stripDefinition(const FunctionDecl &FD, PlanContext &PC) {
  const SourceManager &SM = PC.Ctx.getSourceManager();
  const auto *Body = cast<CompoundStmt>(FD.getBody());
  // Written by a macro, or across files: nothing annotate could have
  // written, nothing to take out.
  if (Body->getLBracLoc().isMacroID() ||
      Body->getRBracLoc().isMacroID() ||
      SM.getFileID(Body->getLBracLoc()) != SM.getFileID(Body->getRBracLoc()))
    return;
  FileID FID = SM.getFileID(Body->getLBracLoc());
  FunctionRecord Record = recordFor(FD, SM);
  Verdict V = Verdicts.of(FD, FID, SM, PC.Ctx.getLangOpts());
  if (V.S != Selection::Selected) {
    // Annotations the user asked to keep stay, and are reported as kept.
    if (hasMarkers(FD, SM, Index)) {
      Record.SkipReason = describe(V.S);
      Record.Detail = V.Detail.empty() ? builtInRule(FD, V.S) : V.Detail;
      Result.Functions.push_back(std::move(Record));
    }
    return;
  }
  File &F = file(FID, PC);
  StripPlanner::FunctionOutcome Outcome = F.Planner->planFunction(FD);
  if (!Outcome.foundAny())
    return;
  F.RemovedStatements |= Outcome.Removed.Statements > 0;
  Record.Annotated = !Outcome.Kept;
  Record.Unremoved = Outcome.Kept;
  if (Outcome.Kept)
    Record.SkipReason = "not in annotate's form";
  else
    Record.Detail = "removed " + Outcome.Removed.str();
  Result.Functions.push_back(std::move(Record));
}

void UnitStripper::stripFiles(ASTContext &Ctx, PlanContext &PC) {
  // The main file may hold nothing but `#line 1` (--line-directives on a
  // file that needed nothing else).
  file(Ctx.getSourceManager().getMainFileID(), PC);
  for (auto &[FID, F] : Files) {
    if (!Wanted(FID))
      continue;
    F.Planner->planFile(F.DeclUses, F.RemovedStatements);
    if (F.Planner->edits().empty() && F.Planner->kept().empty())
      continue;
    FileAnnotation &Out = fileResult(Result, *F.Text);
    Out.Edits.append(F.Planner->edits());
    Out.Kept = F.Planner->kept();
  }
}

} // namespace annotate
