//===- StripPlannerTest.cpp - annotate --strip, one file at a time --------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// Annotates Code, then strips the result: it must give Code back, byte
/// for byte, and stripping that again must change nothing.
void expectRoundTrip(llvm::StringRef Code,
                     AnnotateOptions Options = defaultOptions()) {
  Annotated A = annotateSnippet(Code, Options);
  ASSERT_FALSE(A.Result.Failed) << A.Result.FailureReason;
  ASSERT_NE(A.Code, Code.str()) << "nothing was annotated";
  Stripped S = stripSnippet(A.Code, Options);
  EXPECT_EQ(S.Code, Code.str()) << "annotated:\n" << A.Code << S.Warnings;
  EXPECT_EQ(S.Unremoved, 0u) << S.Warnings;
  EXPECT_EQ(stripSnippet(S.Code, Options).Code, S.Code);
}

const char *Kernel = R"c(#include <stdio.h>
#include <stdlib.h>

/* Opens the file of a phase. */
static FILE *open_phase(const char *name, int dryRun)
{
    if (dryRun) return NULL;
    FILE *f = fopen(name, "w");
    if (f == NULL)
        return NULL;
    else if (ferror(f)) {
        return NULL;
    }
    return(f);
}

int write_all(FILE *f, const char *buf, size_t n) {
    size_t done = 0;
    while (done < n) {
        size_t w = fwrite(buf + done, 1, n - done, f);
        if (w == 0) { return -1; }
        done += w;
    }
    return fflush(f)  ;
}

void tight(FILE *f) { fclose(f);}

void empty(void) { }

int classify(int kind)
{
    switch (kind) {
    case 0: return puts("zero");
    case 1: return 1;
    default:
        break;
    }
done:
    return kind > 1 ? 2 : 3;
}
)c";

TEST(StripPlannerTest, RoundTripDefaultLayout) { expectRoundTrip(Kernel); }

TEST(StripPlannerTest, RoundTripEveryBodyBraced) {
  AnnotateOptions Options = defaultOptions();
  Options.Braces = BracePolicy::All;
  expectRoundTrip(Kernel, Options);
}

TEST(StripPlannerTest, RoundTripLineDirectives) {
  AnnotateOptions Options = defaultOptions();
  Options.LineDirectives = true;
  expectRoundTrip(Kernel, Options);
}

TEST(StripPlannerTest, RoundTripCategoriesAndCrlf) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.CategoriesEnabled = true;
  std::string Crlf;
  for (char C : llvm::StringRef(Kernel)) {
    if (C == '\n')
      Crlf += '\r';
    Crlf += C;
  }
  expectRoundTrip(Crlf, Options);
}

TEST(StripPlannerTest, RoundTripMainWithMpiAndMetadata) {
  AnnotateOptions Options = defaultOptions();
  Options.Meta = {{"app", "ior"}, {"note", "tab\there"}};
  expectRoundTrip("int MPI_Init(int *, char ***);\nint MPI_Finalize(void);\n"
                  "int MPI_Abort(int, int);\nint work(int);\n"
                  "int main(int argc, char **argv)\n{\n"
                  "    if (argc < 2) return 1;\n"
                  "    MPI_Init(&argc, &argv); // start\n"
                  "    if (work(argc)) MPI_Abort(0, 2);\n"
                  "    if (argc > 5)\n        return work(0);\n"
                  "    MPI_Finalize();\n"
                  "    return 0;\n}\n",
                  Options);
}

// `if (x) { return 1; }` and `if (x) return 1;` both get END inside
// braces; the user's braces stay, annotate's go.
TEST(StripPlannerTest, UserBracesStayAddedBracesGo) {
  const char *Code = "int f(int x) {\n  if (x) { return 1; }\n"
                     "  if (x > 1) return 2;\n  if (x > 2) {\n    return 3;\n  }\n"
                     "  return 0;\n}\n";
  expectRoundTrip(Code);
}

TEST(StripPlannerTest, EditsAfterAnnotationAreKept) {
  Annotated A = annotateSnippet("#include <stdio.h>\n"
                                "int f(int fd) {\n  if (fd < 0)\n    return -1;\n"
                                "  printf(\"x\");\n  return fd;\n}\n");
  std::string Edited = A.Code;
  auto Replace = [&Edited](llvm::StringRef From, llvm::StringRef To) {
    size_t At = Edited.find(From.str());
    ASSERT_NE(At, std::string::npos) << From.str() << "\n" << Edited;
    Edited.replace(At, From.size(), To.str());
  };
  // A statement in the traced function, comments next to two ENDs, a new
  // function.
  Replace("  printf(\"x\");\n", "  printf(\"x\");\n  fflush(stdout);\n");
  Replace("    DFTRACER_C_FUNCTION_END();\n    return -1;",
          "    // bad descriptor\n    DFTRACER_C_FUNCTION_END(); /* early */\n"
          "    return -1;");
  Replace("  DFTRACER_C_FUNCTION_END();\n  return fd;",
          "  DFTRACER_C_FUNCTION_END();\n  // done\n  return fd;");
  Edited += "static int g(void) { return 2; }\n";
  Stripped S = stripSnippet(Edited);
  EXPECT_EQ(S.Code, "#include <stdio.h>\n"
                    "int f(int fd) {\n  if (fd < 0)\n    // bad descriptor\n"
                    "    /* early */\n    return -1;\n"
                    "  printf(\"x\");\n  fflush(stdout);\n  // done\n  return fd;\n}\n"
                    "static int g(void) { return 2; }\n")
      << S.Warnings;
  EXPECT_EQ(S.Unremoved, 0u) << S.Warnings;
}

TEST(StripPlannerTest, AStartMovedKeepsTheFunctionAsItIs) {
  const char *Code = "#include <dftracer/dftracer.h>\n"
                     "int f(int a) {\n  int x = a;\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return x;\n}\n"
                     "int g(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n";
  Stripped S = stripSnippet(Code);
  EXPECT_EQ(S.Unremoved, 1u) << S.Warnings;
  EXPECT_TRUE(contains(S.Warnings, "input.c:4:3: warning: START is not where "
                                   "annotate writes it: first in the body; 'f' "
                                   "keeps its annotations"))
      << S.Warnings;
  // f keeps everything (and so the include); g is stripped.
  EXPECT_EQ(S.Code, "#include <dftracer/dftracer.h>\n"
                    "int f(int a) {\n  int x = a;\n  DFTRACER_C_FUNCTION_START();\n"
                    "  DFTRACER_C_FUNCTION_END();\n  return x;\n}\n"
                    "int g(int a) {\n  return a;\n}\n");
}

/// Strips Code, which must stay as it is, with one warning holding Warning
/// about an annotation left in place.
void expectKept(llvm::StringRef Code, llvm::StringRef Warning) {
  Stripped S = stripSnippet(Code);
  EXPECT_EQ(S.Code, Code.str());
  EXPECT_EQ(S.Unremoved, 1u) << S.Warnings;
  EXPECT_TRUE(contains(S.Warnings, Warning)) << S.Warnings;
}

TEST(StripPlannerTest, AnEndInAUserMacroKeepsTheFunction) {
  const char *Code =
      "#include <dftracer/dftracer.h>\n"
      "#define DONE(v) do { DFTRACER_C_FUNCTION_END(); return (v); } while (0)\n"
      "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n  if (a) DONE(1);\n"
      "  DFTRACER_C_FUNCTION_END();\n  return 0;\n}\n";
  expectKept(Code, "input.c:5:10: warning: DFTRACER_C_FUNCTION_END is expanded "
                   "inside macro 'DONE'");
}

TEST(StripPlannerTest, AnEndAwayFromAReturnKeepsTheFunction) {
  const char *Code = "#include <dftracer/dftracer.h>\nvoid g(void);\n"
                     "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  g();\n  return a;\n}\n";
  expectKept(Code, "input.c:5:3: warning: END is neither right before a return "
                   "nor right before the closing brace of the function");
}

TEST(StripPlannerTest, AValueReturnWithACommentIsNotAnnotatesForm) {
  const char *Code =
      "#include <dftracer/dftracer.h>\nint g(void);\n"
      "int f(void) {\n  DFTRACER_C_FUNCTION_START();\n"
      "  { int annotate_ret = (g()); /* keep */ DFTRACER_C_FUNCTION_END(); "
      "return annotate_ret; }\n}\n";
  expectKept(Code, "input.c:5:3: warning: the value return is not in the form "
                   "annotate writes");
}

TEST(StripPlannerTest, AddedBracesNowHoldingTwoStatementsStay) {
  const char *Code = "#include <dftracer/dftracer.h>\nvoid g(void);\n"
                     "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  if (a) { /* annotate */ g(); DFTRACER_C_FUNCTION_END(); "
                     "return 1; }\n  DFTRACER_C_FUNCTION_END();\n  return 0;\n}\n";
  Stripped S = stripSnippet(Code);
  EXPECT_EQ(S.Code, "void g(void);\nint f(int a) {\n  if (a) { g(); return 1; }\n"
                    "  return 0;\n}\n")
      << S.Warnings;
  EXPECT_EQ(S.Unremoved, 0u);
  EXPECT_TRUE(contains(S.Warnings, "braces annotate added are kept (they hold 2 "
                                   "statements now)"))
      << S.Warnings;
}

TEST(StripPlannerTest, BracesWhoseRemovalWouldMoveAnElseStay) {
  const char *Code = "#include <dftracer/dftracer.h>\nvoid g(void);\n"
                     "int f(int a, int b) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  if (a) { /* annotate */ if (b) g(); } else g();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return 0;\n}\n";
  Stripped S = stripSnippet(Code);
  EXPECT_TRUE(contains(S.Code, "  if (a) { if (b) g(); } else g();\n")) << S.Code;
}

TEST(StripPlannerTest, HandWrittenAnnotationsOfTheFormGoOptedOutOnesStay) {
  const char *Code = "#include <dftracer/dftracer.h>\n"
                     "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n"
                     "// annotate: skip\n"
                     "int g(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n";
  Stripped S = stripSnippet(Code);
  // g keeps its annotations, so the file keeps the include.
  EXPECT_EQ(S.Code, "#include <dftracer/dftracer.h>\n"
                    "int f(int a) {\n  return a;\n}\n"
                    "// annotate: skip\n"
                    "int g(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                    "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n");
  EXPECT_EQ(S.Unremoved, 0u) << S.Warnings;
  ASSERT_EQ(S.Result.Functions.size(), 2u);
  EXPECT_TRUE(S.Result.Functions[0].Annotated);
  EXPECT_EQ(S.Result.Functions[1].SkipReason, "opt-out comment");
}

TEST(StripPlannerTest, TheIncludeStaysWhileTheHeaderIsUsed) {
  const char *Code = "#include <dftracer/dftracer.h>\n"
                     "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                     "  DFTRACER_C_REGION_START(loop);\n"
                     "  DFTRACER_C_REGION_END(loop);\n"
                     "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n";
  Stripped S = stripSnippet(Code);
  EXPECT_EQ(S.Code, "#include <dftracer/dftracer.h>\n"
                    "int f(int a) {\n  DFTRACER_C_REGION_START(loop);\n"
                    "  DFTRACER_C_REGION_END(loop);\n  return a;\n}\n");
  // A macro of the header counts though it uses none of its declarations,
  S = stripSnippet("#include <dftracer/dftracer.h>\n"
                   "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                   "  if (DFTRACER_UNLIKELY_(a)) a = 0;\n"
                   "  DFTRACER_C_FUNCTION_END();\n  return a;\n}\n");
  EXPECT_TRUE(contains(S.Code, "#include <dftracer/dftracer.h>\n")) << S.Code;
  // and a declaration of the header used directly.
  S = stripSnippet("#include <dftracer/dftracer.h>\n"
                   "int f(int a) {\n  DFTRACER_C_FUNCTION_START();\n"
                   "  dftracer_fini();\n  DFTRACER_C_FUNCTION_END();\n"
                   "  return a;\n}\n");
  EXPECT_TRUE(contains(S.Code, "#include <dftracer/dftracer.h>\n")) << S.Code;
}

TEST(StripPlannerTest, AFileWithoutAnnotationsKeepsEveryByte) {
  const char *Code = "#line 1 \"gen.y\"\n#include <dftracer/dftracer.h>\n"
                     "int g(int);\n"
                     "int f(int x) {\n  if (x) { return(g(x)); }\n"
                     "  { int annotate_ret = g(x); return annotate_ret; }\n}\n";
  Stripped S = stripSnippet(Code);
  EXPECT_EQ(S.Code, Code);
  EXPECT_TRUE(S.Result.Files.empty());
  EXPECT_EQ(S.Warnings, "");
}

TEST(StripPlannerTest, CxxGuardsAndLambdas) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.CxxLambdas = true;
  const char *Code = "struct F {\n  int g(int a) { if (a) return 1; return a; }\n"
                     "  F() : x(0) {\n  }\n  int x;\n};\n"
                     "int h(int n) {\n  auto twice = [](int v) {\n    return 2 * v;\n"
                     "  };\n  return twice(n);\n}\n";
  std::string Annotated = annotateSnippet(Code, Options, "input.cpp").Code;
  ASSERT_TRUE(contains(Annotated, "[](int v) {\n    DFTRACER_CPP_FUNCTION();"))
      << Annotated;
  Stripped S = stripSnippet(Annotated, Options, "input.cpp");
  EXPECT_EQ(S.Code, Code) << S.Warnings;
}

TEST(StripPlannerTest, CaliperRuleSet) {
  AnnotateOptions Options = defaultOptions();
  auto Caliper = loadRuleSet("caliper", ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(bool(Caliper)) << llvm::toString(Caliper.takeError());
  Options.Rules = std::move(*Caliper);
  Options.Rules.GuardMinStatements = 0;
  std::string Include =
      "-I" ANNOTATE_SOURCE_RULES_DIR "/../test/rulesets/include";
  const char *Code = "int g(int);\nint f(int a) {\n  if (a) return g(a);\n"
                     "  return 0;\n}\n";
  TranslationUnitResult R =
      annotateCode(Code, "input.c", {"-std=gnu11", Include}, Options);
  ASSERT_EQ(R.Files.size(), 1u) << R.FailureReason;
  const FileAnnotation &F = R.Files.begin()->second;
  std::string Annotated = applyEdits(F.Original, F.Edits.merge().Edits);
  ASSERT_TRUE(contains(Annotated, "CALI_MARK_FUNCTION_END;")) << Annotated;
  Options.Strip = true;
  R = annotateCode(Annotated, "input.c", {"-std=gnu11", Include}, Options);
  ASSERT_EQ(R.Files.size(), 1u) << R.FailureReason;
  const FileAnnotation &G = R.Files.begin()->second;
  EXPECT_EQ(applyEdits(G.Original, G.Edits.merge().Edits), Code);
  // DFTracer's statements mean nothing to the Caliper rule set.
  EXPECT_EQ(stripSnippet(annotateSnippet(Code).Code, Options).Code,
            annotateSnippet(Code).Code);
}

TEST(StripPlannerTest, LineDirectivesNamingAnAbsolutePathGo) {
  Stripped S = stripSnippet("#line 1 \"/src/io.c\"\nint f(void);\n");
  EXPECT_EQ(S.Code, "int f(void);\n");
  S = stripSnippet("#line 1 \"io.c\"\nint f(void);\n");
  EXPECT_EQ(S.Code, "#line 1 \"io.c\"\nint f(void);\n");
}

} // namespace
