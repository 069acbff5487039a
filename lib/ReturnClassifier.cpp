//===- ReturnClassifier.cpp -----------------------------------------------===//

#include "ReturnClassifier.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace annotate {

bool isSimpleReturnValue(const Expr *E) {
  if (!E)
    return true;
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
          FixedPointLiteral, ImaginaryLiteral, CXXBoolLiteralExpr,
          CXXNullPtrLiteralExpr, GNUNullExpr, DeclRefExpr, OffsetOfExpr,
          UnaryExprOrTypeTraitExpr>(E))
    return true;
  if (const auto *P = dyn_cast<ParenExpr>(E))
    return isSimpleReturnValue(P->getSubExpr());
  if (const auto *C = dyn_cast<CastExpr>(E))
    return isSimpleReturnValue(C->getSubExpr());
  if (const auto *M = dyn_cast<MemberExpr>(E))
    return isSimpleReturnValue(M->getBase());
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    return isSimpleReturnValue(A->getBase()) &&
           isSimpleReturnValue(A->getIdx());
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return !U->isIncrementDecrementOp() && isSimpleReturnValue(U->getSubExpr());
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return !B->isAssignmentOp() && !B->isCompoundAssignmentOp() &&
           B->getOpcode() != BO_Comma && isSimpleReturnValue(B->getLHS()) &&
           isSimpleReturnValue(B->getRHS());
  if (const auto *C = dyn_cast<ConditionalOperator>(E))
    return isSimpleReturnValue(C->getCond()) &&
           isSimpleReturnValue(C->getTrueExpr()) &&
           isSimpleReturnValue(C->getFalseExpr());
  return false;
}

std::string typeForDeclaration(QualType T, const ASTContext &Ctx) {
  PrintingPolicy Policy(Ctx.getLangOpts());
  Policy.SuppressTagKeyword = false;
  std::string Spelled = T.getAsString(Policy);
  if (Spelled.find_first_of("([") != std::string::npos)
    return "__typeof__(" + Spelled + ")";
  return Spelled;
}

} // namespace annotate
