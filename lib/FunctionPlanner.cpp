//===- FunctionPlanner.cpp - The edits that annotate one function ---------===//

#include "FunctionPlanner.h"
#include "Braces.h"
#include "ConditionalCalls.h"
#include "EntryScope.h"
#include "Reachability.h"
#include "ReturnClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace annotate {

FunctionPlanner::FunctionPlanner(PlanContext &PC, const SourceText &Text,
                                 const FunctionDecl &FD)
    : PC(PC), Text(Text), FD(FD), Body(cast<CompoundStmt>(FD.getBody())),
      Facts(Body) {}

bool FunctionPlanner::plan(FileEdits &Out) {
  bool Planned = FD.isMain()                        ? planMain()
                 : PC.Ctx.getLangOpts().CPlusPlus ? planGuard()
                                                  : planBody();
  if (!Planned)
    return false;
  if (PC.Options.Braces == BracePolicy::All)
    braceEverything();
  composeNestedEdits();
  for (Edit &E : Edits)
    Out.add(std::move(E));
  return true;
}

void FunctionPlanner::composeNestedEdits() {
  for (const Edit &E :
       foldNestedEdits(Edits, std::move(ValueWindows), Text.buffer()))
    PC.Diags.warn(
        Text.sourceManager().getComposedLoc(Text.fileID(), E.Offset),
        "edits inside a returned value overlap; dropped");
}

unsigned FunctionPlanner::afterOpeningBrace() const {
  unsigned LBrace = *Text.offset(Body->getLBracLoc());
  if (PC.Options.LineDirectives)
    return LBrace + 1; // inline, so before a comment ending the line
  return Text.afterTrailingComment(LBrace + 1).Offset;
}

std::string FunctionPlanner::bodyIndent() const {
  unsigned LBrace = *Text.offset(Body->getLBracLoc());
  if (!Body->body_empty()) {
    SourceLocation First =
        Text.sourceManager().getExpansionLoc(Body->body_front()->getBeginLoc());
    if (std::optional<unsigned> At = Text.offset(First);
        At && !Text.sameLine(LBrace, *At))
      return Text.indentOfLine(*At).str();
  }
  // No statement to copy from (an empty body, or one whose statements this
  // configuration skips): one level deeper than the brace, in the brace
  // line's own kind of indent, so a tab-indented file gets no spaces.
  StringRef BraceIndent = Text.indentOfLine(LBrace);
  return BraceIndent.str() + (BraceIndent.contains('\t') ? "\t" : "    ");
}

std::optional<unsigned> FunctionPlanner::offsetOf(const Stmt *S) const {
  return Text.offset(Text.sourceManager().getExpansionLoc(S->getBeginLoc()));
}

std::string FunctionPlanner::linesText(unsigned Offset, StringRef Indent,
                                       ArrayRef<std::string> Lines) const {
  std::string Before = PC.Options.LineDirectives
                           ? " "
                           : (Text.lineBreakAt(Offset) + Indent).str();
  std::string Inserted;
  for (const std::string &Line : Lines)
    Inserted += Before + Line;
  return Inserted;
}


bool FunctionPlanner::insertBefore(const Stmt *Target, unsigned Offset,
                                   ArrayRef<std::string> Lines,
                                   StringRef What) {
  SourceLocation Loc = Text.sourceManager().getComposedLoc(Text.fileID(), Offset);
  const Stmt *Slot = Facts.slot(Target);
  if (const Stmt *Owner = Facts.bracelessOwner(Slot);
      Owner && !BracedSlots.contains(Slot)) {
    if (PC.Options.Braces == BracePolicy::None) {
      PC.Diags.warn(Loc, What + " needs braces around the body it lands in, "
                               "which --braces=none forbids; not inserted");
      return false;
    }
    auto Pair = planBraces(Slot, Owner, Text, PC.PP, Facts.controlDepth(Owner),
                           PC.Options.LineDirectives);
    if (!Pair) {
      PC.Diags.warn(Loc, "cannot brace the body for " + What + ": " +
                             llvm::toString(Pair.takeError()) +
                             "; not inserted");
      return false;
    }
    Edits.push_back(Pair->Open);
    Edits.push_back(Pair->Close);
    BracedSlots.insert(Slot);
  }
  std::string Inserted;
  if (Text.isFirstOnLine(Offset) && !PC.Options.LineDirectives) {
    std::string After = (Text.lineBreakAt(Offset) + Text.indentOfLine(Offset)).str();
    for (const std::string &Line : Lines)
      Inserted += Line + After;
  } else {
    for (const std::string &Line : Lines)
      Inserted += Line + " ";
  }
  Edits.push_back({Offset, 0, Inserted, EditRank::Statement});
  return true;
}

std::string FunctionPlanner::uniqueReturnVariable(StringRef ExprText) const {
  const std::string &Base = PC.Options.Rules.ReturnVariable;
  auto Mentions = [&](StringRef Name) {
    for (size_t At = ExprText.find(Name); At != StringRef::npos;
         At = ExprText.find(Name, At + 1)) {
      bool Starts =
          At == 0 || (!llvm::isAlnum(ExprText[At - 1]) && ExprText[At - 1] != '_');
      size_t After = At + Name.size();
      bool Ends = After == ExprText.size() ||
                  (!llvm::isAlnum(ExprText[After]) && ExprText[After] != '_');
      if (Starts && Ends)
        return true;
    }
    return false;
  };
  std::string Name = Base;
  for (unsigned N = 1; Mentions(Name); ++N)
    Name = Base + "_" + std::to_string(N);
  return Name;
}

void FunctionPlanner::closeBeforeReturn(const ReturnStmt *R,
                                        ArrayRef<std::string> Ends) {
  const SourceManager &SM = Text.sourceManager();
  SourceLocation ReturnLoc = R->getReturnLoc();
  std::optional<unsigned> Begin = Text.offset(ReturnLoc);
  if (!Begin) {
    if (ReturnLoc.isMacroID())
      closeBeforeMacroExit(R, Ends);
    else
      PC.Diags.warn(ReturnLoc, "return written in another file cannot be "
                               "annotated; the span is closed by the "
                               "runtime's cleanup when it runs");
    return;
  }
  const Expr *Value = R->getRetValue();
  if (isSimpleReturnValue(Value)) {
    insertBefore(R, *Begin, Ends, "END before return");
    return;
  }

  // The value may do work: compute it inside the span, close, return it.
  auto Range = Text.statementRange(R->getSourceRange(),
                                   SourceText::Semicolon::Required);
  CharSourceRange ValueRange = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Value->getSourceRange()), SM,
      Text.langOptions());
  std::optional<unsigned> ValueBegin = Text.offset(ValueRange.getBegin());
  std::optional<unsigned> ValueEnd = Text.offset(ValueRange.getEnd());
  if (!Range || Range->first != *Begin || !ValueBegin || !ValueEnd ||
      PC.PP.hasDirectiveBetween(Text.fileID(), Range->first, Range->second)) {
    PC.Diags.warn(ReturnLoc, "cannot copy the returned expression (it is "
                             "split by a macro or a directive); END goes "
                             "before the return, after the value is computed");
    insertBefore(R, *Begin, Ends, "END before return");
    return;
  }
  StringRef ValueText = Text.buffer().slice(*ValueBegin, *ValueEnd);
  // What lies between `return` and the value, and between the value and
  // `;` (" " and "" as usually written; a newline or a comment otherwise)
  // moves into the block, so no byte of the statement is lost and
  // `annotate --strip` can write it back as it was.
  StringRef Before =
      Text.buffer().slice(Text.endOfToken(Range->first), *ValueBegin);
  StringRef After = Text.buffer().slice(*ValueEnd, Range->second - 1);
  std::string Computed = "(" + ValueText.str() + ")" + After.str() + "; ";
  std::string Block = "{";
  QualType Type = FD.getReturnType();
  std::string Var;
  size_t ValueAt; // where the copied value starts in Block
  if (Type->isVoidType()) {
    Block += Before.str();
    ValueAt = Block.size() + 1;
    Block += Computed;
  } else {
    Var = uniqueReturnVariable(ValueText);
    std::string TypeText = typeForDeclaration(Type, PC.Ctx);
    // `char *annotate_ret`, as people write it, not Clang's `char * `.
    bool Glued = !TypeText.empty() &&
                 (TypeText.back() == '*' || TypeText.back() == '&');
    Block += " " + TypeText + (Glued ? "" : " ") + Var + " =" + Before.str();
    ValueAt = Block.size() + 1;
    Block += Computed;
  }
  for (const std::string &End : Ends)
    Block += End + " ";
  Block += Var.empty() ? "return; }" : "return " + Var + "; }";
  ValueWindows.push_back({Edits.size(), *ValueBegin, *ValueEnd, ValueAt});
  Edits.push_back({Range->first, Range->second - Range->first, Block,
                   EditRank::Statement});
}

void FunctionPlanner::closeBeforeMacroExit(const ReturnStmt *R,
                                           ArrayRef<std::string> Ends) {
  const SourceManager &SM = Text.sourceManager();
  if (!MacroExits)
    MacroExits = findMacroExits(FD, Facts, Text, PC.Ctx, PC.Options.Rules);
  const MacroExit *Call = nullptr;
  for (const MacroExit &C : *MacroExits)
    if (llvm::is_contained(C.Returns, R))
      Call = &C;
  std::string Name = macroNameAt(R->getReturnLoc(), SM, Text.langOptions());
  if (!Call || !Call->Exit) {
    // One message per macro and cause, so that a run can group them.
    PC.Diags.warn(SM.getExpansionLoc(R->getReturnLoc()),
                  "return inside macro '" + Name +
                      "' cannot be annotated" +
                      (Call && !Call->Why.empty() ? " (" + Call->Why + ")"
                                                  : std::string()) +
                      "; the span is closed by the runtime's cleanup when it "
                      "runs");
    return;
  }
  // The macro's own bookkeeping after END (HDF5's function stack pop,
  // PETSc's stack pop) runs outside the span; so does the work of a value
  // argument (docs/rules.md §2).
  if (Closed.insert(Call->First).second)
    insertBefore(Call->First, Call->Begin, Ends,
                 "END before exit macro '" + Name + "'");
}

void FunctionPlanner::closeAtClosingBrace(ArrayRef<std::string> Ends) {
  unsigned RBrace = *Text.offset(Body->getRBracLoc());
  std::string Inserted;
  if (Text.isFirstOnLine(RBrace) && !PC.Options.LineDirectives) {
    std::string Indent = bodyIndent();
    StringRef Break = Text.lineBreakAt(RBrace);
    for (const std::string &End : Ends)
      Inserted += Indent + End + Break.str();
    Edits.push_back(
        {Text.lineStart(RBrace), 0, Inserted, EditRank::Statement});
    return;
  }
  // Inline: `{ work(); }` -> `{ work(); END(); }`, but `{ work();}` ->
  // `{ work(); END();}`: the space goes on the side that had none, so that
  // `annotate --strip` can tell the two apart.
  bool SpaceBefore = RBrace > 0 && llvm::isSpace(Text.buffer()[RBrace - 1]);
  for (const std::string &End : Ends)
    Inserted += SpaceBefore ? End + " " : " " + End;
  Edits.push_back({RBrace, 0, Inserted, EditRank::Statement});
}

void FunctionPlanner::insertStarts(unsigned Offset, StringRef Indent,
                                   std::vector<std::string> Starts,
                                   bool Guard) {
  // Another configuration may see another first statement (another
  // indent), in main another MPI_Init statement (another place), or other
  // callees (another category, the tail): still one group per function.
  Edit Group{Offset, 0, linesText(Offset, Indent, Starts), EditRank::Statement};
  Group.OnceKey = "start@" + std::to_string(*Text.offset(Body->getLBracLoc()));
  const RuleSet &Rules = PC.Options.Rules;
  if (Rules.CategoriesEnabled) {
    std::vector<llvm::StringRef> Callees;
    for (const CallExpr *Call : Facts.calls())
      Callees.push_back(calleeName(Call));
    Group.Preference = Rules.categoryRank(Callees);
    // The line break and indent before the update belong to the place, the
    // statement alone to the category.
    Group.Text += linesText(Offset, Indent, {""});
    Group.TailAt = Group.Text.size();
    Group.Text += Rules.categoryStatement(Rules.categoryOf(Callees), Guard);
  }
  Edits.push_back(std::move(Group));
}

bool FunctionPlanner::planGuard() {
  insertStarts(afterOpeningBrace(), bodyIndent(),
               {PC.Options.Rules.CxxFunctionStart}, /*Guard=*/true);
  return true;
}

std::optional<std::pair<unsigned, std::string>>
FunctionPlanner::startInEntryScope() {
  if (llvm::none_of(Facts.returns(), [](const ReturnStmt *R) {
        return R->getReturnLoc().isMacroID();
      }))
    return std::nullopt;
  if (!MacroExits)
    MacroExits = findMacroExits(FD, Facts, Text, PC.Ctx, PC.Options.Rules);
  EntryScope Scope =
      findEntryScope(FD, Facts, Text, PC.Ctx, PC.Options.Rules, *MacroExits);
  if (Scope.Refusal)
    PC.Diags.warn(Scope.Refusal->first, Scope.Refusal->second);
  if (!Scope.Inside)
    return std::nullopt;
  unsigned Offset = PC.Options.LineDirectives
                        ? Scope.OpenEnd
                        : Text.afterTrailingComment(Scope.OpenEnd).Offset;
  return std::make_pair(Offset, Text.indentOfLine(Scope.OpenBegin).str());
}

bool FunctionPlanner::planBody() {
  const RuleSet &Rules = PC.Options.Rules;
  // START and END skipped together when a macro's scope is (issue 21).
  if (auto Inside = startInEntryScope())
    insertStarts(Inside->first, Inside->second, {Rules.FunctionStart},
                 /*Guard=*/false);
  else
    insertStarts(afterOpeningBrace(), bodyIndent(), {Rules.FunctionStart},
                 /*Guard=*/false);
  for (const ReturnStmt *R : Facts.returns())
    closeBeforeReturn(R, {Rules.FunctionEnd});
  if (canFallOffEnd(FD, PC.Ctx, Rules))
    closeAtClosingBrace({Rules.FunctionEnd});
  return true;
}

/// Whether every path through S ends in a call that does not return, so
/// that closing the trace right before S is not premature. Used for
/// statements produced by macros such as ERR(msg) -> do { ...; MPI_Abort(...); } while (0).
static bool alwaysEndsInNoReturn(const Stmt *S, const RuleSet &Rules) {
  if (!S)
    return false;
  if (const auto *E = dyn_cast<Expr>(S)) {
    E = E->IgnoreParenCasts();
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      return Callee && (Callee->isNoReturn() || Rules.isNoReturn(calleeName(Call)));
    }
    return false;
  }
  if (const auto *C = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(C->body(), [&](const Stmt *Child) {
      return alwaysEndsInNoReturn(Child, Rules);
    });
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return alwaysEndsInNoReturn(Do->getBody(), Rules);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return alwaysEndsInNoReturn(If->getThen(), Rules) &&
           alwaysEndsInNoReturn(If->getElse(), Rules);
  return false;
}

void FunctionPlanner::closeBeforeNoReturnCalls(unsigned Begin, unsigned End,
                                               ArrayRef<std::string> Ends) {
  const RuleSet &Rules = PC.Options.Rules;
  for (const CallExpr *Call : Facts.calls()) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !(Callee->isNoReturn() || Rules.isNoReturn(calleeName(Call))))
      continue;
    // Climb out of the macro that produced the call, if any: the statement
    // to close before is the macro call written in main.
    const Stmt *S = Facts.enclosingStatement(Call);
    while (const Stmt *P = Facts.parent(S)) {
      if (!P->getBeginLoc().isMacroID() || P == Body)
        break;
      S = Facts.enclosingStatement(P);
    }
    std::optional<unsigned> At = offsetOf(S);
    if (!At || *At <= Begin || *At >= End || Closed.contains(S))
      continue;
    // Closing before a statement that only sometimes aborts
    // (MPI_CHECK(...)) would end the trace on the normal path too.
    bool FromMacro = S->getBeginLoc().isMacroID();
    if (FromMacro ? !alwaysEndsInNoReturn(S, Rules) : S != Call)
      continue;
    Closed.insert(S);
    insertBefore(S, *At, Ends, "END and FINI before a call that does not return");
  }
}

/// The body of a C string literal that reads as Value.
static std::string escapeForCString(StringRef Value) {
  std::string Out;
  for (unsigned char C : Value) {
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (C < 0x20 || C == 0x7f) {
      Out += "\\x" + llvm::utohexstr(C, /*LowerCase=*/true, /*Width=*/2) + "\"\"";
    } else {
      Out += C;
    }
  }
  return Out;
}

bool FunctionPlanner::planMain() {
  const RuleSet &Rules = PC.Options.Rules;
  // A tracer that needs no explicit start treats main like any function.
  if (Rules.Init.empty())
    return PC.Ctx.getLangOpts().CPlusPlus ? planGuard() : planBody();
  // The top-level statements that start and stop MPI. One inside an
  // #if/#ifdef of the body is compiled in some configurations only: INIT
  // after it, or END+FINI before it, would be missing (or doubled, once the
  // configurations are merged) in the others, so it is not one.
  unsigned LBrace = *Text.offset(Body->getLBracLoc());
  auto TopLevel = [&](const CallExpr *Call) -> const Stmt * {
    const Stmt *Top = Facts.topLevelStatement(Call);
    std::optional<unsigned> At = Top ? offsetOf(Top) : std::nullopt;
    if (!At || PC.PP.inConditionalAfter(Text.fileID(), LBrace, *At))
      return nullptr;
    return Top;
  };
  const Stmt *InitStmt = nullptr;
  const CallExpr *InitCall = nullptr;
  const Stmt *FinStmt = nullptr;
  for (const CallExpr *Call : Facts.calls()) {
    StringRef Name = calleeName(Call);
    const Stmt *Top = TopLevel(Call);
    if (!Top)
      continue;
    if (llvm::is_contained(Rules.InitAfterCalls, Name) &&
        (!InitStmt || offsetOf(Top).value_or(~0u) < offsetOf(InitStmt).value_or(~0u))) {
      InitStmt = Top;
      InitCall = Call;
    }
  }
  for (const CallExpr *Call : Facts.calls()) {
    const Stmt *Top = TopLevel(Call);
    if (!Top || !llvm::is_contained(Rules.FiniBeforeCalls, calleeName(Call)))
      continue;
    if (InitStmt && offsetOf(Top).value_or(0) <= offsetOf(InitStmt).value_or(0))
      continue;
    if (!FinStmt || offsetOf(Top).value_or(0) > offsetOf(FinStmt).value_or(0))
      FinStmt = Top;
  }

  std::vector<std::string> Starts = {Rules.Init, Rules.FunctionStart};
  unsigned MetaIndex = 0;
  for (const auto &[Key, Value] : PC.Options.Meta)
    Starts.push_back(Rules.metadataStatement(
        (MetadataNamePrefix + std::to_string(MetaIndex++)).str(),
        escapeForCString(Key),
        escapeForCString(Value)));

  // Optional MPI: a top-level #if block that starts MPI (in any branch,
  // compiled here or not) puts INIT after its #endif, one that stops it
  // END + FINI before its #if (ConditionalCalls.h), the same in every
  // configuration.
  std::optional<std::pair<unsigned, unsigned>> InitBlock, FinBlock;
  for (const auto &C :
       conditionalsCalling(*Body, Text, PC.PP, Rules.InitAfterCalls))
    if (!InitStmt || C.first < offsetOf(InitStmt).value_or(~0u)) {
      InitBlock = C;
      InitStmt = nullptr;
      InitCall = nullptr;
      break;
    }
  // With --line-directives every insertion stays on its anchor's line, and
  // a directive's line can take none: INIT and START go in front of the
  // first statement after the block, on its line, and END + FINI after the
  // last statement before the finalize block, on its line; each only when
  // nothing but white space and comments lies between, so that every
  // configuration anchors them alike. Otherwise INIT goes at the top and
  // END + FINI before the returns.
  const Stmt *InitBefore = nullptr; // the statement INIT goes in front of
  if (InitBlock && PC.Options.LineDirectives) {
    for (const Stmt *S : Body->body()) {
      std::optional<unsigned> At = offsetOf(S);
      if (!At || *At <= InitBlock->second)
        continue;
      if (!S->getBeginLoc().isMacroID() &&
          !PC.PP.inConditionalAfter(Text.fileID(), LBrace, *At) &&
          !PC.PP.hasDirectiveBetween(Text.fileID(), InitBlock->second + 1,
                                     *At - 1))
        InitBefore = S;
      break;
    }
    if (!InitBefore)
      InitBlock.reset();
  }
  unsigned StartAt = ~0u;
  std::string StartIndent;
  if (InitBefore) {
    StartAt = *offsetOf(InitBefore);
  } else if (InitBlock) {
    // Before the line break ending the `#endif` line (a CRLF's `\r`).
    StartAt = InitBlock->second;
    if (StartAt > 0 && Text.buffer()[StartAt - 1] == '\r')
      --StartAt;
    StartIndent = bodyIndent();
  } else if (InitStmt) {
    auto Range = Text.statementRange(InitStmt->getSourceRange(),
                                     stopsBeforeSemicolon(InitStmt)
                                         ? SourceText::Semicolon::Required
                                         : SourceText::Semicolon::IfPresent);
    if (!Range) {
      PC.Diags.warn(InitStmt->getBeginLoc(),
                    "cannot find where the statement calling MPI_Init ends; "
                    "main is not annotated");
      return false;
    }
    StartAt = PC.Options.LineDirectives
                  ? Range->second
                  : Text.afterTrailingComment(Range->second).Offset;
    StartIndent = Text.indentOfLine(Range->first).str();
  }

  // START declares a variable with a cleanup: a goto from before it to a
  // label after it would jump into its scope, which does not compile
  // (`if (MPI_Init(...)) goto fail; ... fail: return 1;`). Start the tracer
  // at the top of main then; the runtime learns the rank once MPI is up.
  if (StartAt != ~0u) {
    for (const GotoStmt *G : Facts.gotos()) {
      std::optional<unsigned> From = offsetOf(G);
      std::optional<unsigned> To = offsetOf(G->getLabel()->getStmt());
      if (From && To && *From < StartAt && *To >= StartAt) {
        PC.Diags.warn(G->getGotoLoc(),
                      "this goto jumps past the " +
                          (InitCall ? "statement calling " +
                                          calleeName(InitCall)
                                    : std::string("#endif of the block "
                                                  "starting MPI")) +
                          "; the tracer starts at the top of main instead");
        StartAt = ~0u;
        break;
      }
    }
  }
  if (StartAt == ~0u) {
    StartAt = afterOpeningBrace();
    StartIndent = bodyIndent();
    InitBefore = nullptr;
  }
  insertStarts(StartAt, StartIndent, std::move(Starts), /*Guard=*/false);
  if (InitBefore) // " INIT(); START(); " in front of the statement
    Edits.push_back({StartAt, 0, " ", EditRank::Statement});

  for (const auto &C :
       conditionalsCalling(*Body, Text, PC.PP, Rules.FiniBeforeCalls))
    if (C.first > StartAt &&
        (!FinStmt || C.first > offsetOf(FinStmt).value_or(0)))
      FinBlock = C;
  // With --line-directives: after the statement before the block, on its
  // line (see above).
  std::optional<unsigned> FinAfter;
  if (FinBlock && PC.Options.LineDirectives) {
    const Stmt *Last = nullptr;
    for (const Stmt *S : Body->body())
      if (std::optional<unsigned> At = offsetOf(S); At && *At < FinBlock->first)
        Last = S;
    std::optional<std::pair<unsigned, unsigned>> Range;
    if (Last && !Last->getBeginLoc().isMacroID())
      Range = Text.statementRange(Last->getSourceRange(),
                                  stopsBeforeSemicolon(Last)
                                      ? SourceText::Semicolon::Required
                                      : SourceText::Semicolon::IfPresent);
    if (Range && Range->first > StartAt &&
        !PC.PP.inConditionalAfter(Text.fileID(), LBrace, Range->first) &&
        !Text.afterTrailingComment(Range->second).AfterLineComment &&
        !PC.PP.hasDirectiveBetween(Text.fileID(), Range->second,
                                   FinBlock->first - 1))
      FinAfter = Range->second;
    else
      FinBlock.reset();
  }
  if (FinBlock)
    FinStmt = nullptr;

  unsigned FinAt = ~0u;
  if (FinBlock) {
    FinAt = FinBlock->first;
  } else if (FinStmt) {
    std::optional<unsigned> At = offsetOf(FinStmt);
    if (At)
      FinAt = *At;
  }
  std::vector<std::string> Ends = {Rules.FunctionEnd, Rules.Fini};
  // Returns before START have nothing to close; those after the finalize
  // statement come after FINI.
  for (const ReturnStmt *R : Facts.returns()) {
    SourceLocation Loc =
        Text.sourceManager().getExpansionLoc(R->getReturnLoc());
    std::optional<unsigned> At = Text.offset(Loc);
    if (At && *At > StartAt && *At < FinAt)
      closeBeforeReturn(R, Ends);
  }
  closeBeforeNoReturnCalls(StartAt, FinAt, Ends);
  if (FinAfter) {
    std::string Inserted;
    for (const std::string &End : Ends)
      Inserted += " " + End;
    Edits.push_back({*FinAfter, 0, Inserted, EditRank::Statement});
  } else if (FinBlock) {
    // On their own lines before the `#if` line, at the body's indent.
    std::string Inserted;
    for (const std::string &End : Ends)
      Inserted += bodyIndent() + End + Text.lineBreakAt(FinAt).str();
    Edits.push_back({FinAt, 0, Inserted, EditRank::Statement});
  } else if (FinStmt && FinAt != ~0u)
    insertBefore(FinStmt, FinAt, Ends, "END and FINI before MPI_Finalize");
  else if (canFallOffEnd(FD, PC.Ctx, Rules))
    closeAtClosingBrace(Ends);
  return true;
}

void FunctionPlanner::braceEverything() {
  for (const Stmt *Control : Facts.controls()) {
    if (Control->getBeginLoc().isMacroID())
      continue;
    for (const Stmt *Slot : controlBodies(Control)) {
      // `else if` is a chain, not a body to brace.
      if (const auto *If = dyn_cast<IfStmt>(Control);
          If && Slot == If->getElse() && isa<IfStmt>(Slot))
        continue;
      if (!Slot || isa<CompoundStmt>(Slot) || BracedSlots.contains(Slot))
        continue;
      auto Pair = planBraces(Slot, Control, Text, PC.PP,
                             Facts.controlDepth(Control),
                             PC.Options.LineDirectives);
      if (!Pair) {
        PC.Diags.warn(Slot->getBeginLoc(), "--braces=all: not braced: " +
                                               llvm::toString(Pair.takeError()));
        continue;
      }
      Edits.push_back(Pair->Open);
      Edits.push_back(Pair->Close);
      BracedSlots.insert(Slot);
    }
  }
}

} // namespace annotate
