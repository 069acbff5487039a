//===- PreprocessorIndex.h - What the preprocessor saw ---------*- C++ -*-===//
//
// The AST forgets preprocessor directives, but edits must not cross them:
// braces around an `if` body split by `#ifdef` would no longer match in one
// of the configurations. This index records, per file, where directives and
// skipped conditional blocks are, where the top-level includes end, where
// the rule set's marker macros (e.g. DFTRACER_C_FUNCTION_START) were expanded
// and, for `annotate --strip`, where the file uses the rule set's header (a
// macro it defines) at all.
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_LIB_PREPROCESSORINDEX_H
#define ANNOTATE_LIB_PREPROCESSORINDEX_H

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <memory>
#include <set>
#include <vector>

namespace clang {
class Preprocessor;
}

namespace annotate {

class PreprocessorIndex {
public:
  struct Include {
    /// Offset of the `#`.
    unsigned HashOffset;
    /// Offset just past the file name (`>` or `"`).
    unsigned NameEndOffset;
    /// Nesting depth of #if/#ifdef/#ifndef around the directive.
    unsigned ConditionalDepth;
    std::string Spelled;
  };
  struct MacroUse {
    std::string Name;
    /// Offset of the expansion written in the file: the marker itself, or
    /// the call of the user macro it was expanded in.
    unsigned Offset;
    /// The user macro the marker was expanded in ("" when spelled in the
    /// file): `#define DONE() DFTRACER_C_FUNCTION_END()` gives "DONE".
    std::string Within;
  };
  struct FileFacts {
    /// [Begin, End) byte ranges of directive lines and skipped blocks.
    std::vector<std::pair<unsigned, unsigned>> Directives;
    /// [Begin, End) of each block this configuration skipped: from the `#`
    /// of the #if/#ifdef/#elif/#else that starts it to the end of the
    /// directive that ends it.
    std::vector<std::pair<unsigned, unsigned>> Skipped;
    /// [Begin, End) of each conditional (#if ... #endif) whose #if was
    /// reached: where code may be compiled in one configuration only.
    std::vector<std::pair<unsigned, unsigned>> Conditionals;
    std::vector<Include> Includes;
    std::vector<MacroUse> Markers;
    /// Offsets of the expansions written in the file of macros defined in
    /// the tracked header (see attach), markers included.
    std::vector<unsigned> HeaderUses;
    /// Offset of the first conditional directive, used to recognise an
    /// include guard (whose depth does not count as "inside #if").
    unsigned FirstConditionalOffset = ~0u;
  };

  /// Installs callbacks on PP that fill this index for the files Wanted
  /// accepts (system headers are never wanted: recording their thousands of
  /// #defines would cost time for nothing). Markers are the macro names whose
  /// expansions are recorded. TrackedHeader, when not empty, is a header as
  /// included ("dftracer/dftracer.h"): expansions of the macros it defines
  /// are recorded as HeaderUses.
  static void attach(clang::Preprocessor &PP, PreprocessorIndex &Index,
                     std::vector<std::string> Markers,
                     std::function<bool(clang::FileID)> Wanted,
                     llvm::StringRef TrackedHeader = "");

  const FileFacts *facts(clang::FileID FID) const;
  /// Every file the preprocessor entered that Wanted accepted, facts or
  /// none.
  const llvm::DenseMap<clang::FileID, FileFacts> &files() const {
    return Files;
  }

  /// Whether a conditional (#if ... #endif) opens between Begin and End.
  bool hasConditionalIn(clang::FileID FID, unsigned Begin, unsigned End) const;
  /// Whether Offset lies in a conditional block that opens after Begin (a
  /// function body's `{`, say).
  bool inConditionalAfter(clang::FileID FID, unsigned Begin,
                          unsigned Offset) const;

  /// Whether a directive or skipped block overlaps [Begin, End] in FID.
  bool hasDirectiveBetween(clang::FileID FID, unsigned Begin,
                           unsigned End) const;

  /// Whether FID is a file included as the tracked header.
  bool isTrackedHeader(const clang::SourceManager &SM, clang::FileID FID) const;

private:
  friend class IndexingCallbacks;
  llvm::DenseMap<clang::FileID, FileFacts> Files;
  /// The files included as the tracked header.
  std::set<llvm::sys::fs::UniqueID> Tracked;
};

} // namespace annotate

#endif
