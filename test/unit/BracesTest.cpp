//===- BracesTest.cpp - Safe brace insertion (SPEC §3) --------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

const char *Start = "DFTRACER_C_FUNCTION_START();";
const char *End = "DFTRACER_C_FUNCTION_END();";

/// The annotated body of `int f(int a, int b)` without START/include.
std::string bodyOf(llvm::StringRef Body,
                   const AnnotateOptions &Options = defaultOptions()) {
  std::string Code = "int g(void);\nvoid h(void);\n"
                     "#define MPI_CHECK(x) do { if ((x) != 0) h(); } while (0)\n"
                     "int f(int a, int b) {\n" +
                     Body.str() + "}\n";
  Annotated A = annotateSnippet(Code, Options);
  std::string Out = A.Code;
  size_t Begin = Out.find(Start);
  EXPECT_NE(Begin, std::string::npos) << Out;
  Out = Out.substr(Begin + strlen(Start) + 1);
  return Out.substr(0, Out.rfind("}\n"));
}

TEST(BracesTest, SameLineBodyGetsInlineBraces) {
  EXPECT_EQ(bodyOf("  if (a) return 1;\n  return 0;\n"),
            "  if (a) { /* annotate */ " + std::string(End) + " return 1; }\n  " + End +
                "\n  return 0;\n");
}

TEST(BracesTest, NextLineBodyGetsBracesOnTheirOwnLines) {
  EXPECT_EQ(bodyOf("  if (a)\n    return 1;\n  return 0;\n"),
            "  if (a) { /* annotate */\n    " + std::string(End) + "\n    return 1;\n  }\n  " +
                End + "\n  return 0;\n");
}

TEST(BracesTest, NoBraceBeforeElseIf) {
  std::string Out =
      bodyOf("  if (a) g();\n  else if (b) return 2;\n  else g();\n  return 0;\n");
  EXPECT_NE(Out.find("else if (b) { /* annotate */ " + std::string(End) + " return 2; }\n"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("else {"), std::string::npos) << Out;
}

TEST(BracesTest, DanglingElseKeepsItsIf) {
  std::string Out = bodyOf("  if (a) if (b) return 1; else g();\n  return 0;\n");
  // The else still belongs to `if (b)`: only the inner then-body is braced.
  EXPECT_NE(Out.find("if (a) if (b) { /* annotate */ " + std::string(End) +
                     " return 1; } else g();"),
            std::string::npos)
      << Out;
}

TEST(BracesTest, ClosingBraceBeforeFollowingElse) {
  std::string Out =
      bodyOf("  if (a) return g(); else MPI_CHECK(g());\n  return 0;\n");
  EXPECT_NE(Out.find("if (a) { int annotate_ret = (g()); " + std::string(End) +
                     " return annotate_ret; } else MPI_CHECK(g());"),
            std::string::npos)
      << Out;
}

TEST(BracesTest, NestedLoopsBraceOnlyTheInnermostBody) {
  std::string Out = bodyOf(
      "  for (int i = 0; i < a; i++)\n    for (int j = 0; j < b; j++)\n"
      "      if (i == j) return i;\n  return 0;\n");
  EXPECT_NE(Out.find("if (i == j) { /* annotate */ " + std::string(End) + " return i; }"),
            std::string::npos)
      << Out;
  EXPECT_EQ(Out.find("b; j++) {"), std::string::npos) << Out;
}

TEST(BracesTest, TrailingLineCommentStaysOnItsLine) {
  EXPECT_EQ(bodyOf("  if (a) return 1; // early\n  return 0;\n"),
            "  if (a) { /* annotate */ " + std::string(End) + " return 1; // early\n  }\n  " +
                End + "\n  return 0;\n");
}

TEST(BracesTest, DirectiveInsideBodyRefusesBraces) {
  AnnotateOptions Options = defaultOptions();
  Annotated A = annotateSnippet("int f(int a) {\n  if (a)\n#ifdef X\n"
                                "    return 1;\n#else\n    return 2;\n#endif\n"
                                "  return 0;\n}\n",
                                Options);
  EXPECT_NE(A.Warnings.find("preprocessor directive"), std::string::npos)
      << A.Warnings;
  // The function is still annotated; the END that could not go in is left
  // to the runtime's cleanup.
  EXPECT_NE(A.Code.find(Start), std::string::npos);
  EXPECT_NE(A.Code.find("#ifdef X\n    return 1;"), std::string::npos) << A.Code;
}

TEST(BracesTest, BracesNoneDropsTheInsertionWithAWarning) {
  AnnotateOptions Options = defaultOptions();
  Options.Braces = BracePolicy::None;
  std::string Out = bodyOf("  if (a) return 1;\n  return 0;\n", Options);
  EXPECT_NE(Out.find("  if (a) return 1;\n"), std::string::npos) << Out;
}

TEST(BracesTest, BracesAllBracesEveryBodyButNotMacros) {
  AnnotateOptions Options = defaultOptions();
  Options.Braces = BracePolicy::All;
  std::string Out = bodyOf("  if (a) g(); else if (b) h(); else g();\n"
                           "  while (a--) h();\n  MPI_CHECK(g());\n  return 0;\n",
                           Options);
  EXPECT_NE(Out.find("if (a) { /* annotate */ g(); } else if (b) { /* annotate */ h(); } "
                     "else { /* annotate */ g(); }"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("while (a--) { /* annotate */ h(); }"), std::string::npos) << Out;
  EXPECT_NE(Out.find("  MPI_CHECK(g());\n"), std::string::npos) << Out;
}

TEST(BracesTest, MultiLineAssertIsNeverBraced) {
  AnnotateOptions Options = defaultOptions();
  Options.Braces = BracePolicy::All;
  const char *Code = "#include <assert.h>\n"
                     "int f(int a) {\n"
                     "  assert(a > 0 &&\n"
                     "         a < 10);\n"
                     "  return a;\n"
                     "}\n";
  Annotated A = annotateSnippet(Code, Options);
  EXPECT_NE(A.Code.find("  assert(a > 0 &&\n         a < 10);\n"),
            std::string::npos)
      << A.Code;
  EXPECT_EQ(A.Warnings, "");
}

} // namespace
