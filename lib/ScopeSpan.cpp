//===- ScopeSpan.cpp ------------------------------------------------------===//

#include "ScopeSpan.h"
#include "Reachability.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace annotate {
namespace {

void collect(const Stmt *S, llvm::DenseSet<const Stmt *> &Into) {
  Into.insert(S);
  for (const Stmt *Child : S->children())
    if (Child && !isa<LambdaExpr, BlockExpr>(Child))
      collect(Child, Into);
}

/// The loop or switch a break (or the loop a continue) leaves.
const Stmt *jumpTarget(const Stmt *Jump, const BodyFacts &Facts) {
  bool Continue = isa<ContinueStmt>(Jump);
  for (const Stmt *S = Facts.parent(Jump); S; S = Facts.parent(S))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) ||
        (!Continue && isa<SwitchStmt>(S)))
      return S;
  return nullptr;
}

} // namespace

ScopeSpanVerdict spanClosedInScope(const FunctionDecl &FD,
                                   const CompoundStmt &Scope,
                                   const MacroExit &Call,
                                   const BodyFacts &Facts,
                                   const SourceText &Text, ASTContext &Ctx,
                                   const RuleSet &Rules,
                                   const std::vector<MacroExit> &Exits) {
  auto No = [](const char *Why) { return ScopeSpanVerdict{Why, false}; };
  const SourceManager &SM = Text.sourceManager();
  auto InCall = [&](const Stmt *S, const MacroExit &C) {
    SourceLocation Loc = S->getBeginLoc();
    if (!Loc.isMacroID())
      return false;
    auto [FID, Offset] = SM.getDecomposedExpansionLoc(Loc);
    return FID == Text.fileID() && Offset >= C.Begin && Offset < C.End;
  };
  // END before the call is passed by a path that leaves the scope at its
  // end only if the call's statements are the last of the scope.
  const Stmt *Slot = Facts.slot(Call.First);
  auto It = llvm::find(Scope.body(), Slot);
  if (It == Scope.body_end())
    return No("the macro call is not in the scope START would open");
  for (++It; It != Scope.body_end(); ++It)
    if (!InCall(*It, Call))
      return No("code follows the macro call in the scope START would open");

  const auto *If = dyn_cast_or_null<IfStmt>(Facts.parent(&Scope));
  if (!If)
    return No("the scope is not the branch of an if");
  CFG::BuildOptions Options;
  std::unique_ptr<CFG> Graph = CFG::buildCFG(&FD, FD.getBody(), &Ctx, Options);
  if (!Graph)
    return No("Clang built no control-flow graph of the function");
  const CFGBlock *Branch = nullptr;
  const CFGBlock *From = nullptr;
  for (const CFGBlock *B : *Graph)
    if (B->getTerminatorStmt() == If && B->succ_size() == 2) {
      From = B;
      Branch = *(B->succ_begin() + (&Scope == If->getThen() ? 0 : 1));
    }
  if (!From)
    return No("the if is not in the control-flow graph");
  if (!Branch) // a branch no path takes
    return {};

  llvm::DenseSet<const Stmt *> Inside;
  collect(&Scope, Inside);
  // The edges into the branch that START's place is on: from the if, or
  // from a `||` or `&&` of its condition deciding early.
  llvm::DenseSet<const Stmt *> Deciding{If};
  collect(If->getCond(), Deciding);
  auto Elements = [](const CFGBlock &B) {
    std::vector<const Stmt *> Stmts;
    for (const CFGElement &E : B)
      if (auto S = E.getAs<CFGStmt>())
        Stmts.push_back(S->getStmt());
    return Stmts;
  };

  // 2. Nothing of the scope is reached but through the edge into it. The
  // blocks of the scope reached otherwise are kept: rule 1 is then checked
  // from them too.
  std::vector<const CFGBlock *> Entries;
  {
    llvm::DenseSet<const CFGBlock *> Seen{&Graph->getEntry()};
    std::vector<const CFGBlock *> Work{&Graph->getEntry()};
    while (!Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      // A label of the scope (`done:`, whose block may hold nothing of
      // the scope but the label) or any of its code.
      if (B == Branch || (B->getLabel() && Inside.contains(B->getLabel())) ||
          (B->getTerminatorStmt() && Inside.contains(B->getTerminatorStmt())) ||
          llvm::any_of(Elements(*B), [&](const Stmt *S) { return Inside.contains(S); })) {
        Entries.push_back(B);
        continue;
      }
      for (const CFGBlock *Succ : B->succs())
        if (Succ && !(Succ == Branch && Deciding.contains(B->getTerminatorStmt())) &&
            Seen.insert(Succ).second)
          Work.push_back(Succ);
    }
  }

  // 1. Every path from START passes an END before it leaves the scope.
  auto HasEnd = [&](const Stmt *S) {
    if (const auto *R = dyn_cast<ReturnStmt>(S))
      if (!R->getReturnLoc().isMacroID())
        return true; // END before it
    // A macro that holds a return: END before it when it is an exit; when
    // it is not, its return is warned about and left to the runtime's
    // cleanup, whatever START's place.
    return llvm::any_of(Exits, [&](const MacroExit &C) {
      return &C != &Call && InCall(S, C);
    });
  };
  llvm::DenseSet<const CFGBlock *> Seen{Branch};
  std::vector<const CFGBlock *> Work{Branch};
  for (const CFGBlock *B : Entries)
    if (Seen.insert(B).second)
      Work.push_back(B);
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    if (B == &Graph->getExit())
      return No("a path from START reaches the end of the function without END");
    if (endsPaths(*B, Rules))
      continue;
    bool Stops = false;
    for (const Stmt *S : Elements(*B)) {
      // Left at the scope's end (straight-line code runs on past it in one
      // block), or at an END.
      if (!Inside.contains(S) || HasEnd(S)) {
        Stops = true;
        break;
      }
    }
    if (Stops)
      continue;
    // A jump out of the scope passes no END.
    if (const Stmt *T = B->getTerminatorStmt(); T && Inside.contains(T)) {
      const Stmt *Target = nullptr;
      if (const auto *G = dyn_cast<GotoStmt>(T))
        Target = G->getLabel()->getStmt();
      else if (isa<BreakStmt, ContinueStmt>(T))
        Target = jumpTarget(T, Facts);
      else if (isa<IndirectGotoStmt>(T))
        return No("a computed goto may leave the scope without END");
      if ((isa<GotoStmt, BreakStmt, ContinueStmt>(T)) &&
          (!Target || !Inside.contains(Target)))
        return No("a goto, break or continue leaves the scope without END");
    }
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  if (!Entries.empty())
    return {"a goto enters the scope past START", true};
  return {};
}

} // namespace annotate
