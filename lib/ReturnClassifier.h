//===- ReturnClassifier.h - Can END go right before this return? -*- C++ -*-===//
//
// END may go right before `return E;` only when evaluating E after the span
// closed changes nothing the trace measures: E calls nothing and has no side
// effects. Otherwise the value is computed inside the span first:
//
//   return write_all(fd, buf);
// becomes
//   { ssize_t annotate_ret = (write_all(fd, buf)); END(); return annotate_ret; }
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_RETURNCLASSIFIER_H
#define ANNOTATE_LIB_RETURNCLASSIFIER_H

#include "clang/AST/Expr.h"

#include <string>

namespace clang {
class ASTContext;
}

namespace annotate {

/// True for literals, names, member access, subscripts, casts, sizeof,
/// arithmetic, comparisons and ?: built from those (and for a missing E).
bool isSimpleReturnValue(const clang::Expr *E);

/// A declaration specifier for a variable of type T: the type as Clang
/// prints it, wrapped in __typeof__ when the spelling alone cannot precede
/// a name (function pointers, pointers to arrays).
std::string typeForDeclaration(clang::QualType T, const clang::ASTContext &Ctx);

} // namespace annotate

#endif
