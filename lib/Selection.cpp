//===- Selection.cpp ------------------------------------------------------===//

#include "Selection.h"
#include "BodyFacts.h"
#include "Paths.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace annotate {

const char *describe(Selection S) {
  switch (S) {
  case Selection::Selected:
  case Selection::Ignored:
    return "";
  case Selection::Implicit:
    return "implicit";
  case Selection::Defaulted:
    return "defaulted";
  case Selection::Deleted:
    return "deleted";
  case Selection::Constexpr:
    return "constexpr";
  case Selection::Pure:
    return "pure or const";
  case Selection::Naked:
    return "naked";
  case Selection::Lambda:
    return "lambda";
  case Selection::NestedFunction:
    return "nested function";
  case Selection::MacroExpansion:
    return "macro expansion";
  case Selection::FunctionTryBlock:
    return "function-try-block";
  case Selection::Coroutine:
    return "coroutine";
  case Selection::AlreadyAnnotated:
    return "already annotated";
  case Selection::Filtered:
    return "filtered out";
  case Selection::OptOut:
    return "opt-out comment";
  case Selection::Guarded:
    return "overhead guard";
  }
  return "";
}

std::string builtInRule(const FunctionDecl &FD, Selection S) {
  std::string Rule;
  switch (S) {
  case Selection::Selected:
  case Selection::Ignored:
  case Selection::Filtered:
  case Selection::OptOut:
  case Selection::Guarded:
    return "";
  case Selection::Implicit:
    Rule = "written by the compiler, not in the file";
    break;
  case Selection::Defaulted:
  case Selection::Deleted:
    Rule = "no body written in the file";
    break;
  case Selection::Constexpr:
    Rule = "may be evaluated at compile time, where a span cannot run";
    break;
  case Selection::Pure:
    Rule = std::string("declared __attribute__((") +
           (FD.hasAttr<PureAttr>() ? "pure" : "const") +
           ")): the compiler may merge, hoist or drop its calls, so a span "
           "would be wrong and would break the attribute's promise of no "
           "side effects";
    break;
  case Selection::Naked:
    Rule = "a naked function has no prologue for a span's variable";
    break;
  case Selection::Lambda:
    Rule = "lambdas are traced only when the rule set sets cxx.lambdas";
    break;
  case Selection::NestedFunction:
    Rule = "a GNU nested function is part of its enclosing function";
    break;
  case Selection::MacroExpansion:
    Rule = "its body is written by a macro, which annotate never edits";
    break;
  case Selection::FunctionTryBlock:
    Rule = "its handlers run outside the body's scope";
    break;
  case Selection::Coroutine:
    Rule = "a coroutine's body is resumed, a span would cover one part";
    break;
  case Selection::AlreadyAnnotated:
    Rule = "its body already expands the rule set's annotated_markers";
    break;
  }
  return "built-in rule: " + Rule + " (docs/rules.md §9)";
}

FunctionRecord recordFor(const FunctionDecl &FD, const SourceManager &SM) {
  FunctionRecord Record;
  Record.Name = FD.getQualifiedNameAsString();
  if (const auto *M = dyn_cast<CXXMethodDecl>(&FD);
      M && M->getParent()->isLambda())
    if (const auto *Outer = dyn_cast<NamedDecl>(
            Decl::castFromDeclContext(M->getParent()->getDeclContext())))
      Record.Name = "(lambda in " + Outer->getQualifiedNameAsString() + ")";
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(FD.getLocation()));
  Record.File = P.isValid() ? P.getFilename() : "";
  Record.Line = P.isValid() ? P.getLine() : 0;
  return Record;
}

/// Collects the bodies of the lambdas in S, not looking inside them.
static void lambdaBodies(const Stmt *S, std::vector<SourceRange> &Out) {
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    if (const auto *L = dyn_cast<LambdaExpr>(Child))
      Out.push_back(L->getBody()->getSourceRange());
    else
      lambdaBodies(Child, Out);
  }
}

/// Whether one of Markers was expanded in Body itself, not in a lambda
/// nested in it (whose own guard does not make the function annotated).
static bool hasOwnMarker(const CompoundStmt &Body, const SourceManager &SM,
                         const PreprocessorIndex &PP,
                         llvm::ArrayRef<std::string> Markers) {
  FileID FID = SM.getFileID(Body.getLBracLoc());
  unsigned Begin = SM.getFileOffset(Body.getLBracLoc());
  unsigned End = SM.getFileOffset(Body.getRBracLoc());
  const PreprocessorIndex::FileFacts *Facts = PP.facts(FID);
  if (!Facts)
    return false;
  std::vector<SourceRange> Lambdas;
  bool LambdasCollected = false;
  for (const PreprocessorIndex::MacroUse &M : Facts->Markers) {
    if (M.Offset < Begin || M.Offset > End || !llvm::is_contained(Markers, M.Name))
      continue;
    if (!LambdasCollected) {
      lambdaBodies(&Body, Lambdas);
      LambdasCollected = true;
    }
    bool InLambda = llvm::any_of(Lambdas, [&](SourceRange R) {
      SourceLocation LB = SM.getExpansionLoc(R.getBegin());
      SourceLocation RB = SM.getExpansionLoc(R.getEnd());
      return SM.getFileID(LB) == FID && SM.getFileOffset(LB) <= M.Offset &&
             M.Offset <= SM.getFileOffset(RB);
    });
    if (!InLambda)
      return true;
  }
  return false;
}

Selection selectFunction(const FunctionDecl &FD, const SourceManager &SM,
                         const PreprocessorIndex &PP, const RuleSet &Rules) {
  if (!FD.isThisDeclarationADefinition())
    return Selection::Ignored;
  if (FD.isTemplateInstantiation() || SM.isInSystemHeader(FD.getLocation()))
    return Selection::Ignored;
  if (FD.isImplicit())
    return Selection::Implicit;
  if (FD.isDefaulted())
    return Selection::Defaulted;
  if (FD.isDeleted())
    return Selection::Deleted;
  if (!FD.getBody())
    return Selection::Ignored;
  // Since C++17 a lambda is constexpr whenever it can be: that says nothing
  // about whether it is meant for constant evaluation.
  const auto *Method = dyn_cast<CXXMethodDecl>(&FD);
  bool IsLambda = Method && Method->getParent()->isLambda();
  if (IsLambda && !Rules.CxxLambdas)
    return Selection::Lambda;
  if (FD.isConstexpr() && !IsLambda)
    return Selection::Constexpr;
  if (FD.hasAttr<PureAttr>() || FD.hasAttr<ConstAttr>())
    return Selection::Pure;
  if (FD.hasAttr<NakedAttr>())
    return Selection::Naked;
  if (FD.getLexicalDeclContext()->isFunctionOrMethod())
    return Selection::NestedFunction;
  if (isa<CoroutineBodyStmt>(FD.getBody()))
    return Selection::Coroutine;
  // A function-try-block's handlers run after the body's scope is gone: a
  // guard placed in the body would not cover them.
  const auto *Body = dyn_cast<CompoundStmt>(FD.getBody());
  if (!Body)
    return Selection::FunctionTryBlock;
  SourceLocation LBrace = Body->getLBracLoc();
  SourceLocation RBrace = Body->getRBracLoc();
  // A name a macro spells (`static herr_t H5O_SHARED_DECODE(...)`) is
  // fine: what annotate edits is the body, and that is in the file.
  if (LBrace.isMacroID() || RBrace.isMacroID() ||
      SM.getFileID(LBrace) != SM.getFileID(RBrace))
    return Selection::MacroExpansion;
  // main is also annotated when it already starts the tracer: a second
  // INIT would start it twice.
  if (hasOwnMarker(*Body, SM, PP, Rules.AnnotatedMarkers) ||
      (FD.isMain() && hasOwnMarker(*Body, SM, PP, Rules.InitialisedMarkers)))
    return Selection::AlreadyAnnotated;
  return Selection::Selected;
}

unsigned countStatements(const Stmt *S) {
  unsigned N = 0;
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    // An expression counts where it stands as a statement (`f();`).
    N += isa<Expr>(Child) ? isStatementPosition(Child, S)
                          : !isa<CompoundStmt>(Child);
    if (!isa<Expr>(Child) || isa<StmtExpr>(Child))
      N += countStatements(Child);
  }
  return N;
}

bool isLeaf(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    // Compiler builtins (__builtin_expect, ...) are free; library functions
    // that Clang also knows as builtins (printf, memcpy) are real calls.
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getBuiltinID() || !Callee->getIdentifier() ||
        !Callee->getName().starts_with("__"))
      return false;
  }
  // Constructions may run user code; in a template, one of a dependent
  // type is not resolved yet (`std::vector<T>(n, v)`).
  if (isa<CXXConstructExpr, CXXUnresolvedConstructExpr, CXXNewExpr,
          CXXDeleteExpr, CXXThrowExpr>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (!isLeaf(Child))
      return false;
  return true;
}

/// Whether a comment starting in [Begin, End) of FID holds Marker. Only
/// comments count, not a string that happens to hold it. (The raw lexer
/// needs the buffer's real end, so End is checked by hand.)
static bool commentHolds(const SourceManager &SM, const LangOptions &LO,
                         FileID FID, unsigned Begin, unsigned End,
                         llvm::StringRef Marker) {
  StringRef Buffer = SM.getBufferData(FID);
  if (Marker.empty() || !Buffer.slice(Begin, End).contains(Marker))
    return false;
  Lexer Lex(SM.getLocForStartOfFile(FID), LO, Buffer.begin(),
            Buffer.begin() + Begin, Buffer.end());
  Lex.SetCommentRetentionState(true);
  Token Tok;
  do {
    Lex.LexFromRawLexer(Tok);
    unsigned At = SM.getFileOffset(Tok.getLocation());
    if (Tok.is(tok::eof) || At >= End)
      return false;
    if (Tok.is(tok::comment) &&
        Buffer.substr(At, Tok.getLength()).contains(Marker))
      return true;
  } while (true);
}

/// Whether a comment holding Marker is on the line before Begin, or on
/// the same line before it.
static bool hasOptOutComment(const SourceManager &SM, const LangOptions &LO,
                             SourceLocation Begin, llvm::StringRef Marker) {
  if (!Begin.isFileID())
    return false;
  auto [FID, Offset] = SM.getDecomposedLoc(Begin);
  StringRef Buffer = SM.getBufferData(FID);
  size_t LineStart = Buffer.rfind('\n', Offset);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t PrevStart = LineStart == 0 ? 0 : Buffer.rfind('\n', LineStart - 1);
  PrevStart = PrevStart == StringRef::npos || LineStart == 0 ? 0 : PrevStart + 1;
  return commentHolds(SM, LO, FID, PrevStart, Offset, Marker);
}

bool fileOptsOut(const SourceManager &SM, const LangOptions &LO, FileID FID,
                 llvm::StringRef Marker) {
  return commentHolds(SM, LO, FID, 0, SM.getBufferData(FID).size(), Marker);
}

Verdict applySelectionRules(const FunctionDecl &FD, const SourceManager &SM,
                            const LangOptions &LO, const RuleSet &Rules,
                            llvm::StringRef RelativePath) {
  SourceLocation Begin = SM.getExpansionLoc(FD.getSourceRange().getBegin());
  if (hasOptOutComment(SM, LO, Begin, Rules.SkipComment))
    return {Selection::OptOut,
            "comment '" + Rules.SkipComment + "' before the function"};
  if (const FilterRule *R = Rules.FileFilter.lastMatch(RelativePath);
      R && !R->Include)
    return {Selection::Filtered, "file " + RelativePath.str() +
                                     " excluded by " + R->describe()};
  const FilterRule *R = Rules.FunctionFilter.lastMatch(FD.getQualifiedNameAsString());
  if (R && !R->Include)
    return {Selection::Filtered, "excluded by " + R->describe()};
  if (R)
    return {Selection::Selected, "included by " + R->describe()};
  if (Rules.GuardMinStatements && !FD.isMain()) {
    unsigned N = countStatements(FD.getBody());
    if (N < Rules.GuardMinStatements && isLeaf(FD.getBody()))
      return {Selection::Guarded,
              "leaf function with " + std::to_string(N) + " statement" +
                  (N == 1 ? "" : "s") + " (the guard skips leaves under " +
                  std::to_string(Rules.GuardMinStatements) + ")"};
  }
  return {Selection::Selected, "selected by default"};
}

Verdict RuleVerdicts::of(const FunctionDecl &FD, FileID FID,
                         const SourceManager &SM, const LangOptions &LO) {
  auto [It, Inserted] = Files.try_emplace(FID);
  FileRules &F = It->second;
  if (Inserted) {
    F.RelativePath = relativeTo(canonicalPath(SM, FID), FilterRoot);
    F.OptsOut = fileOptsOut(SM, LO, FID, Rules.SkipFileComment);
  }
  if (F.OptsOut)
    return {Selection::OptOut,
            "comment '" + Rules.SkipFileComment + "' in the file"};
  return applySelectionRules(FD, SM, LO, Rules, F.RelativePath);
}

} // namespace annotate
