//===- Output.h - Writing results: atomically, or as a diff ----*- C++ -*-===//

#ifndef ANNOTATE_OUTPUT_H
#define ANNOTATE_OUTPUT_H

#include "annotate/Edits.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace annotate {

/// Writes Contents to Path through a temporary file in the same directory
/// and a rename, so readers see the old bytes or the new ones, never a
/// half-written file. Keeps the permissions of an existing file; creates
/// missing parent directories.
llvm::Error writeFileAtomically(llvm::StringRef Path, llvm::StringRef Contents);

/// A unified diff (3 lines of context) of Original against Original with
/// Edits applied. Edits must be merged (sorted, non-overlapping). Label is
/// the file name shown in the headers.
///
///   --- a/src/io.c
///   +++ b/src/io.c
///   @@ -10,6 +10,7 @@
///    int open_file(const char *path) {
///   +    DFTRACER_C_FUNCTION_START();
std::string unifiedDiff(llvm::StringRef Label, llvm::StringRef Original,
                        const std::vector<Edit> &Edits);

} // namespace annotate

#endif
