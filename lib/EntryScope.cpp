//===- EntryScope.cpp -----------------------------------------------------===//

#include "EntryScope.h"
#include "AnnotateInternal.h"
#include "Reachability.h"
#include "ScopeSpan.h"

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace annotate {

EntryScope findEntryScope(const FunctionDecl &FD, const BodyFacts &Facts,
                          const SourceText &Text, ASTContext &Ctx,
                          const RuleSet &Rules,
                          std::vector<MacroExit> &Exits) {
  EntryScope Result;
  const SourceManager &SM = Text.sourceManager();
  const Stmt *Body = Facts.body();
  // The top-level statement holding an exit macro's END below a condition
  // or loop (a listed macro: the analysis refuses the others), and the
  // first such macro, for the warning.
  const Stmt *Top = nullptr;
  const MacroExit *Exit = nullptr;
  bool SeveralTops = false;
  // Whether a listed exit needs START inside (else only calls that would
  // be exits with START there do: without it they are warned about).
  bool ListedNeeds = false;
  std::vector<MacroExit *> Candidates;
  for (MacroExit &C : Exits) {
    if (!(C.Exit || C.ScopeMaySkip) || !C.First)
      continue;
    // Only a condition or loop that holds END but not the return matters
    // (`if (x) RET(1);` holds both): those below the statement common to
    // the call's first statement and its returns.
    llvm::DenseSet<const Stmt *> Chain;
    for (const Stmt *S = C.First; S; S = Facts.parent(S))
      Chain.insert(S);
    llvm::DenseSet<const Stmt *> Commons;
    for (const ReturnStmt *R : C.Returns) {
      const Stmt *Common = R;
      while (Common && !Chain.contains(Common))
        Common = Facts.parent(Common);
      Commons.insert(Common);
    }
    bool Conditional = false, AboveCommon = false;
    const Stmt *Below = C.First;
    const Stmt *S = Facts.parent(C.First);
    AboveCommon = Commons.contains(C.First);
    for (; S && S != Body; Below = S, S = Facts.parent(S)) {
      AboveCommon |= Commons.contains(S);
      if (!AboveCommon &&
          !isa<CompoundStmt, LabelStmt, SwitchCase, AttributedStmt>(S) &&
          !alwaysTaken(S, Below, Ctx))
        Conditional = true;
    }
    if (!Conditional || S != Body)
      continue;
    if (!Exit)
      Exit = &C;
    ListedNeeds |= C.Exit;
    if (C.ScopeMaySkip)
      Candidates.push_back(&C);
    SeveralTops |= Top && Top != Below;
    Top = Below;
  }
  if (!Exit)
    return Result;
  SourceLocation ExitLoc = SM.getExpansionLoc(Exit->First->getBeginLoc());
  auto Refuse = [&](SourceLocation At, const std::string &Opener,
                    const char *Why) {
    if (!ListedNeeds)
      return Result; // the candidates' returns are warned about
    Result.Refusal = {At, "END before exit macro '" + Exit->Name + "' (" +
                              ExitLoc.printToString(SM) +
                              ") is in a scope that a condition or loop may "
                              "skip, opened by " + Opener +
                              ", and START cannot go inside it (" + Why +
                              "); the span stays open when the scope is "
                              "skipped"};
    return Result;
  };
  if (SeveralTops)
    return Refuse(ExitLoc, "more than one statement",
                  "the exit macros are in different ones");
  if (!Top->getBeginLoc().isMacroID())
    return Refuse(SM.getExpansionLoc(Top->getBeginLoc()),
                  "code written in the function",
                  "its scope is not opened by a macro");
  // The macro call that opens the scope: START goes right after it.
  CharSourceRange Opening = SM.getExpansionRange(Top->getBeginLoc());
  auto [FID, OpenBegin] = SM.getDecomposedLoc(Opening.getBegin());
  std::optional<unsigned> OpenLast = Text.offset(Opening.getEnd());
  std::optional<unsigned> TopLast =
      Text.offset(SM.getExpansionRange(Top->getEndLoc()).getEnd());
  std::string Opener =
      "macro '" + macroNameAt(Top->getBeginLoc(), SM, Text.langOptions()) +
      "' at " + Opening.getBegin().printToString(SM);
  if (FID != Text.fileID() || !OpenLast || !TopLast)
    return Refuse(Opening.getBegin(), Opener, "it is not written in this file");
  unsigned OpenEnd = Text.endOfToken(*OpenLast);
  unsigned TopEnd = Text.endOfToken(*TopLast);
  // Every END must then be inside the scope, after the opening macro: no
  // return before it or after the scope, no fall off the closing brace.
  if (canFallOffEnd(FD, Ctx, Rules))
    return Refuse(Opening.getBegin(), Opener,
                  "control may reach the function's closing brace");
  for (const ReturnStmt *R : Facts.returns()) {
    std::optional<unsigned> At;
    if (R->getReturnLoc().isMacroID()) {
      for (const MacroExit &C : Exits)
        if ((C.Exit || C.ScopeMaySkip) && llvm::is_contained(C.Returns, R))
          At = C.Begin;
      if (!At) // no END: a warning says so
        continue;
    } else {
      At = Text.offset(SM.getExpansionLoc(R->getBeginLoc()));
    }
    if (!At || *At < OpenEnd || *At >= TopEnd)
      return Refuse(At ? SM.getComposedLoc(Text.fileID(), *At)
                       : SM.getExpansionLoc(R->getBeginLoc()),
                    Opener, "a return outside it needs an END too");
  }
  // The calls that are exits only with START inside: decided on the CFG
  // with START first in the scope the opening macro leaves open.
  if (!Candidates.empty()) {
    std::string Why;
    bool EnteredPastStart = false;
    const CompoundStmt *Scope = nullptr;
    for (const Stmt *S = Candidates.front()->First; S && S != Top;
         S = Facts.parent(S))
      if (const auto *C = dyn_cast<CompoundStmt>(S)) {
        auto [CFID, LBrace] = SM.getDecomposedExpansionLoc(C->getLBracLoc());
        if (CFID == FID && LBrace >= OpenBegin && LBrace < OpenEnd) {
          Scope = C;
          break;
        }
      }
    if (Candidates.size() > 1)
      Why = "more than one macro call returns from the scope";
    else if (!Scope)
      Why = "the opening macro opens no scope holding it";
    else if (llvm::any_of(Scope->body(), [&](const Stmt *S) {
               // In translation-unit order: a statement of a file the body
               // #includes after the macro (HDF5's H5Einit.h) comes after.
               return SM.isBeforeInTranslationUnit(
                   SM.getExpansionLoc(S->getBeginLoc()),
                   SM.getComposedLoc(FID, OpenEnd));
             }))
      Why = "the opening macro's own statements follow where START would go";
    else {
      ScopeSpanVerdict V = spanClosedInScope(FD, *Scope, *Candidates.front(),
                                             Facts, Text, Ctx, Rules, Exits);
      Why = std::move(V.Why);
      EnteredPastStart = V.EnteredPastStart && !ListedNeeds;
    }
    for (MacroExit *C : Candidates) {
      if (Why.empty() || EnteredPastStart) {
        C->Exit = true;
        C->Why.clear();
      } else {
        C->Why = "it returns from a scope that a condition before it may "
                 "skip, and with START inside that scope " + Why;
      }
    }
    if (EnteredPastStart) {
      // START stays at the top: it then comes before the goto, and every
      // path into the scope ends its span at an END (ScopeSpan.h). Only
      // the path that skips the scope returns without END: said once per
      // function, in words without places, so that a library's many such
      // functions make one warning line.
      Result.Refusal = {
          SM.getComposedLoc(Text.fileID(), Candidates.front()->Begin),
          "exit macro '" + Candidates.front()->Name +
              "' returns from a scope that a condition before it may skip, "
              "and a goto enters that scope, so START stays at the top of "
              "the function and END goes before the macro; on the path "
              "that skips the scope the span is closed by its caller's END "
              "or the runtime's cleanup"};
      return Result;
    }
    if (!Why.empty() && !ListedNeeds)
      return Result;
  }
  Result.Inside = true;
  Result.OpenBegin = OpenBegin;
  Result.OpenEnd = OpenEnd;
  return Result;
}

} // namespace annotate
