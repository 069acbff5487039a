//===- Selection.cpp ------------------------------------------------------===//

#include "Selection.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"

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
  }
  return "";
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
  // Before constexpr: since C++17 a lambda is constexpr when it can be.
  if (const auto *M = dyn_cast<CXXMethodDecl>(&FD); M && M->getParent()->isLambda())
    return Selection::Lambda;
  if (FD.isConstexpr())
    return Selection::Constexpr;
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
  if (FD.getLocation().isMacroID() || LBrace.isMacroID() ||
      RBrace.isMacroID() || SM.getFileID(LBrace) != SM.getFileID(RBrace))
    return Selection::MacroExpansion;
  if (PP.hasMarkerBetween(SM.getFileID(LBrace), SM.getFileOffset(LBrace),
                          SM.getFileOffset(RBrace), Rules.AnnotatedMarkers))
    return Selection::AlreadyAnnotated;
  return Selection::Selected;
}

} // namespace annotate
