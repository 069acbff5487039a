//===- BodyFacts.cpp - One walk over a function body ----------------------===//

#include "BodyFacts.h"

#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace annotate {

bool isControlStatement(const Stmt *S) {
  return isa<IfStmt, ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S);
}

llvm::SmallVector<const Stmt *, 2> controlBodies(const Stmt *S) {
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getElse())
      return {If->getThen(), If->getElse()};
    return {If->getThen()};
  }
  if (const auto *For = dyn_cast<ForStmt>(S))
    return {For->getBody()};
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return {While->getBody()};
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return {Do->getBody()};
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return {Range->getBody()};
  return {};
}

bool stopsBeforeSemicolon(const Stmt *S) {
  if (isa<CompoundStmt, NullStmt, DeclStmt>(S))
    return false;
  if (const auto *If = dyn_cast<IfStmt>(S))
    return stopsBeforeSemicolon(If->getElse() ? If->getElse() : If->getThen());
  if (const auto *For = dyn_cast<ForStmt>(S))
    return stopsBeforeSemicolon(For->getBody());
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return stopsBeforeSemicolon(While->getBody());
  if (const auto *Range = dyn_cast<CXXForRangeStmt>(S))
    return stopsBeforeSemicolon(Range->getBody());
  if (const auto *Switch = dyn_cast<SwitchStmt>(S))
    return stopsBeforeSemicolon(Switch->getBody());
  if (const auto *Label = dyn_cast<LabelStmt>(S))
    return stopsBeforeSemicolon(Label->getSubStmt());
  if (const auto *Case = dyn_cast<SwitchCase>(S))
    return stopsBeforeSemicolon(Case->getSubStmt());
  if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
    return stopsBeforeSemicolon(Attributed->getSubStmt());
  return true;
}

StringRef calleeName(const CallExpr *Call) {
  if (const FunctionDecl *FD = Call->getDirectCallee())
    if (const IdentifierInfo *II = FD->getIdentifier())
      return II->getName();
  return "";
}

BodyFacts::BodyFacts(const CompoundStmt *Body) : Body(Body) { walk(Body); }

void BodyFacts::walk(const Stmt *S) {
  // Returns inside these belong to another function.
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    Lambdas.push_back(L);
    return;
  }
  if (isa<BlockExpr>(S))
    return;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    Returns.push_back(R);
  else if (const auto *C = dyn_cast<CallExpr>(S))
    Calls.push_back(C);
  else if (const auto *G = dyn_cast<GotoStmt>(S))
    Gotos.push_back(G);
  else if (isControlStatement(S))
    Controls.push_back(S);
  for (const Stmt *Child : S->children()) {
    if (!Child)
      continue;
    Parents[Child] = S;
    walk(Child);
  }
}

const Stmt *BodyFacts::parent(const Stmt *S) const {
  auto It = Parents.find(S);
  return It == Parents.end() ? nullptr : It->second;
}

const Stmt *BodyFacts::slot(const Stmt *S) const {
  while (const Stmt *P = parent(S)) {
    if (!isa<LabelStmt, CaseStmt, DefaultStmt, AttributedStmt>(P))
      break;
    // A case's value expression is a child too; only its sub-statement
    // stands in the slot.
    if (const auto *SC = dyn_cast<SwitchCase>(P); SC && SC->getSubStmt() != S)
      break;
    S = P;
  }
  return S;
}

const Stmt *BodyFacts::bracelessOwner(const Stmt *Slot) const {
  // A block written in the file holds its own insertions; a block that a
  // macro expands to does not: a statement inserted before it must be
  // braced together with it.
  if (isa<CompoundStmt>(Slot) && Slot->getBeginLoc().isFileID())
    return nullptr;
  const Stmt *P = parent(Slot);
  return P && llvm::is_contained(controlBodies(P), Slot) ? P : nullptr;
}

bool isStatementPosition(const Stmt *S, const Stmt *P) {
  if (isa<CompoundStmt>(P))
    return true;
  if (const auto *SC = dyn_cast<SwitchCase>(P))
    return SC->getSubStmt() == S;
  if (const auto *L = dyn_cast<LabelStmt>(P))
    return L->getSubStmt() == S;
  return llvm::is_contained(controlBodies(P), S);
}

const Stmt *BodyFacts::enclosingStatement(const Stmt *E) const {
  const Stmt *S = E;
  while (const Stmt *P = parent(S)) {
    if (isStatementPosition(S, P))
      return S;
    S = P;
  }
  return S;
}

unsigned BodyFacts::controlDepth(const Stmt *S) const {
  unsigned Depth = 0;
  for (const Stmt *P = parent(S); P; P = parent(P))
    Depth += isControlStatement(P);
  return Depth;
}

const Stmt *BodyFacts::topLevelStatement(const Stmt *S) const {
  while (S && parent(S) != Body)
    S = parent(S);
  return S;
}

} // namespace annotate
