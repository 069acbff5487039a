//===- FunctionPlannerTest.cpp - START/END/INIT/FINI placement ------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

TEST(FunctionPlannerTest, StartEndAndFallOff) {
  Annotated A = annotateSnippet("void g(void);\n"
                                "void f(int a)\n{\n    if (a)\n        return;\n"
                                "    g();\n}\n");
  EXPECT_TRUE(contains(A.Code, "{\n    DFTRACER_C_FUNCTION_START();\n    if (a) { /* annotate */\n"
                               "        DFTRACER_C_FUNCTION_END();\n        return;\n"
                               "    }\n    g();\n    DFTRACER_C_FUNCTION_END();\n}\n"))
      << A.Code;
}

TEST(FunctionPlannerTest, ValueIsComputedInsideTheSpan) {
  Annotated A = annotateSnippet("typedef long hid_t;\nhid_t open_it(int);\n"
                                "hid_t f(int a) {\n  return open_it(a);\n}\n");
  EXPECT_TRUE(contains(A.Code, "  { hid_t annotate_ret = (open_it(a)); "
                               "DFTRACER_C_FUNCTION_END(); return annotate_ret; }\n}"))
      << A.Code;
}

TEST(FunctionPlannerTest, ReturnedExpressionKeepsItsMacros) {
  Annotated A = annotateSnippet("int g(int);\n#define TWICE(x) (2 * g(x))\n"
                                "int f(int a) {\n  return TWICE(a);\n}\n");
  EXPECT_TRUE(contains(A.Code, "(TWICE(a))")) << A.Code;
}

TEST(FunctionPlannerTest, NoEndAfterNoReturnTail) {
  Annotated A = annotateSnippet("#include <stdlib.h>\n"
                                "void f(void) {\n  exit(1);\n}\n");
  EXPECT_FALSE(contains(A.Code, "FUNCTION_END")) << A.Code;
}

TEST(FunctionPlannerTest, ReturnInMacroIsReported) {
  Annotated A = annotateSnippet("#define CHECK(x) if (!(x)) return -1\n"
                                "int f(int a) {\n  CHECK(a > 0);\n  return 0;\n}\n");
  EXPECT_TRUE(contains(A.Warnings, "input.c:3:3: warning: return inside macro 'CHECK'"))
      << A.Warnings;
  EXPECT_TRUE(contains(A.Code, "#define CHECK(x) if (!(x)) return -1\n"));
  EXPECT_TRUE(contains(A.Code, "DFTRACER_C_FUNCTION_START();")) << A.Code;
}

TEST(FunctionPlannerTest, MainWrapsMpi) {
  Annotated A = annotateSnippet(
      "int MPI_Init(int *, char ***);\nint MPI_Finalize(void);\nint work(void);\n"
      "int main(int argc, char **argv) {\n"
      "  if (argc < 2) return 1;\n"
      "  MPI_Init(&argc, &argv);\n"
      "  if (work()) return 2;\n"
      "  MPI_Finalize();\n"
      "  return 0;\n}\n");
  EXPECT_TRUE(contains(A.Code, "  if (argc < 2) return 1;\n  MPI_Init(&argc, &argv);\n"
                               "  DFTRACER_C_INIT(NULL, NULL, NULL);\n"
                               "  DFTRACER_C_FUNCTION_START();\n"))
      << A.Code;
  EXPECT_TRUE(contains(A.Code, "if (work()) { /* annotate */ DFTRACER_C_FUNCTION_END(); "
                               "DFTRACER_C_FINI(); return 2; }"))
      << A.Code;
  EXPECT_TRUE(contains(A.Code, "  DFTRACER_C_FUNCTION_END();\n  DFTRACER_C_FINI();\n"
                               "  MPI_Finalize();\n  return 0;\n}"))
      << A.Code;
}

TEST(FunctionPlannerTest, AReturnInsideAReturnedValueComposes) {
  // A GNU statement expression: the inner END inside the copied value, the
  // value computed inside the span; nothing dropped as conflicting.
  Annotated A = annotateSnippet(
      "int f(int x) {\n  return ({ if (x < 0) return -1; x / 2; });\n}\n");
  EXPECT_TRUE(contains(A.Code,
                       "  { int annotate_ret = (({ if (x < 0) { /* annotate */ "
                       "DFTRACER_C_FUNCTION_END(); return -1; } x / 2; })); "
                       "DFTRACER_C_FUNCTION_END(); return annotate_ret; }\n"))
      << A.Code;
  EXPECT_EQ(A.Warnings, "");
}

TEST(FunctionPlannerTest, MainWithOptionalMpiStartsAfterTheBlock) {
  // MPI_Init and MPI_Finalize under #ifdef: INIT after the #endif, END and
  // FINI before the #ifdef, whether USE_MPI is defined or not.
  std::string Source = "int MPI_Init(int *, char ***);\nint MPI_Finalize(void);\n"
                       "int work(void);\n"
                       "int main(int argc, char **argv) {\n"
                       "#ifdef USE_MPI\n"
                       "  MPI_Init(&argc, &argv);\n"
                       "#endif\n"
                       "  work();\n"
                       "#ifdef USE_MPI\n"
                       "  MPI_Finalize();\n"
                       "#endif\n"
                       "  return 0;\n}\n";
  const char *Expected = "#ifdef USE_MPI\n"
                         "  MPI_Init(&argc, &argv);\n"
                         "#endif\n"
                         "  DFTRACER_C_INIT(NULL, NULL, NULL);\n"
                         "  DFTRACER_C_FUNCTION_START();\n"
                         "  work();\n"
                         "  DFTRACER_C_FUNCTION_END();\n"
                         "  DFTRACER_C_FINI();\n"
                         "#ifdef USE_MPI\n"
                         "  MPI_Finalize();\n"
                         "#endif\n"
                         "  return 0;\n}";
  Annotated Without = annotateSnippet(Source);
  EXPECT_TRUE(contains(Without.Code, Expected)) << Without.Code;
  Annotated With = annotateSnippet("#define USE_MPI 1\n" + Source);
  EXPECT_TRUE(contains(With.Code, Expected)) << With.Code;
}

TEST(FunctionPlannerTest, MainMetadataIsEscaped) {
  AnnotateOptions Options = defaultOptions();
  Options.Meta = {{"app", "say \"hi\""}};
  Annotated A = annotateSnippet("int main(void) {\n  return 0;\n}\n", Options);
  EXPECT_TRUE(contains(A.Code, "DFTRACER_C_METADATA(annotate_meta_0, \"app\", "
                               "\"say \\\"hi\\\"\");"))
      << A.Code;
}

TEST(FunctionPlannerTest, MainClosesBeforeAbortingMacroOnly) {
  Annotated A = annotateSnippet(
      "int MPI_Abort(int, int);\nint g(void);\n"
      "#define ERR(m) do { g(); MPI_Abort(0, 1); } while (0)\n"
      "#define CHECK(x) do { if (x) MPI_Abort(0, 1); } while (0)\n"
      "int main(void) {\n  CHECK(g());\n  if (g()) ERR(\"x\");\n  return 0;\n}\n");
  // CHECK only sometimes aborts: closing before it would end the trace.
  EXPECT_TRUE(contains(A.Code, "START();\n  CHECK(g());")) << A.Code;
  EXPECT_TRUE(contains(A.Code, "if (g()) { /* annotate */ DFTRACER_C_FUNCTION_END(); "
                               "DFTRACER_C_FINI(); ERR(\"x\"); }"))
      << A.Code;
}

// The space goes on the side of END that had none, so that the two inputs
// stay apart once annotated (annotate --strip tells them apart).
TEST(FunctionPlannerTest, InlineEndAtClosingBraceKeepsTheSpacing) {
  Annotated Spaced = annotateSnippet("void g(void);\nvoid f(void) { g(); }\n");
  EXPECT_TRUE(contains(Spaced.Code, "    DFTRACER_C_FUNCTION_START(); g(); "
                                    "DFTRACER_C_FUNCTION_END(); }\n"))
      << Spaced.Code;
  Annotated Tight = annotateSnippet("void g(void);\nvoid f(void) { g();}\n");
  EXPECT_TRUE(contains(Tight.Code, "    DFTRACER_C_FUNCTION_START(); g(); "
                                   "DFTRACER_C_FUNCTION_END();}\n"))
      << Tight.Code;
}

// What lies between `return` and its value, and between the value and `;`,
// moves into the block: no byte of the statement is lost.
TEST(FunctionPlannerTest, ValueReturnKeepsItsSpacing) {
  Annotated A = annotateSnippet("int g(int);\n"
                                "int f(int a) {\n  if (a) return(g(a));\n"
                                "  return /* why */\n    g(a + 1) ;\n}\n");
  EXPECT_TRUE(contains(A.Code, "if (a) { int annotate_ret =((g(a))); "
                               "DFTRACER_C_FUNCTION_END(); return annotate_ret; }"))
      << A.Code;
  EXPECT_TRUE(contains(A.Code, "  { int annotate_ret = /* why */\n    (g(a + 1)) ; "
                               "DFTRACER_C_FUNCTION_END(); return annotate_ret; }\n"))
      << A.Code;
}

// C++ main keeps C's START, so its category update is C's: the C++ one
// names the RAII guard, which main does not have.
TEST(FunctionPlannerTest, CxxMainGetsTheCCategoryUpdate) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.CategoriesEnabled = true;
  std::string Code = annotateSnippet("int work();\nint main() {\n  return work();\n}\n"
                                     "int work() {\n  return main();\n}\n",
                                     Options, "input.cpp")
                         .Code;
  EXPECT_TRUE(contains(Code, "  DFTRACER_C_FUNCTION_START();\n"
                             "  DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"cpu\");\n"))
      << Code;
  EXPECT_TRUE(contains(Code, "  DFTRACER_CPP_FUNCTION();\n"
                             "  DFTRACER_CPP_FUNCTION_UPDATE(\"comp\", \"cpu\");\n"))
      << Code;
}

TEST(FunctionPlannerTest, AnnotatingTwiceChangesNothing) {
  const char *Code = "#include <stdio.h>\nint g(int);\n"
                     "int f(int a) {\n  if (a) return g(a);\n  puts(\"x\");\n  return 0;\n}\n"
                     "int main(void) {\n  return f(1);\n}\n";
  Annotated Once = annotateSnippet(Code);
  Annotated Twice = annotateSnippet(Once.Code);
  EXPECT_EQ(Once.Code, Twice.Code);
  EXPECT_NE(Once.Code, Code);
}

TEST(FunctionPlannerTest, CxxGetsOnlyTheGuard) {
  TranslationUnitResult R = annotateCode(
      "struct F { int g(int a) { if (a) return 1; return a; } };\n"
      "F::F() {}\n",
      "input.cpp", {"-std=c++17"}, defaultOptions());
  // F::F() is not declared: the code does not compile, nothing is planned.
  EXPECT_TRUE(R.Failed);
  R = annotateCode("struct F { F(); int g(int a) { if (a) return 1; return a; }"
                   " int x; };\nF::F() : x(0) {\n}\n",
                   "input.cpp", {"-std=c++17"}, defaultOptions());
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  ASSERT_EQ(R.Files.size(), 1u);
  const FileAnnotation &F = R.Files.begin()->second;
  std::string Code = applyEdits(F.Original, F.Edits.merge().Edits);
  EXPECT_TRUE(contains(Code, "int g(int a) {\n    DFTRACER_CPP_FUNCTION(); "
                             "if (a) return 1; return a; }"))
      << Code;
  EXPECT_TRUE(contains(Code, "F::F() : x(0) {\n    DFTRACER_CPP_FUNCTION();\n}"))
      << Code;
  EXPECT_FALSE(contains(Code, "FUNCTION_END")) << Code;
}

} // namespace
