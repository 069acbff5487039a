//===- NestedEdits.cpp ----------------------------------------------------===//

#include "NestedEdits.h"

#include "llvm/ADT/STLExtras.h"

namespace annotate {

std::vector<Edit> foldNestedEdits(std::vector<Edit> &Edits,
                                  std::vector<EditWindow> Windows,
                                  llvm::StringRef Buffer) {
  std::vector<Edit> Dropped;
  if (Windows.empty())
    return Dropped;
  // Innermost first, so that a copy folded into an outer one carries its
  // own nested edits with it.
  llvm::stable_sort(Windows, [](const EditWindow &A, const EditWindow &B) {
    return A.End - A.Begin < B.End - B.Begin;
  });
  std::vector<bool> Folded(Edits.size(), false);
  for (const EditWindow &W : Windows) {
    if (Folded[W.Edit])
      continue;
    FileEdits Inner;
    for (size_t I = 0; I < Edits.size(); ++I) {
      const Edit &E = Edits[I];
      if (I == W.Edit || Folded[I] || E.Offset < W.Begin ||
          E.Offset + E.Length > W.End)
        continue;
      Edit Shifted = E;
      Shifted.Offset -= W.Begin;
      Inner.add(std::move(Shifted));
      Folded[I] = true;
    }
    if (Inner.empty())
      continue;
    // Ordered and checked as a file's edits are merged (Edits.h).
    FileEdits::Merged M = Inner.merge();
    for (Edit &E : M.Conflicts) {
      E.Offset += W.Begin;
      Dropped.push_back(std::move(E));
    }
    llvm::StringRef Copy = Buffer.slice(W.Begin, W.End);
    Edit &Outer = Edits[W.Edit];
    Outer.Text.replace(W.At, Copy.size(), applyEdits(Copy, M.Edits));
    for (const Edit &E : M.Edits)
      Outer.Removes += E.Removes;
  }
  std::vector<Edit> Kept;
  for (size_t I = 0; I < Edits.size(); ++I)
    if (!Folded[I])
      Kept.push_back(std::move(Edits[I]));
  Edits = std::move(Kept);
  return Dropped;
}

} // namespace annotate
