//===- BodyFacts.h - The statements of a body that annotation needs -*- C++ -*-===//
//
// One walk over a function body collects what the planner acts on: its
// returns (not those of lambdas or blocks nested in it), the calls it makes,
// and for every statement its parent, so that "is this statement the
// braceless body of an if/else/for/while/do?" is a lookup. Building our own
// map for one body is much cheaper than ASTContext's parent map, which walks
// the whole translation unit, system headers included.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_BODYFACTS_H
#define ANNOTATE_LIB_BODYFACTS_H

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace annotate {

class BodyFacts {
public:
  explicit BodyFacts(const clang::CompoundStmt *Body);

  const clang::CompoundStmt *body() const { return Body; }
  const std::vector<const clang::ReturnStmt *> &returns() const {
    return Returns;
  }
  const std::vector<const clang::CallExpr *> &calls() const { return Calls; }
  const std::vector<const clang::GotoStmt *> &gotos() const { return Gotos; }
  /// Lambdas written directly in the body (not inside other lambdas).
  const std::vector<const clang::LambdaExpr *> &lambdas() const {
    return Lambdas;
  }
  /// Control statements (if/for/while/do) of the body, outermost first.
  const std::vector<const clang::Stmt *> &controls() const { return Controls; }

  const clang::Stmt *parent(const clang::Stmt *S) const;

  /// The statement that occupies S's place in its enclosing statement list
  /// or control body: S itself, or the labels (`case 1:`, `done:`) in front
  /// of it.
  const clang::Stmt *slot(const clang::Stmt *S) const;

  /// If Slot is the braceless body of a control statement, that statement.
  const clang::Stmt *bracelessOwner(const clang::Stmt *Slot) const;

  /// The statement containing E that stands on its own in a statement list
  /// or control body (E itself for a call written as a statement).
  const clang::Stmt *enclosingStatement(const clang::Stmt *E) const;

  /// Number of control statements enclosing S (for brace ordering).
  unsigned controlDepth(const clang::Stmt *S) const;

  /// The top-level statement of the body containing S (S may be it).
  const clang::Stmt *topLevelStatement(const clang::Stmt *S) const;

private:
  void walk(const clang::Stmt *S);

  const clang::CompoundStmt *Body;
  llvm::DenseMap<const clang::Stmt *, const clang::Stmt *> Parents;
  std::vector<const clang::ReturnStmt *> Returns;
  std::vector<const clang::CallExpr *> Calls;
  std::vector<const clang::GotoStmt *> Gotos;
  std::vector<const clang::LambdaExpr *> Lambdas;
  std::vector<const clang::Stmt *> Controls;
};

/// Whether S stands in a statement position of its parent P (an element of
/// a block, a label's or a control statement's body), not in an expression.
bool isStatementPosition(const clang::Stmt *S, const clang::Stmt *P);

/// The bodies of a control statement: an if's then and else, a loop's body;
/// none for other statements.
llvm::SmallVector<const clang::Stmt *, 2> controlBodies(const clang::Stmt *S);

/// Whether S is one of the statements whose bodies may lack braces.
bool isControlStatement(const clang::Stmt *S);

/// Whether the AST range of S stops before the `;` that ends it
/// (`x = f()`, `return 1`, `do ... while (c)`, an if whose last body is
/// one of those), as opposed to blocks, null and declaration statements.
bool stopsBeforeSemicolon(const clang::Stmt *S);

/// The callee's name of a direct call, or "".
llvm::StringRef calleeName(const clang::CallExpr *Call);

} // namespace annotate

#endif
