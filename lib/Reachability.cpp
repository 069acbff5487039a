//===- Reachability.cpp ---------------------------------------------------===//

#include "Reachability.h"
#include "BodyFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"

using namespace clang;

namespace annotate {

bool endsPaths(const CFGBlock &B, const RuleSet &Rules) {
  if (B.hasNoReturnElement())
    return true;
  for (const CFGElement &E : B)
    if (auto S = E.getAs<CFGStmt>())
      if (const auto *Call = dyn_cast<CallExpr>(S->getStmt()))
        if (Rules.isNoReturn(calleeName(Call)))
          return true;
  return false;
}

bool leavesOtherwise(const CFGBlock &B) {
  if (isa_and_nonnull<CXXTryStmt>(B.getTerminatorStmt()))
    return true;
  for (auto It = B.rbegin(); It != B.rend(); ++It)
    if (auto S = It->getAs<CFGStmt>())
      return isa<ReturnStmt, CoreturnStmt, CXXThrowExpr>(S->getStmt());
  return false;
}

bool canFallOffEnd(const FunctionDecl &FD, ASTContext &Ctx,
                   const RuleSet &Rules) {
  CFG::BuildOptions Options;
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(&FD, FD.getBody(), &Ctx, Options);
  if (!Graph)
    return true;
  const CFGBlock &Exit = Graph->getExit();
  llvm::BitVector Seen(Graph->getNumBlockIDs());
  std::vector<const CFGBlock *> Work{&Graph->getEntry()};
  Seen.set(Graph->getEntry().getBlockID());
  while (!Work.empty()) {
    const CFGBlock *B = Work.back();
    Work.pop_back();
    if (endsPaths(*B, Rules))
      continue;
    for (const CFGBlock *Succ : B->succs()) {
      // Edges the CFG proved impossible (while (1)'s exit) are null.
      if (!Succ)
        continue;
      if (Succ == &Exit && !leavesOtherwise(*B))
        return true;
      if (!Seen.test(Succ->getBlockID())) {
        Seen.set(Succ->getBlockID());
        Work.push_back(Succ);
      }
    }
  }
  return false;
}

} // namespace annotate
