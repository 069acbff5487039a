//===- SelectionTest.cpp --------------------------------------------------===//

#include "Selection.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

std::string reasonFor(const Annotated &A, llvm::StringRef Name) {
  for (const FunctionRecord &F : A.Result.Functions)
    if (F.Name == Name)
      return F.Annotated ? "annotated" : F.SkipReason;
  return "not seen";
}

TEST(SelectionTest, DefinitionsAreSelectedDeclarationsIgnored) {
  Annotated A = annotateSnippet("int f(int);\nint f(int x) { return x; }\n");
  ASSERT_EQ(A.Result.Functions.size(), 1u);
  EXPECT_EQ(reasonFor(A, "f"), "annotated");
}

TEST(SelectionTest, MacroGeneratedFunctionsAreSkipped) {
  Annotated A = annotateSnippet(
      "#define COUNTER(n) static int n##_inc(void) { static int c; return ++c; }\n"
      "COUNTER(open)\n"
      "int use(void) { return open_inc(); }\n");
  EXPECT_EQ(reasonFor(A, "open_inc"), "macro expansion");
  EXPECT_EQ(reasonFor(A, "use"), "annotated");
}

TEST(SelectionTest, AlreadyAnnotatedFunctionsAreSkipped) {
  Annotated A = annotateSnippet("#include <dftracer/dftracer.h>\n"
                                "void f(void) {\n"
                                "    DFTRACER_C_FUNCTION_START();\n"
                                "    DFTRACER_C_FUNCTION_END();\n"
                                "}\n"
                                "void g(void) {}\n");
  EXPECT_EQ(reasonFor(A, "f"), "already annotated");
  EXPECT_EQ(reasonFor(A, "g"), "annotated");
}

TEST(SelectionTest, NakedFunctionsAreSkipped) {
  Annotated A = annotateSnippet(
      "__attribute__((naked)) void trampoline(void) { __asm__(\"ret\"); }\n");
  EXPECT_EQ(reasonFor(A, "trampoline"), "naked");
}

TEST(SelectionTest, SystemHeaderFunctionsAreNotReported) {
  Annotated A = annotateSnippet("#include <stdio.h>\nvoid f(void) {}\n");
  EXPECT_EQ(A.Result.Functions.size(), 1u);
}

TEST(SelectionTest, CPlusPlusIsRefusedClearly) {
  TranslationUnitResult R =
      annotateCode("int f() { return 1; }\n", "input.cpp", {}, defaultOptions());
  EXPECT_TRUE(R.Failed);
  EXPECT_NE(R.FailureReason.find("C++"), std::string::npos);
  EXPECT_TRUE(R.Files.empty());
}

TEST(SelectionTest, CodeThatDoesNotParseIsNotAnnotated) {
  TranslationUnitResult R =
      annotateCode("int f( { return 1; }\n", "input.c", {}, defaultOptions());
  EXPECT_TRUE(R.Failed);
  EXPECT_TRUE(R.Files.empty());
}

} // namespace
