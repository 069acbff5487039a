//===- Tree.cpp - The generated call tree -----------------------------------===//

#include "Tree.h"

namespace tracegen {

void number(Node *N, uint64_t &Next, int Level) {
  N->Id = Next++;
  N->Level = Level;
  for (auto &C : N->Children)
    number(C.get(), Next, Level + 1);
}

void postOrder(Node *N, std::vector<Node *> &Out) {
  for (auto &C : N->Children)
    postOrder(C.get(), Out);
  Out.push_back(N);
}

} // namespace tracegen
