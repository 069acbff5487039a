//===- FunctionStripper.cpp - One function's annotations out again -------===//

#include "FunctionStripper.h"
#include "BodyFacts.h"
#include "Braces.h"
#include "ConditionalCalls.h"
#include "EntryScope.h"
#include "ExitMacros.h"
#include "NestedEdits.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace annotate {
namespace {

bool isBlank(char C) { return C == ' ' || C == '\t'; }

/// A statement of a block, labels (`case 1:`, `done:`) and attributes in
/// front of it taken off.
struct Unit {
  const Stmt *S = nullptr;
  /// Where it is written (a macro's statement: the macro call); none when
  /// not in this file.
  std::optional<unsigned> Begin;
  bool Labelled = false;
};

/// A statement of the rule set found in a block: [Begin, End) covers units
/// FirstUnit..LastUnit (a macro may expand to several statements).
struct Found {
  StatementKind Kind;
  unsigned Begin, End;
  size_t FirstUnit, LastUnit;
};

/// Statements of one family with only white space between them (rule 2).
struct Group {
  std::vector<Found> Statements;
  bool opens() const { return opensSpan(Statements.front().Kind); }
  unsigned begin() const { return Statements.front().Begin; }
  unsigned end() const { return Statements.back().End; }
  size_t firstUnit() const { return Statements.front().FirstUnit; }
  size_t lastUnit() const { return Statements.back().LastUnit; }
  size_t count(StatementKind K) const {
    return llvm::count_if(Statements,
                          [K](const Found &F) { return F.Kind == K; });
  }
  /// Kinds in the order annotate writes them.
  bool ordered() const {
    return llvm::is_sorted(Statements, [](const Found &A, const Found &B) {
      return A.Kind < B.Kind;
    });
  }
};

/// A compound statement of the function.
struct Block {
  const CompoundStmt *C = nullptr;
  /// The if/for/while/do whose body C is.
  const Stmt *Owner = nullptr;
  bool IsBody = false;
  std::vector<Unit> Units;
  std::vector<Group> Groups;
  /// A value return annotate hoisted (rule 3), once recognised.
  std::optional<Edit> Hoisted;
  /// Where Hoisted's text copies the value, whose own annotations (a
  /// return in a statement expression) are taken out of the copy.
  EditWindow Value{0, 0, 0, 0};
};

/// Whether S, as the only statement of braces that go, would take an else
/// that follows them: `if (a) { if (b) f(); } else g();`.
bool endsInElselessIf(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() || endsInElselessIf(If->getElse());
  if (const auto *For = dyn_cast<ForStmt>(S))
    return endsInElselessIf(For->getBody());
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return endsInElselessIf(While->getBody());
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return endsInElselessIf(Range->getBody());
  if (const auto *Label = dyn_cast<LabelStmt>(S))
    return endsInElselessIf(Label->getSubStmt());
  return false;
}

/// Whether S calls one of Names (MPI_Init, ...), however deep.
bool calls(const Stmt *S, llvm::ArrayRef<std::string> Names) {
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (llvm::is_contained(Names, calleeName(Call)))
      return true;
  return llvm::any_of(S->children(), [&](const Stmt *Child) {
    return Child && calls(Child, Names);
  });
}

/// The edits of one function, or the reasons it keeps its annotations.
class FunctionStripper {
public:
  FunctionStripper(PlanContext &PC, const SourceText &Text,
                   const StripPatterns &Patterns, const FunctionDecl &FD)
      : PC(PC), Text(Text), Patterns(Patterns), FD(FD),
        SM(Text.sourceManager()), Body(cast<CompoundStmt>(FD.getBody())) {}

  /// Fills Edits; false when the function keeps its annotations.
  bool plan(std::vector<Edit> &Edits);

private:
  void walk(const Stmt *S);
  void exclude(SourceRange R);
  void findStatements(Block &B);
  void findHoisted(Block &B);
  bool placedAsAnnotateDoes(const Block &B, const Group &G);
  Edit removeGroup(const Group &G) const;
  void planBraces(const Block &B, std::vector<Edit> &Edits);
  void checkMarkers();

  std::optional<unsigned> offset(SourceLocation Loc) const {
    return Text.offset(SM.getExpansionLoc(Loc));
  }
  SourceLocation location(unsigned Offset) const {
    return SM.getComposedLoc(Text.fileID(), Offset);
  }
  std::string name() const { return FD.getQualifiedNameAsString(); }
  /// The macro calls holding returns, decided as the planner decides them:
  /// with START's place (a call that is an exit only with START inside the
  /// scope an entry macro opens, EntryScope.h).
  std::vector<MacroExit> &exits() {
    if (!MacroExits) {
      BodyFacts Facts(Body);
      MacroExits =
          findMacroExits(FD, Facts, Text, PC.Ctx, PC.Options.Rules);
      findEntryScope(FD, Facts, Text, PC.Ctx, PC.Options.Rules, *MacroExits);
    }
    return *MacroExits;
  }
  void refuse(unsigned Offset, const llvm::Twine &Why) {
    PC.Diags.unremoved(location(Offset),
                       Why + "; '" + name() + "' keeps its annotations");
    Refused = true;
  }
  /// Offset of the line break ending the line before the one at LineStart
  /// (its `\r` when it is a CRLF).
  unsigned lineBreakBefore(unsigned LineStart) const {
    unsigned At = LineStart - 1;
    return At > 0 && Text.buffer()[At - 1] == '\r' ? At - 1 : At;
  }
  /// Offset just past the line break ending the line of Offset when only
  /// white space follows Offset on it.
  std::optional<unsigned> blankToLineEnd(unsigned Offset) const {
    StringRef Rest = Text.buffer().substr(Offset);
    size_t NL = Rest.find('\n');
    if (NL == StringRef::npos ||
        Rest.take_front(NL).find_first_not_of(" \t\r\f\v") != StringRef::npos)
      return std::nullopt;
    return Offset + NL + 1;
  }

  PlanContext &PC;
  const SourceText &Text;
  const StripPatterns &Patterns;
  const FunctionDecl &FD;
  const SourceManager &SM;
  const CompoundStmt *Body;
  std::vector<Block> Blocks;
  /// Bodies of lambdas and local classes: functions of their own.
  Ranges Excluded;
  /// What rules 1-3 accounted for: every marker must lie in one.
  Ranges Accounted;
  bool Refused = false;
  /// The macro calls holding returns, found when an END needs them.
  std::optional<std::vector<MacroExit>> MacroExits;
};

void FunctionStripper::exclude(SourceRange R) {
  std::optional<unsigned> B = offset(R.getBegin()), E = offset(R.getEnd());
  if (B && E)
    Excluded.push_back({*B, *E + 1});
}

void FunctionStripper::walk(const Stmt *S) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(Child)) {
      exclude(L->getBody()->getSourceRange());
      continue;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(Child))
      for (const Decl *D : DS->decls())
        if (isa<TagDecl>(D))
          exclude(D->getSourceRange());
    if (const auto *C = dyn_cast<CompoundStmt>(Child)) {
      Block B;
      B.C = C;
      if (isControlStatement(S) && llvm::is_contained(controlBodies(S), Child))
        B.Owner = S;
      Blocks.push_back(std::move(B));
    }
    walk(Child);
  }
}

void FunctionStripper::findStatements(Block &B) {
  for (const Stmt *Child : B.C->body()) {
    Unit U;
    const Stmt *S = Child;
    for (;;) {
      if (const auto *L = dyn_cast<LabelStmt>(S))
        S = L->getSubStmt();
      else if (const auto *SC = dyn_cast<SwitchCase>(S))
        S = SC->getSubStmt();
      else if (const auto *A = dyn_cast<AttributedStmt>(S))
        S = A->getSubStmt();
      else
        break;
      U.Labelled = true;
    }
    U.S = S;
    U.Begin = offset(S->getBeginLoc());
    B.Units.push_back(U);
  }
  std::vector<Found> All;
  for (size_t K = 0; K < B.Units.size();) {
    const Unit &U = B.Units[K];
    auto M = U.Begin ? Patterns.match(Text, *U.Begin) : std::nullopt;
    if (!M) {
      ++K;
      continue;
    }
    // A macro may expand to several statements (Score-P's BEGIN declares
    // a handle and calls): they all start at the call.
    size_t Last = K;
    while (Last + 1 < B.Units.size() && !B.Units[Last + 1].Labelled &&
           B.Units[Last + 1].Begin && *B.Units[Last + 1].Begin < M->End)
      ++Last;
    All.push_back({M->Kind, *U.Begin, M->End, K, Last});
    K = Last + 1;
  }
  for (const Found &F : All) {
    if (!B.Groups.empty()) {
      Group &G = B.Groups.back();
      const Found &Prev = G.Statements.back();
      StringRef Between = Text.buffer().slice(Prev.End, F.Begin);
      if (F.FirstUnit == Prev.LastUnit + 1 && opensSpan(F.Kind) == G.opens() &&
          Between.find_first_not_of(" \t\r\n\f\v") == StringRef::npos) {
        G.Statements.push_back(F);
        continue;
      }
    }
    B.Groups.push_back({{F}});
  }
}

/// Rule 3: `{ T annotate_ret =G1(E)G2; END(); return annotate_ret; }`.
void FunctionStripper::findHoisted(Block &B) {
  ArrayRef<const Stmt *> Children(B.C->body_begin(), B.C->body_end());
  if (B.IsBody || Children.size() < 3 || B.Groups.size() != 1)
    return;
  const Group &G = B.Groups.front();
  if (G.opens() || G.firstUnit() != 1 || G.lastUnit() != Children.size() - 2 ||
      llvm::any_of(B.Units, [](const Unit &U) { return U.Labelled; }))
    return;
  const auto *Return = dyn_cast<ReturnStmt>(Children.back());
  if (!Return)
    return;
  const ParenExpr *Value = nullptr;
  const VarDecl *Var = nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(Children.front())) {
    Var = DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (!Var || !Var->getInit())
      return;
    Value = dyn_cast<ParenExpr>(Var->getInit()->IgnoreImplicit());
    const auto *Ref =
        Return->getRetValue()
            ? dyn_cast<DeclRefExpr>(Return->getRetValue()->IgnoreImpCasts())
            : nullptr;
    StringRef Name = Var->getName();
    const std::string &Base = PC.Options.Rules.ReturnVariable;
    bool Named =
        Name.consume_front(Base) &&
        (Name.empty() ||
         (Name.consume_front("_") && !Name.empty() &&
          llvm::all_of(Name, [](char C) { return llvm::isDigit(C); })));
    if (!Value || !Ref || Ref->getDecl() != Var || !Named)
      return;
  } else if (const auto *E = dyn_cast<Expr>(Children.front())) {
    Value = dyn_cast<ParenExpr>(E->IgnoreImplicit());
    if (!Value || Return->getRetValue())
      return;
  } else {
    return;
  }

  // The shape is annotate's: what it wrote around E must be all there is.
  std::optional<unsigned> LBrace = Text.offset(B.C->getLBracLoc());
  std::optional<unsigned> RBrace = Text.offset(B.C->getRBracLoc());
  std::optional<unsigned> LParen = Text.offset(Value->getLParen());
  std::optional<unsigned> RParen = Text.offset(Value->getRParen());
  if (!LBrace || !RBrace || !LParen || !RParen)
    return;
  auto Refuse = [&] {
    refuse(*LBrace,
           "the value return is not in the form annotate writes "
           "(`{ T " +
               PC.Options.Rules.ReturnVariable + " = (E); END; return " +
               PC.Options.Rules.ReturnVariable + "; }`, no comment in it)");
    Accounted.push_back({*LBrace, *RBrace});
  };
  // Only white space and comments (moved there from `return /*c*/ E`)
  // between `=` (void: `{`) and `(`.
  unsigned ValueStart = *LBrace + 1;
  if (Var) {
    std::optional<unsigned> NameAt = Text.offset(Var->getLocation());
    auto Equal = NameAt ? Text.rawTokenAt(Text.endOfToken(*NameAt), false)
                        : std::nullopt;
    if (!Equal || Equal->isNot(tok::equal))
      return Refuse();
    ValueStart = Text.tokenOffset(*Equal) + 1;
  }
  auto First = Text.rawTokenAt(ValueStart, /*KeepComments=*/false);
  auto Semi = Text.rawTokenAt(*RParen + 1, /*KeepComments=*/false);
  if (!First || Text.tokenOffset(*First) != *LParen || !Semi ||
      Semi->isNot(tok::semi))
    return Refuse();
  unsigned SemiAt = Text.tokenOffset(*Semi);
  // No comment the block would lose: before `=` and after the `;`.
  auto HasComment = [&](unsigned From, unsigned To) {
    for (unsigned At = From; At < To;) {
      auto Tok = Text.rawTokenAt(At, /*KeepComments=*/true);
      if (!Tok || Text.tokenOffset(*Tok) >= To)
        return false;
      if (Tok->is(tok::comment))
        return true;
      At = Text.tokenOffset(*Tok) + Tok->getLength();
    }
    return false;
  };
  if ((Var && HasComment(*LBrace + 1, ValueStart)) ||
      HasComment(SemiAt + 1, *RBrace) ||
      PC.PP.hasDirectiveBetween(Text.fileID(), *LBrace, *RBrace))
    return Refuse();

  StringRef Buffer = Text.buffer();
  std::string Written = "return" + Buffer.slice(ValueStart, *LParen).str() +
                        Buffer.slice(*LParen + 1, *RParen).str() +
                        Buffer.slice(*RParen + 1, SemiAt).str() + ";";
  Edit E{*LBrace, *RBrace + 1 - *LBrace, Written, EditRank::Statement};
  E.Removes.Statements = G.Statements.size();
  E.Removes.Returns = 1;
  B.Hoisted = E;
  B.Value = {0, *LParen + 1, *RParen,
             6 + static_cast<size_t>(*LParen - ValueStart)}; // "return"
  Accounted.push_back({*LBrace, *RBrace + 1});
}

/// Rule 1.
bool FunctionStripper::placedAsAnnotateDoes(const Block &B, const Group &G) {
  const RuleSet &Rules = PC.Options.Rules;
  StringRef What = describe(G.Statements.front().Kind);
  size_t First = G.firstUnit(), Next = G.lastUnit() + 1;
  if (G.opens()) {
    if (G.count(StatementKind::Start) != 1 ||
        G.count(StatementKind::Init) > 1 ||
        G.count(StatementKind::Category) > 1 || !G.ordered()) {
      refuse(G.begin(), "INIT, START, METADATA and the category update are "
                        "not in the order annotate writes them");
      return false;
    }
    bool AfterInitCall = FD.isMain() && First > 0 &&
                         G.Statements.front().Kind == StatementKind::Init &&
                         !B.Units[First].Labelled &&
                         calls(B.Units[First - 1].S, Rules.InitAfterCalls);
    // Or on the line after the #endif of a block that starts MPI (optional
    // MPI, ConditionalCalls.h).
    // (on the next line, or with --line-directives in front of the first
    // statement after it: only white space between).
    bool AfterInitBlock =
        FD.isMain() && B.IsBody && !B.Units[First].Labelled &&
        G.Statements.front().Kind == StatementKind::Init &&
        llvm::any_of(conditionalsCalling(*Body, Text, PC.PP,
                                         Rules.InitAfterCalls),
                     [&](const std::pair<unsigned, unsigned> &C) {
                       return C.second < G.begin() &&
                              Text.buffer()
                                      .slice(C.second, G.begin())
                                      .find_first_not_of(" \t\r\n") ==
                                  StringRef::npos;
                     });
    if (B.IsBody && !B.Units[First].Labelled &&
        (First == 0 || AfterInitCall || AfterInitBlock))
      return true;
    // First in the scope an entry macro opens, right after the macro
    // (EntryScope.h).
    if (!B.IsBody && First == 0 && !B.Units[First].Labelled &&
        B.C->getLBracLoc().isMacroID()) {
      BodyFacts Facts(Body);
      EntryScope Scope =
          findEntryScope(FD, Facts, Text, PC.Ctx, Rules, exits());
      const SourceManager &SM = Text.sourceManager();
      std::optional<unsigned> Opening = Text.offset(
          SM.getExpansionRange(B.C->getLBracLoc()).getEnd());
      if (Scope.Inside && Opening &&
          Text.endOfToken(*Opening) == Scope.OpenEnd)
        return true;
    }
    bool Init = FD.isMain() && !Rules.Init.empty();
    refuse(G.begin(), What +
                          " is not where annotate writes it: first in the "
                          "body" +
                          (Init ? ", or after the statement calling " +
                                      llvm::join(Rules.InitAfterCalls, "/") +
                                      " or the #endif of a block calling it"
                                : std::string()));
    return false;
  }
  if (G.count(StatementKind::End) != 1 || G.count(StatementKind::Fini) > 1 ||
      !G.ordered()) {
    refuse(G.begin(), "END and FINI are not in the order annotate writes them");
    return false;
  }
  bool BeforeReturn = Next < B.Units.size() && !B.Units[Next].Labelled &&
                      isa<ReturnStmt>(B.Units[Next].S);
  bool AtClosingBrace = B.IsBody && Next == B.Units.size();
  bool InMain =
      FD.isMain() && G.count(StatementKind::Fini) == 1 && Next < B.Units.size();
  // Before a macro call that leaves the function (ExitMacros.h), as
  // annotate writes it there.
  bool BeforeExitMacro = false;
  if (!BeforeReturn && Next < B.Units.size() && !B.Units[Next].Labelled &&
      B.Units[Next].Begin) {
    BeforeExitMacro = llvm::any_of(exits(), [&](const MacroExit &C) {
      return C.Exit && C.Begin == *B.Units[Next].Begin;
    });
  }
  if (BeforeReturn || BeforeExitMacro || AtClosingBrace || InMain)
    return true;
  refuse(G.begin(), What + " is neither right before a return nor right "
                           "before the closing brace of the function");
  return false;
}

/// Rule 2.
Edit FunctionStripper::removeGroup(const Group &G) const {
  StringRef Buffer = Text.buffer();
  unsigned Begin = G.begin(), End = G.end();
  unsigned LineStart = Text.lineStart(Begin);
  Edit E;
  E.Removes.Statements = G.Statements.size();
  // --line-directives, optional MPI: " INIT(); START(); " in front of the
  // first statement after the #endif of the block starting MPI (nothing
  // but white space between); its spaces go with it.
  if (G.opens() && Begin > 0 && isBlank(Buffer[Begin - 1]) &&
      End + 1 < Buffer.size() && isBlank(Buffer[End]) &&
      !llvm::isSpace(Buffer[End + 1]))
    if (const auto *Facts = PC.PP.facts(Text.fileID()))
      if (llvm::any_of(Facts->Conditionals, [&](const auto &C) {
            return C.second < Begin &&
                   Buffer.slice(C.second, Begin).find_first_not_of(" \t\r\n") ==
                       StringRef::npos;
          })) {
        E.Offset = Begin - 1;
        E.Length = End + 1 - E.Offset;
        return E;
      }
  if (G.opens() && Text.isFirstOnLine(Begin) && LineStart > 0) {
    // "\n<indent>START();" after `{`: the line break before it.
    E.Offset = lineBreakBefore(LineStart);
    E.Length = End - E.Offset;
    return E;
  }
  if (!G.opens() && Text.isFirstOnLine(Begin))
    if (std::optional<unsigned> Next = blankToLineEnd(End)) {
      // "<indent>END();\n" before a return or `}`: its line.
      E.Offset = LineStart;
      E.Length = *Next - LineStart;
      return E;
    }
  // Inline: annotate wrote " START();" and "END(); " (or " END();" before a
  // `}` that had no space before it).
  bool SpaceAfter = End < Buffer.size() && isBlank(Buffer[End]);
  bool SpaceBefore = Begin > 0 && isBlank(Buffer[Begin - 1]);
  if (G.opens() ? SpaceBefore : !SpaceAfter && SpaceBefore)
    --Begin;
  else if (SpaceAfter)
    ++End;
  E.Offset = Begin;
  E.Length = End - Begin;
  return E;
}

/// Rule 4.
void FunctionStripper::planBraces(const Block &B, std::vector<Edit> &Edits) {
  std::optional<unsigned> LBrace = Text.offset(B.C->getLBracLoc());
  std::optional<unsigned> RBrace = Text.offset(B.C->getRBracLoc());
  if (!B.Owner || !LBrace || !RBrace)
    return;
  auto Marker = Text.rawTokenAt(*LBrace + 1, /*KeepComments=*/true);
  if (!Marker || Marker->isNot(tok::comment) ||
      !Text.sameLine(*LBrace, Text.tokenOffset(*Marker)) ||
      Text.buffer().substr(Text.tokenOffset(*Marker), Marker->getLength()) !=
          AddedBraceMarker)
    return;
  unsigned MarkerEnd = Text.tokenOffset(*Marker) + Marker->getLength();
  size_t Left = B.Units.size();
  for (const Group &G : B.Groups)
    Left -= G.lastUnit() + 1 - G.firstUnit();
  const Stmt *Only = nullptr;
  if (Left == 1)
    for (size_t K = 0; K < B.Units.size(); ++K)
      if (llvm::none_of(B.Groups, [K](const Group &G) {
            return G.firstUnit() <= K && K <= G.lastUnit();
          }))
        Only = B.C->body_begin()[K];
  const auto *If = dyn_cast<IfStmt>(B.Owner);
  std::string Why;
  if (!Only)
    Why = "they hold " + std::to_string(Left) + " statements now";
  else if (isa<DeclStmt>(Only))
    Why = "they hold a declaration now";
  else if (If && If->getThen() == B.C && If->getElse() &&
           endsInElselessIf(Only))
    Why = "without them the else would belong to the inner if";
  else if (PC.PP.hasDirectiveBetween(Text.fileID(), *LBrace, *RBrace))
    Why = "a preprocessor directive lies inside them";
  else if (!offset(tokenBeforeBody(B.C, B.Owner)))
    Why = "the controlling statement comes from a macro expansion";
  if (!Why.empty()) {
    PC.Diags.warn(location(*LBrace), "braces annotate added are kept (" + Why +
                                         "); their " + AddedBraceMarker +
                                         " goes");
    Edits.push_back({*LBrace + 1, MarkerEnd - *LBrace - 1, "", 0});
    return;
  }
  // ` { /* annotate */` after the controlling token, `}` (on its own line
  // or not) after the body: with the white space before each.
  auto WhiteBefore = [&](unsigned Offset) {
    while (Offset > 0 && llvm::isSpace(Text.buffer()[Offset - 1]))
      --Offset;
    return Offset;
  };
  Edit Open{WhiteBefore(*LBrace), 0, "", 0};
  Open.Length = MarkerEnd - Open.Offset;
  Open.Removes.Braces = 1;
  Edit Close{WhiteBefore(*RBrace), 0, "", 0};
  Close.Length = *RBrace + 1 - Close.Offset;
  Edits.push_back(Open);
  Edits.push_back(Close);
}

/// Rule 5: every marker expansion of the function is one rules 1-3 took.
void FunctionStripper::checkMarkers() {
  const PreprocessorIndex::FileFacts *Facts = PC.PP.facts(Text.fileID());
  std::optional<unsigned> Begin = Text.offset(Body->getLBracLoc());
  std::optional<unsigned> End = Text.offset(Body->getRBracLoc());
  if (!Facts || !Begin || !End)
    return;
  for (const PreprocessorIndex::MacroUse &M : Facts->Markers) {
    if (M.Offset <= *Begin || M.Offset >= *End ||
        inRanges(Accounted, M.Offset) || inRanges(Excluded, M.Offset))
      continue;
    refuse(M.Offset, M.Within.empty()
                         ? M.Name + " is not a statement of its own where "
                                    "annotate writes it"
                         : M.Name + " is expanded inside macro '" + M.Within +
                               "', which annotate never writes");
    Accounted.push_back({M.Offset, M.Offset + 1});
  }
}

bool FunctionStripper::plan(std::vector<Edit> &Edits) {
  Block Top;
  Top.C = Body;
  Top.IsBody = true;
  Blocks.push_back(std::move(Top));
  walk(Body);
  for (Block &B : Blocks) {
    findStatements(B);
    findHoisted(B);
  }
  std::vector<EditWindow> Values;
  for (Block &B : Blocks) {
    if (B.Hoisted) {
      Values.push_back(B.Value);
      Values.back().Edit = Edits.size();
      Edits.push_back(*B.Hoisted);
      continue;
    }
    for (const Group &G : B.Groups) {
      Accounted.push_back({G.begin(), G.end()});
      if (placedAsAnnotateDoes(B, G))
        Edits.push_back(removeGroup(G));
    }
  }
  checkMarkers();
  if (Refused) {
    Edits.clear();
    return false;
  }
  for (const Block &B : Blocks)
    planBraces(B, Edits);
  if (!foldNestedEdits(Edits, std::move(Values), Text.buffer()).empty()) {
    refuse(Edits.front().Offset, "its annotations overlap where they would "
                                 "be taken out");
    Edits.clear();
    return false;
  }
  // The rules never make edits that overlap; if user edits fooled them,
  // taking nothing out is the safe answer.
  llvm::sort(Edits,
             [](const Edit &A, const Edit &B) { return A.Offset < B.Offset; });
  for (size_t I = 1; I < Edits.size(); ++I)
    if (Edits[I - 1].Offset + Edits[I - 1].Length > Edits[I].Offset) {
      refuse(Edits[I].Offset, "its annotations overlap where they would be "
                              "taken out");
      Edits.clear();
      return false;
    }
  return true;
}

} // namespace

bool stripFunction(PlanContext &PC, const SourceText &Text,
                   const StripPatterns &Patterns, const FunctionDecl &FD,
                   std::vector<Edit> &Edits) {
  return FunctionStripper(PC, Text, Patterns, FD).plan(Edits);
}

} // namespace annotate
