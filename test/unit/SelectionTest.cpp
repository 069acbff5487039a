//===- SelectionTest.cpp --------------------------------------------------===//

#include "Selection.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

#include <map>

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

TEST(SelectionTest, FunctionsNamedByAMacroWithTheBodyInTheFileAreSelected) {
  // HDF5's H5Oshared.h: `static herr_t H5O_SHARED_DECODE(...) { ... }`.
  Annotated A = annotateSnippet("#define CAT2(a, b) a##b\n"
                                "#define CAT(a, b) CAT2(a, b)\n"
                                "#define DECODE CAT(fill, _shared_decode)\n"
                                "static int DECODE(int n) { int r = n; return r; }\n"
                                "int use(void) { return fill_shared_decode(1); }\n");
  EXPECT_EQ(reasonFor(A, "fill_shared_decode"), "annotated");
  EXPECT_TRUE(contains(A.Code, "static int DECODE(int n) {\n"
                               "    DFTRACER_C_FUNCTION_START();"))
      << A.Code;
}

TEST(SelectionTest, PureAndConstFunctionsAreSkippedWithTheirRule) {
  Annotated A = annotateSnippet(
      "__attribute__((pure)) int count(const int *p) { int n = 0; while (*p++) n++; return n; }\n"
      "int twice(int x) __attribute__((const));\n"
      "int twice(int x) { int y = x * 2; return y; }\n"
      "int plain(int x) { int y = x * 2; return y; }\n");
  EXPECT_EQ(reasonFor(A, "count"), "pure or const");
  EXPECT_EQ(reasonFor(A, "twice"), "pure or const");
  EXPECT_EQ(reasonFor(A, "plain"), "annotated");
  for (const FunctionRecord &F : A.Result.Functions)
    if (F.Name == "twice")
      EXPECT_TRUE(contains(F.Detail, "built-in rule: declared "
                                     "__attribute__((const))"))
          << F.Detail;
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

TEST(SelectionTest, GuardSkipsSmallLeavesOnly) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.GuardMinStatements = 2;
  Annotated A = annotateSnippet(
      "#include <stdio.h>\n"
      "static int get(const int *p) { return *p; }\n"
      "static int likely(int x) { return __builtin_expect(x, 1); }\n"
      "static int say(int x) { return printf(\"%d\", x); }\n"
      "static int two(int x) { x += 1; return x; }\n"
      "int main(void) { return 0; }\n",
      Options);
  EXPECT_EQ(reasonFor(A, "get"), "overhead guard");
  EXPECT_EQ(reasonFor(A, "likely"), "overhead guard");
  EXPECT_EQ(reasonFor(A, "say"), "annotated");  // printf is a real call
  EXPECT_EQ(reasonFor(A, "two"), "annotated");  // two statements
  EXPECT_EQ(reasonFor(A, "main"), "annotated"); // main is never guarded
  // An explicit include beats the guard.
  auto P = Pattern::compile("get");
  ASSERT_TRUE(static_cast<bool>(P));
  Options.Rules.FunctionFilter.add({true, std::move(*P), "test"});
  EXPECT_EQ(reasonFor(annotateSnippet("int get(int *p) { return *p; }\n", Options),
                      "get"),
            "annotated");
}

TEST(SelectionTest, GuardCountsDependentConstructionsAsCalls) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.GuardMinStatements = 2;
  TranslationUnitResult R = annotateCode(
      "#include <vector>\n"
      "template <typename T> std::vector<T> filled(int n, T v) {"
      " return std::vector<T>(n, v); }\n",
      "input.cpp", {"-std=c++17"}, Options);
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  ASSERT_EQ(R.Functions.size(), 1u);
  EXPECT_TRUE(R.Functions[0].Annotated) << R.Functions[0].SkipReason;
}

TEST(SelectionTest, AGuardedLambdaDoesNotMakeItsFunctionAnnotated) {
  TranslationUnitResult R = annotateCode(
      "#include <dftracer/dftracer.h>\n"
      "int work(int);\n"
      "int outer(int x) { auto t = [](int y) { DFTRACER_CPP_FUNCTION(); "
      "return work(y); }; return t(x) + work(x); }\n",
      "input.cpp", {"-std=c++17"}, defaultOptions());
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  bool OuterAnnotated = false;
  for (const FunctionRecord &F : R.Functions)
    OuterAnnotated |= F.Name == "outer" && F.Annotated;
  EXPECT_TRUE(OuterAnnotated);
}

TEST(SelectionTest, OptOutCommentsAreComments) {
  Annotated A = annotateSnippet(
      "// annotate: skip\n"
      "void a(void) {}\n"
      "const char *s = \"annotate: skip\";\n"
      "void b(void) {}\n"
      "/* annotate: skip */ void c(void) {}\n");
  EXPECT_EQ(reasonFor(A, "a"), "opt-out comment");
  EXPECT_EQ(reasonFor(A, "b"), "annotated");
  EXPECT_EQ(reasonFor(A, "c"), "opt-out comment");
  Annotated F = annotateSnippet("/* annotate: skip-file */\nvoid a(void) {}\n");
  EXPECT_EQ(reasonFor(F, "a"), "opt-out comment");
}

TEST(SelectionTest, CountStatements) {
  auto Unit = parseC("void g(void);\n"
                     "void f(int c) { int x = 1; if (c) g(); for (;;) { g(); break; } }\n");
  // decl, if, g(), for, g(), break
  EXPECT_EQ(countStatements(findFunction(*Unit, "f")->getBody()), 6u);
}

TEST(SelectionTest, SystemHeaderFunctionsAreNotReported) {
  Annotated A = annotateSnippet("#include <stdio.h>\nvoid f(void) {}\n");
  EXPECT_EQ(A.Result.Functions.size(), 1u);
}

TEST(SelectionTest, CPlusPlusNeedsCxxRules) {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.CxxFunctionStart.clear();
  TranslationUnitResult R =
      annotateCode("int f() { return 1; }\n", "input.cpp", {}, Options);
  EXPECT_TRUE(R.Failed);
  EXPECT_NE(R.FailureReason.find("no C++ rules"), std::string::npos)
      << R.FailureReason;
  EXPECT_TRUE(R.Files.empty());
}

/// Annotates C++ code and returns the outcome of every function seen.
std::map<std::string, std::string> cxxOutcomes(llvm::StringRef Code) {
  TranslationUnitResult R =
      annotateCode(Code, "input.cpp", {"-std=c++20"}, defaultOptions());
  EXPECT_FALSE(R.Failed) << R.FailureReason;
  std::map<std::string, std::string> Out;
  for (const FunctionRecord &F : R.Functions)
    Out[F.Name] += (Out[F.Name].empty() ? "" : ",") +
                   (F.Annotated ? std::string("annotated") : F.SkipReason);
  return Out;
}

TEST(SelectionTest, CxxMembersTemplatesAndExclusions) {
  auto Out = cxxOutcomes(R"(
namespace a { namespace {
struct S {
  S() : x(1) {}
  ~S() {}
  S(const S &) = delete;
  S &operator=(const S &) = default;
  constexpr int zero() const { return 0; }
  template <class T> T get() const { return T(); }
  int x;
};
} }
template <class T> T twice(T v) { return v + v; }
int tried() try { return 1; } catch (...) { return 0; }
int use() {
  auto l = [](int v) { return v; };
  return twice(1) + twice(2.0) + a::S().get<int>() + l(1) + tried();
}
)");
  EXPECT_EQ(Out["a::(anonymous namespace)::S::S"], "annotated,deleted");
  EXPECT_EQ(Out["a::(anonymous namespace)::S::~S"], "annotated");
  EXPECT_EQ(Out["a::(anonymous namespace)::S::operator="], "defaulted");
  EXPECT_EQ(Out["a::(anonymous namespace)::S::zero"], "constexpr");
  // The written template once, never its instantiations.
  EXPECT_EQ(Out["a::(anonymous namespace)::S::get"], "annotated");
  EXPECT_EQ(Out["twice"], "annotated");
  EXPECT_EQ(Out["tried"], "function-try-block");
  EXPECT_EQ(Out["(lambda in use)"], "lambda");
  EXPECT_EQ(Out["use"], "annotated");
}

TEST(SelectionTest, CodeThatDoesNotParseIsNotAnnotated) {
  TranslationUnitResult R =
      annotateCode("int f( { return 1; }\n", "input.c", {}, defaultOptions());
  EXPECT_TRUE(R.Failed);
  EXPECT_TRUE(R.Files.empty());
}

} // namespace
