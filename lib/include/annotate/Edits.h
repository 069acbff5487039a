//===- Edits.h - Planned text edits of one file, merged safely -*- C++ -*-===//
//
// Every change annotate makes is an Edit: replace Length bytes at Offset of
// the original file with Text (Length 0 is an insertion). The edits of one
// file, possibly planned by several translation units that include the same
// header, are merged deterministically before anything is written:
//
//  1. identical edits (same text and rank) are kept once
//     (tooling::Replacements would concatenate two identical insertions at
//     one offset);
//  2. insertions at one offset are ordered by Rank, then by arrival, so a
//     closing brace of an inner body precedes the one of the outer body and
//     an opening brace precedes the statement inserted after it;
//  3. edits that overlap a replacement are in conflict: all of them are
//     dropped together and reported, never half-applied;
//  4. edits that must appear once (the tracer's #include, the statements
//     that open a function) share a OnceKey; configurations or units that
//     saw different code may plan them differently (another place, another
//     indent, another category). One is kept: where and as the first in the
//     file (then the first planned) has it, but with the tail (the category
//     update) of the lowest Preference.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_EDITS_H
#define ANNOTATE_EDITS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace annotate {

/// What an edit of `annotate --strip` takes out, for the per-file counts.
struct Removal {
  /// START, END, INIT, FINI, METADATA, category updates.
  unsigned Statements = 0;
  /// Value returns written back from `{ T annotate_ret = (E); ... }`.
  unsigned Returns = 0;
  /// Pairs of braces annotate added (counted on the `{`).
  unsigned Braces = 0;
  unsigned Includes = 0;
  unsigned LineDirectives = 0;

  Removal &operator+=(const Removal &O);
  unsigned total() const {
    return Statements + Returns + Braces + Includes + LineDirectives;
  }
  /// "12 statements, 1 value return, 2 pairs of braces, 1 include"
  std::string str() const;
};

struct Edit {
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
  /// Orders insertions at one offset, lower first; see EditRank.
  int Rank = 0;
  /// Non-empty: of the edits with this key, one is kept (rule 4). The
  /// include is "include"; a function's opening statements (INIT, START,
  /// METADATA, the category update, or C++'s guard) are "start@" and the
  /// offset of its body's `{`.
  std::string OnceKey = {};
  /// Rule 4 keeps the Offset and the text before TailAt (where and how it
  /// is written) of the edit first in the file, and the text from TailAt on
  /// of the one of the lowest Preference (then the first planned). START's
  /// group has the category update's statement as its tail and the
  /// category's RuleSet::categoryRank as its Preference: the category kept
  /// is that of everything the function calls in any configuration,
  /// wherever START goes.
  unsigned Preference = 0;
  size_t TailAt = std::string::npos;
  /// --strip: what the edit removes (not part of its identity).
  Removal Removes = {};

  /// Two closing braces of different depths at one offset are both kept:
  /// `if (a) if (b) f(); else g();` under --braces=all closes two bodies
  /// after `g();`.
  bool operator==(const Edit &O) const {
    return Offset == O.Offset && Length == O.Length && Text == O.Text &&
           Rank == O.Rank;
  }
};

/// Conventional ranks: closing braces (deepest first), then opening braces
/// (outermost first), then inserted statements.
namespace EditRank {
inline int closeBrace(unsigned Depth) { return 1000 - static_cast<int>(Depth); }
inline int openBrace(unsigned Depth) { return 2000 + static_cast<int>(Depth); }
constexpr int Statement = 3000;
} // namespace EditRank

class FileEdits {
public:
  void add(Edit E) { Pending.push_back(std::move(E)); }
  void append(const FileEdits &Other);
  bool empty() const { return Pending.empty(); }

  struct Merged {
    /// Sorted, de-duplicated, non-overlapping.
    std::vector<Edit> Edits;
    /// Edits dropped because they overlapped each other.
    std::vector<Edit> Conflicts;
  };
  Merged merge() const;

private:
  std::vector<Edit> Pending;
};

/// Applies merged edits (sorted, non-overlapping) to the original text.
std::string applyEdits(llvm::StringRef Original, const std::vector<Edit> &Edits);

} // namespace annotate

#endif
