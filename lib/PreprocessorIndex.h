//===- PreprocessorIndex.h - What the preprocessor saw ---------*- C++ -*-===//
//
// The AST forgets preprocessor directives, but edits must not cross them:
// braces around an `if` body split by `#ifdef` would no longer match in one
// of the configurations. This index records, per file, where directives and
// skipped conditional blocks are, where the top-level includes end, and where
// the rule set's marker macros (e.g. DFTRACER_C_FUNCTION_START) were expanded.
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
    unsigned Offset;
  };
  struct FileFacts {
    /// [Begin, End) byte ranges of directive lines and skipped blocks.
    std::vector<std::pair<unsigned, unsigned>> Directives;
    std::vector<Include> Includes;
    std::vector<MacroUse> Markers;
    /// Offset of the first conditional directive, used to recognise an
    /// include guard (whose depth does not count as "inside #if").
    unsigned FirstConditionalOffset = ~0u;
  };

  /// Installs callbacks on PP that fill this index for the files Wanted
  /// accepts (system headers are never wanted: recording their thousands of
  /// #defines would cost time for nothing). Markers are the macro names whose
  /// expansions are recorded.
  static void attach(clang::Preprocessor &PP, PreprocessorIndex &Index,
                     std::vector<std::string> Markers,
                     std::function<bool(clang::FileID)> Wanted);

  const FileFacts *facts(clang::FileID FID) const;

  /// Whether a directive or skipped block overlaps [Begin, End] in FID.
  bool hasDirectiveBetween(clang::FileID FID, unsigned Begin,
                           unsigned End) const;

private:
  friend class IndexingCallbacks;
  llvm::DenseMap<clang::FileID, FileFacts> Files;
};

} // namespace annotate

#endif
