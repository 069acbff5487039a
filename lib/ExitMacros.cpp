//===- ExitMacros.cpp -----------------------------------------------------===//

#include "ExitMacros.h"
#include "AnnotateInternal.h"
#include "Reachability.h"

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <map>

using namespace clang;

namespace annotate {
namespace {

class Analysis {
public:
  Analysis(const SourceText &Text, MacroExit &Call)
      : Text(Text), SM(Text.sourceManager()), Call(Call) {}

  /// Whether S was produced by the call (its body or its arguments).
  bool inCall(const Stmt *S) const {
    if (!S)
      return false;
    SourceLocation Loc = S->getBeginLoc();
    if (!Loc.isMacroID())
      return false;
    auto [FID, Offset] = SM.getDecomposedExpansionLoc(Loc);
    return FID == Text.fileID() && Offset >= Call.Begin && Offset < Call.End;
  }

  /// Every path from the call's statements leaves the function without
  /// running a statement written outside the call.
  bool leavesOnEveryPath(const CFG &Graph, const RuleSet &Rules) {
    // Blocks no path reaches (a `while (0)` after the return) do not count.
    llvm::DenseSet<const CFGBlock *> Reached{&Graph.getEntry()};
    std::vector<const CFGBlock *> Work{&Graph.getEntry()};
    while (!Work.empty()) {
      const CFGBlock *B = Work.back();
      Work.pop_back();
      if (endsPaths(*B, Rules))
        continue;
      for (const CFGBlock *Succ : B->succs())
        if (Succ && Reached.insert(Succ).second)
          Work.push_back(Succ);
    }
    for (const CFGBlock *B : Graph) {
      if (!Reached.contains(B))
        continue;
      std::vector<const Stmt *> Stmts = statementsOf(*B);
      auto First = llvm::find_if(Stmts, [&](const Stmt *S) { return inCall(S); });
      if (First == Stmts.end())
        continue;
      if (!std::all_of(First, Stmts.end(),
                       [&](const Stmt *S) { return inCall(S); }))
        return fail("code written after it runs on some path");
      if (endsPaths(*B, Rules))
        continue;
      llvm::DenseSet<const CFGBlock *> Seen;
      for (const CFGBlock *Succ : B->succs())
        if (Succ && !staysIn(*B, *Succ, Graph, Seen))
          return false;
    }
    return true;
  }

  /// No path reaches a return of the call without passing the call's
  /// start: the statements between the first one and each return are
  /// plain blocks and labels (FUNC_LEAVE_NOAPI closing FUNC_ENTER_NOAPI's
  /// scopes), never an if or a loop that a path could skip.
  bool enteredAtItsStart(const BodyFacts &Facts, const ASTContext &Ctx) {
    llvm::DenseSet<const Stmt *> Chain;
    for (const Stmt *S = Call.First; S; S = Facts.parent(S))
      Chain.insert(S);
    for (const ReturnStmt *R : Call.Returns) {
      const Stmt *Common = R;
      while (Common && !Chain.contains(Common))
        Common = Facts.parent(Common);
      if (Common == Call.First) // the return is inside the first statement
        continue;
      const Stmt *Below = Call.First;
      for (const Stmt *S = Facts.parent(Call.First); S && S != Common;
           Below = S, S = Facts.parent(S))
        if (!isa<CompoundStmt, LabelStmt, SwitchCase, AttributedStmt>(S) &&
            !alwaysTaken(S, Below, Ctx))
          return fail("it returns from a scope that a condition or loop "
                      "before it may skip");
    }
    return true;
  }

  /// END goes right before the call, in the scope that holds the call's
  /// start. A `}` in the call that closes a block opened before it, and
  /// not holding the call's first statement, would leave END inside that
  /// block: `#define CO_END(s) } return -(s)` closes a switch, whose
  /// `break`s reach the return without passing END.
  bool closesNoScopeBefore(const BodyFacts &Facts) {
    llvm::DenseSet<const Stmt *> Holding;
    for (const Stmt *S = Call.First; S; S = Facts.parent(S))
      Holding.insert(S);
    return !closesScope(Facts.body(), Holding) ||
           fail("it closes a scope opened before it, so END cannot go "
                "before it");
  }

  bool fail(const char *Why) {
    Call.Why = Why;
    return false;
  }

private:
  static std::vector<const Stmt *> statementsOf(const CFGBlock &B) {
    std::vector<const Stmt *> Stmts;
    for (const CFGElement &E : B)
      if (auto S = E.getAs<CFGStmt>())
        Stmts.push_back(S->getStmt());
    if (const Stmt *T = B.getTerminatorStmt())
      Stmts.push_back(T);
    return Stmts;
  }

  /// From block From (which ends in the call) to Succ.
  bool staysIn(const CFGBlock &From, const CFGBlock &Succ, const CFG &Graph,
               llvm::DenseSet<const CFGBlock *> &Seen) {
    if (&Succ == &Graph.getExit())
      return leavesOtherwise(From) ||
             fail("control falls off the end of the function after it");
    if (!Seen.insert(&Succ).second)
      return true;
    std::vector<const Stmt *> Stmts = statementsOf(Succ);
    if (!Stmts.empty())
      return inCall(Stmts.front()) ||
             fail("it returns on some paths only; on the others the code "
                  "after it runs");
    // An empty block joins paths: look past it.
    for (const CFGBlock *Next : Succ.succs())
      if (Next && !staysIn(Succ, *Next, Graph, Seen))
        return false;
    return true;
  }

  bool closesScope(const Stmt *S,
                   const llvm::DenseSet<const Stmt *> &Holding) const {
    if (const auto *C = dyn_cast<CompoundStmt>(S); C && !Holding.contains(C)) {
      auto [FID, Close] = SM.getDecomposedExpansionLoc(C->getRBracLoc());
      auto [OpenFID, Open] = SM.getDecomposedExpansionLoc(C->getLBracLoc());
      if (FID == Text.fileID() && OpenFID == FID && Open < Call.Begin &&
          Close >= Call.Begin && Close < Call.End)
        return true;
    }
    for (const Stmt *Child : S->children())
      if (Child && !isa<LambdaExpr, BlockExpr>(Child) &&
          closesScope(Child, Holding))
        return true;
    return false;
  }

  const SourceText &Text;
  const SourceManager &SM;
  MacroExit &Call;
};

/// The first statement in statement position, in source order, that each
/// call produced.
void findFirst(const Stmt *S, const Stmt *Parent,
               std::vector<MacroExit> &Calls, const SourceText &Text) {
  if (isa<LambdaExpr, BlockExpr>(S))
    return;
  if (Parent && isStatementPosition(S, Parent) && S->getBeginLoc().isMacroID()) {
    auto [FID, Offset] =
        Text.sourceManager().getDecomposedExpansionLoc(S->getBeginLoc());
    if (FID == Text.fileID())
      for (MacroExit &C : Calls)
        if (!C.First && Offset >= C.Begin && Offset < C.End)
          C.First = S;
  }
  for (const Stmt *Child : S->children())
    if (Child)
      findFirst(Child, S, Calls, Text);
}

/// Whether a statement may start at Offset: the token before it ends one
/// (`;`, `{`, `}`, a label's `:`), or the statement is a braceless body
/// that the planner braces.
bool startsStatement(const SourceText &Text, const BodyFacts &Facts,
                     const MacroExit &Call, unsigned BodyBegin) {
  if (Facts.bracelessOwner(Facts.slot(Call.First)))
    return true;
  StringRef Buffer = Text.buffer();
  Lexer Lex(Text.sourceManager().getLocForStartOfFile(Text.fileID()),
            Text.langOptions(), Buffer.begin(), Buffer.begin() + BodyBegin,
            Buffer.end());
  Token Tok, Last;
  Last.startToken();
  bool InDirective = false;
  for (Lex.LexFromRawLexer(Tok);
       Tok.isNot(tok::eof) && Text.tokenOffset(Tok) < Call.Begin;
       Lex.LexFromRawLexer(Tok)) {
    // Directive lines (`#endif` right before `FUNC_LEAVE_NOAPI`) are not
    // code.
    if (Tok.isAtStartOfLine())
      InDirective = Tok.is(tok::hash);
    if (!InDirective)
      Last = Tok;
  }
  if (Last.isOneOf(tok::semi, tok::l_brace, tok::r_brace, tok::colon))
    return true;
  // The token before is the end of another macro call: `if (fd < 0)
  // HDONE_ERROR(...)` (a block) or `FUNC_ENTER_NOAPI_NOINIT_NOERR` (ending
  // in `{`) right before the call. The AST says whether a statement ended
  // there: the call's first statement is the first of its block, or the
  // statement before it ends in a block, not before a `;` still to come.
  const Stmt *Slot = Facts.slot(Call.First);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Facts.parent(Slot));
  if (!Block)
    return false;
  const Stmt *Prev = nullptr;
  for (const Stmt *Child : Block->body()) {
    if (Child == Slot)
      return !Prev || !stopsBeforeSemicolon(Prev);
    Prev = Child;
  }
  return false;
}

} // namespace

bool alwaysTaken(const Stmt *S, const Stmt *Branch, const ASTContext &Ctx) {
  const auto *If = dyn_cast<IfStmt>(S);
  bool Value = false;
  if (!If || If->getInit() || If->getConditionVariable() ||
      If->getCond()->isValueDependent() ||
      !If->getCond()->EvaluateAsBooleanCondition(Value, Ctx))
    return false;
  return Branch == (Value ? If->getThen() : If->getElse());
}

std::vector<MacroExit> findMacroExits(const FunctionDecl &FD,
                                      const BodyFacts &Facts,
                                      const SourceText &Text, ASTContext &Ctx,
                                      const RuleSet &Rules) {
  const SourceManager &SM = Text.sourceManager();
  std::map<unsigned, MacroExit> ByBegin;
  for (const ReturnStmt *R : Facts.returns()) {
    SourceLocation Loc = R->getReturnLoc();
    if (!Loc.isMacroID())
      continue;
    CharSourceRange Range = SM.getExpansionRange(Loc);
    auto [FID, Begin] = SM.getDecomposedLoc(Range.getBegin());
    if (FID != Text.fileID())
      continue;
    std::optional<unsigned> Last = Text.offset(Range.getEnd());
    if (!Last)
      continue;
    MacroExit &C = ByBegin[Begin];
    C.Begin = Begin;
    C.End = Text.endOfToken(*Last);
    C.Name = macroNameAt(Loc, SM, Text.langOptions());
    C.Returns.push_back(R);
  }
  std::vector<MacroExit> Calls;
  for (auto &[Begin, C] : ByBegin)
    Calls.push_back(std::move(C));
  if (Calls.empty())
    return Calls;
  findFirst(Facts.body(), nullptr, Calls, Text);

  CFG::BuildOptions Options;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(&FD, FD.getBody(), &Ctx, Options);
  unsigned BodyBegin = *Text.offset(Facts.body()->getLBracLoc());
  for (MacroExit &C : Calls) {
    Analysis A(Text, C);
    C.Listed = llvm::is_contained(Rules.ExitMacros, C.Name);
    if (!C.First)
      A.fail("it does not expand to a statement");
    else if (!startsStatement(Text, Facts, C, BodyBegin))
      A.fail("it does not start a statement");
    else if (!A.closesNoScopeBefore(Facts))
      ;
    else if (C.Listed)
      C.Exit = true;
    else if (!Graph)
      A.fail("Clang built no control-flow graph of the function");
    else if (A.leavesOnEveryPath(*Graph, Rules)) {
      C.Exit = A.enteredAtItsStart(Facts, Ctx);
      C.ScopeMaySkip = !C.Exit;
    }
  }
  return Calls;
}

} // namespace annotate
