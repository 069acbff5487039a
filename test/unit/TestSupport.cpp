//===- TestSupport.cpp ----------------------------------------------------===//

#include "TestSupport.h"

#include "clang/Tooling/Tooling.h"
#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

namespace annotate {
namespace test {

AnnotateOptions defaultOptions() {
  AnnotateOptions Options;
  auto Rules = loadRuleSet("dftracer", ANNOTATE_SOURCE_RULES_DIR);
  if (!Rules) {
    ADD_FAILURE() << llvm::toString(Rules.takeError());
    return Options;
  }
  Options.Rules = std::move(*Rules);
  // Placement tests annotate tiny functions: keep the overhead guard out of
  // their way (GuardTest covers it).
  Options.Rules.GuardMinStatements = 0;
  Options.RuntimeIncludeDir = ANNOTATE_SOURCE_RUNTIME_INCLUDE_DIR;
  Options.ResourceDir = ANNOTATE_CLANG_RESOURCE_DIR;
  return Options;
}

std::vector<std::string> snippetArgs(llvm::StringRef FileName) {
  return {FileName.ends_with(".cpp") ? "-std=c++17" : "-std=gnu11"};
}

Annotated annotateSnippet(llvm::StringRef Code, const AnnotateOptions &Options,
                          llvm::StringRef FileName) {
  Annotated A;
  A.Result = annotateCode(Code, FileName, snippetArgs(FileName), Options);
  A.Code = Code.str();
  for (const auto &[Path, File] : A.Result.Files)
    A.Code = applyEdits(File.Original, File.Edits.merge().Edits);
  for (const Diagnostic &D : A.Result.Diagnostics)
    A.Warnings += D.format() + "\n";
  return A;
}

Stripped stripSnippet(llvm::StringRef Code, const AnnotateOptions &Options,
                      llvm::StringRef FileName) {
  AnnotateOptions Strip = Options;
  Strip.Strip = true;
  Stripped S{annotateSnippet(Code, Strip, FileName)};
  for (const Diagnostic &D : S.Result.Diagnostics)
    S.Unremoved += D.Unremoved;
  return S;
}

std::unique_ptr<clang::ASTUnit> parseC(llvm::StringRef Code) {
  return clang::tooling::buildASTFromCodeWithArgs(
      Code, {"-std=gnu11", "-resource-dir=" ANNOTATE_CLANG_RESOURCE_DIR},
      "input.c");
}

const clang::FunctionDecl *findFunction(clang::ASTUnit &Unit,
                                        llvm::StringRef Name) {
  for (const clang::Decl *D :
       Unit.getASTContext().getTranslationUnitDecl()->decls())
    if (const auto *FD = llvm::dyn_cast<clang::FunctionDecl>(D))
      if (FD->getName() == Name && FD->doesThisDeclarationHaveABody())
        return FD;
  return nullptr;
}

} // namespace test
} // namespace annotate
