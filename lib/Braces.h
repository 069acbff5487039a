//===- Braces.h - Making a braceless body a block, safely ------*- C++ -*-===//
//
// When a statement must be inserted into the braceless body of an
// if/else/for/while/do, the body becomes a block:
//
//   if (dryRun) return NULL;   ->   if (dryRun) { END(); return NULL; }
//
// Rules, each learnt from real code (SPEC §3):
//  1. Nothing produced by a macro expansion is braced: glibc's assert(e)
//     expands to an `if`, and its body is not ours to touch, however many
//     lines the argument spans.
//  2. `else if` is a chain: the planner never asks to brace an else whose
//     body is an if, it braces the inner if's body instead.
//  3. A body that is one macro call (`MPI_CHECK(...);`, over several lines
//     or not) is wrapped with its `;`, so the `}` lands before a following
//     `else`.
//  4. Ranges come from the AST, which already paired every `else` with its
//     `if`: wrapping a whole nested statement keeps its meaning.
//  5. A preprocessor directive between the controlling token and the end of
//     the body means the braces would not pair in every configuration:
//     refuse.
//  6. A comment that ends the body's last line stays before the `}`.
//  7. The `{` carries AddedBraceMarker, the one thing that tells these
//     braces from a user's once END is inside: `if (x) return 1;` and
//     `if (x) { return 1; }` would otherwise both become
//     `if (x) { END(); return 1; }`, and `annotate --strip` could not give
//     either back.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_BRACES_H
#define ANNOTATE_LIB_BRACES_H

#include "PreprocessorIndex.h"
#include "SourceText.h"
#include "annotate/Edits.h"

#include "clang/AST/Stmt.h"
#include "llvm/Support/Error.h"

namespace annotate {

/// The comment after every `{` annotate adds:
/// `if (dryRun) { /* annotate */ END(); return NULL; }`.
inline constexpr llvm::StringLiteral AddedBraceMarker = "/* annotate */";

struct BracePair {
  Edit Open;
  Edit Close;
};

/// The token after which the `{` of Slot, a body of Owner, goes: the `)`
/// of an if, for or while, `else`, `do`.
clang::SourceLocation tokenBeforeBody(const clang::Stmt *Slot,
                                      const clang::Stmt *Owner);

/// Plans the braces that make Slot, the braceless body of Owner, a block.
/// Depth is the number of control statements around Owner. KeepLines puts
/// both braces inline, the `}` before a trailing comment, so that no line
/// moves. Fails with the reason when the rules above forbid it.
llvm::Expected<BracePair> planBraces(const clang::Stmt *Slot,
                                     const clang::Stmt *Owner,
                                     const SourceText &Text,
                                     const PreprocessorIndex &PP,
                                     unsigned Depth, bool KeepLines = false);

} // namespace annotate

#endif
