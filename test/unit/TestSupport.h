//===- TestSupport.h - Annotating snippets in unit tests --------*- C++ -*-===//

#ifndef ANNOTATE_TEST_TESTSUPPORT_H
#define ANNOTATE_TEST_TESTSUPPORT_H

#include "annotate/Annotator.h"

#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"

#include <memory>
#include <string>

namespace annotate {
namespace test {

/// The dftracer rule set from the source tree, braces as needed, the
/// overhead guard off.
AnnotateOptions defaultOptions();

struct Annotated {
  std::string Code;
  TranslationUnitResult Result;
  /// Diagnostics joined by newlines.
  std::string Warnings;
};

/// Whether Needle occurs in Haystack.
inline bool contains(const std::string &Haystack, llvm::StringRef Needle) {
  return Haystack.find(Needle.str()) != std::string::npos;
}

/// The language flag of a snippet named FileName: C (gnu11), or C++17 when
/// it ends in ".cpp".
std::vector<std::string> snippetArgs(llvm::StringRef FileName);

/// Annotates Code as the C file "input.c" (C++ when FileName ends in
/// ".cpp") and applies the merged edits.
Annotated annotateSnippet(llvm::StringRef Code,
                          const AnnotateOptions &Options = defaultOptions(),
                          llvm::StringRef FileName = "input.c");

/// annotate --strip on Code as the C (or, named "*.cpp", C++) file
/// FileName; Unremoved counts the warnings about annotations left.
struct Stripped : Annotated {
  unsigned Unremoved = 0;
};
Stripped stripSnippet(llvm::StringRef Code,
                      const AnnotateOptions &Options = defaultOptions(),
                      llvm::StringRef FileName = "input.c");

/// Parses Code as C (gnu11) for tests that look at the AST.
std::unique_ptr<clang::ASTUnit> parseC(llvm::StringRef Code);

/// The function definition called Name in Unit.
const clang::FunctionDecl *findFunction(clang::ASTUnit &Unit,
                                        llvm::StringRef Name);

} // namespace test
} // namespace annotate

#endif
