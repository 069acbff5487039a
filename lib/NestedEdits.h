//===- NestedEdits.h - Edits inside a copied value, folded into it -*- C++ -*-===//
//
// A value return is replaced whole by a block that copies its value:
//
//   return ({ if (x < 0) return -1; x / 2; });
//   ==> { int annotate_ret = (({ if (x < 0) { /* annotate */
//         DFTRACER_C_FUNCTION_END(); return -1; } x / 2; }));
//         DFTRACER_C_FUNCTION_END(); return annotate_ret; }
//
// The inner return (in a GNU statement expression) gets its own edits,
// which lie inside the replaced bytes: applied side by side the two would
// overlap and be dropped together. Edits of one plan compose instead: each
// edit inside a copied value is applied to the copy, innermost copy first.
// `annotate --strip` folds its removals the same way.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_NESTEDEDITS_H
#define ANNOTATE_LIB_NESTEDEDITS_H

#include "annotate/Edits.h"

#include <vector>

namespace annotate {

/// Edits[Edit] is a replacement whose Text copies the file's bytes [Begin,
/// End) starting at Text offset At.
struct EditWindow {
  size_t Edit;
  unsigned Begin, End;
  size_t At;
};

/// Applies each edit of Edits that lies within a window to that window's
/// copy (the innermost window holding it) and removes it from Edits.
/// Returns the edits that overlapped each other inside a window (dropped).
std::vector<Edit> foldNestedEdits(std::vector<Edit> &Edits,
                                  std::vector<EditWindow> Windows,
                                  llvm::StringRef Buffer);

} // namespace annotate

#endif
