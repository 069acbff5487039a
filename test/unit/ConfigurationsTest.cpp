//===- ConfigurationsTest.cpp ---------------------------------------------===//

#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// A compile database holding the commands given, for any file.
class Commands : public clang::tooling::CompilationDatabase {
public:
  explicit Commands(std::vector<std::vector<std::string>> Lines) {
    for (auto &Line : Lines)
      All.emplace_back("/src", "a.c", std::move(Line), "");
  }
  std::vector<clang::tooling::CompileCommand>
  getCompileCommands(llvm::StringRef) const override {
    return All;
  }

private:
  std::vector<clang::tooling::CompileCommand> All;
};

std::vector<std::string> labels(const std::vector<Configuration> &Configs) {
  std::vector<std::string> Out;
  for (const Configuration &C : Configs)
    Out.push_back(C.Label);
  return Out;
}

TEST(ConfigurationsTest, OneCommandAlone) {
  Commands DB({{"cc", "-c", "a.c"}});
  EXPECT_EQ(labels(configurationsOf(DB, "/src/a.c", defaultOptions())),
            std::vector<std::string>{""});
}

TEST(ConfigurationsTest, EveryDistinctCommandTimesEveryVariant) {
  // The first two differ only in what they write: one configuration.
  Commands DB({{"cc", "-DX", "-c", "a.c", "-o", "a1.o"},
               {"cc", "-DX", "-c", "a.c", "-o", "a2.o", "-MD", "-MF", "a.d"},
               {"cc", "-DY", "-c", "a.c", "-o", "a3.o"}});
  AnnotateOptions Options = defaultOptions();
  Options.Variants = {{"-DA -DB", {"-DA", "-DB"}}};
  std::vector<Configuration> Configs =
      configurationsOf(DB, "/src/a.c", Options);
  EXPECT_EQ(labels(Configs),
            (std::vector<std::string>{
                "compile command 1 of 2",
                "compile command 1 of 2, --variant '-DA -DB'",
                "compile command 2 of 2",
                "compile command 2 of 2, --variant '-DA -DB'"}));
  EXPECT_EQ(Configs[1].ExtraFlags, (std::vector<std::string>{"-DA", "-DB"}));
  EXPECT_EQ(Configs[2].Command.CommandLine[1], "-DY");
}

/// The file planned in each configuration given by its -D flags (C, or
/// C++ when FileName ends in ".cpp").
TranslationUnitResult merged(llvm::StringRef Code,
                             std::vector<std::string> Defines,
                             const AnnotateOptions &Options = defaultOptions(),
                             llvm::StringRef FileName = "input.c") {
  std::vector<TranslationUnitResult> Results;
  std::vector<Configuration> Configs;
  for (const std::string &D : Defines) {
    std::vector<std::string> Args = snippetArgs(FileName);
    if (!D.empty())
      Args.push_back(D);
    Results.push_back(annotateCode(Code, FileName, Args, Options));
    Configs.push_back({{}, {}, D.empty() ? "" : "--variant '" + D + "'"});
  }
  return mergeConfigurations(FileName, std::move(Results), Configs);
}

std::string mergedCode(const TranslationUnitResult &R) {
  EXPECT_EQ(R.Files.size(), 1u);
  if (R.Files.empty())
    return "";
  const FileAnnotation &F = R.Files.begin()->second;
  return applyEdits(F.Original, F.Edits.merge().Edits);
}

TEST(ConfigurationsTest, EditsOfEveryConfigurationAreMerged) {
  const char *Code = "int f(int x) {\n"
                     "#ifdef A\n"
                     "  if (x) return 1;\n"
                     "#endif\n"
                     "  return x;\n"
                     "}\n";
  TranslationUnitResult R = merged(Code, {"", "-DA"});
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  EXPECT_EQ(mergedCode(R), "#include <dftracer/dftracer.h>\n"
                           "int f(int x) {\n"
                           "  DFTRACER_C_FUNCTION_START();\n"
                           "#ifdef A\n"
                           "  if (x) { /* annotate */ DFTRACER_C_FUNCTION_END(); return 1; }\n"
                           "#endif\n"
                           "  DFTRACER_C_FUNCTION_END();\n"
                           "  return x;\n"
                           "}\n");
  // Planned alone, the configuration without A skipped that return; the
  // merge keeps what every configuration skipped: nothing left there.
  ASSERT_EQ(R.Skipped.size(), 1u);
  EXPECT_TRUE(R.Skipped.begin()->second.empty());
  EXPECT_EQ(R.SkippedExits.size(), 1u);
}

TEST(ConfigurationsTest, FunctionsOfOneConfigurationAreAnnotatedOnce) {
  const char *Code = "#ifdef A\n"
                     "int g(int x) { return x + 1; }\n"
                     "#else\n"
                     "int g(int x) { return x - 1; }\n"
                     "#endif\n"
                     "int f(int x) { return g(x); }\n";
  TranslationUnitResult R = merged(Code, {"", "-DA"});
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  std::vector<std::string> Names;
  for (const FunctionRecord &F : R.Functions)
    Names.push_back(F.Name + ":" + std::to_string(F.Line) +
                    (F.Annotated ? "" : " skipped"));
  EXPECT_EQ(Names, (std::vector<std::string>{"g:4", "f:6", "g:2"}));
  std::string Out = mergedCode(R);
  EXPECT_NE(Out.find("int g(int x) {\n    DFTRACER_C_FUNCTION_START(); "
                     "DFTRACER_C_FUNCTION_END(); return x + 1; }"),
            std::string::npos)
      << Out;
  EXPECT_NE(Out.find("int g(int x) {\n    DFTRACER_C_FUNCTION_START(); "
                     "DFTRACER_C_FUNCTION_END(); return x - 1; }"),
            std::string::npos)
      << Out;
}

AnnotateOptions withCategories() {
  AnnotateOptions Options = defaultOptions();
  Options.Rules.CategoriesEnabled = true;
  return Options;
}

// A function calls other things in each configuration, but has one START
// and one category: that of everything it calls in any of them, whichever
// configuration saw it (docs/rules.md §10).
TEST(ConfigurationsTest, AFunctionHasOneCategoryOverItsConfigurations) {
  const char *Code = "void *memcpy(void *, const void *, unsigned long);\n"
                     "int MPI_Barrier(int);\n"
                     "int write(int, const void *, unsigned long);\n"
                     "void f(char *a, char *b) {\n"
                     "#ifdef A\n"
                     "  MPI_Barrier(0);\n"
                     "#else\n"
                     "  memcpy(a, b, 1);\n"
                     "#endif\n"
                     "}\n"
                     "void g(char *a) {\n"
                     "#ifdef A\n"
                     "  MPI_Barrier(0);\n"
                     "#else\n"
                     "  write(1, a, 1);\n"
                     "#endif\n"
                     "}\n";
  std::string Expected = "void f(char *a, char *b) {\n"
                         "  DFTRACER_C_FUNCTION_START();\n"
                         "  DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"comm\");\n"
                         "#ifdef A\n";
  std::string ExpectedG = "void g(char *a) {\n"
                          "  DFTRACER_C_FUNCTION_START();\n"
                          "  DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"io\");\n"
                          "#ifdef A\n";
  // Either configuration first: the same category.
  for (auto Defines : {std::vector<std::string>{"", "-DA"},
                       std::vector<std::string>{"-DA", ""}}) {
    TranslationUnitResult R = merged(Code, Defines, withCategories());
    ASSERT_FALSE(R.Failed) << R.FailureReason;
    std::string Out = mergedCode(R);
    EXPECT_NE(Out.find(Expected), std::string::npos) << Out;
    EXPECT_NE(Out.find(ExpectedG), std::string::npos) << Out;
    EXPECT_EQ(llvm::StringRef(Out).count("FUNCTION_START"), 2u) << Out;
  }
}

// The C++ guard and its category update are one statement group too.
TEST(ConfigurationsTest, ACxxGuardHasOneCategoryOverItsConfigurations) {
  const char *Code = "int MPI_Barrier(int);\n"
                     "void g();\n"
                     "void f() {\n"
                     "  g();\n"
                     "#ifdef A\n"
                     "  MPI_Barrier(0);\n"
                     "#endif\n"
                     "}\n";
  TranslationUnitResult R =
      merged(Code, {"", "-DA"}, withCategories(), "input.cpp");
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  EXPECT_EQ(mergedCode(R), "#include <dftracer/dftracer.h>\n"
                           "int MPI_Barrier(int);\n"
                           "void g();\n"
                           "void f() {\n"
                           "  DFTRACER_CPP_FUNCTION();\n"
                           "  DFTRACER_CPP_FUNCTION_UPDATE(\"comp\", \"comm\");\n"
                           "  g();\n"
                           "#ifdef A\n"
                           "  MPI_Barrier(0);\n"
                           "#endif\n"
                           "}\n");
}

// The first statement, which gives START its indent, differs between the
// configurations: one START, laid out as the first configuration planned it.
TEST(ConfigurationsTest, AStartLaidOutTwoWaysIsWrittenOnce) {
  const char *Code = "int f(int x) {\n"
                     "#ifdef A\n"
                     "      x += 2;\n"
                     "#else\n"
                     "  x -= 2;\n"
                     "#endif\n"
                     "  return x;\n"
                     "}\n";
  TranslationUnitResult R = merged(Code, {"", "-DA"});
  ASSERT_FALSE(R.Failed) << R.FailureReason;
  EXPECT_EQ(mergedCode(R), "#include <dftracer/dftracer.h>\n"
                           "int f(int x) {\n"
                           "  DFTRACER_C_FUNCTION_START();\n"
                           "#ifdef A\n"
                           "      x += 2;\n"
                           "#else\n"
                           "  x -= 2;\n"
                           "#endif\n"
                           "  DFTRACER_C_FUNCTION_END();\n"
                           "  return x;\n"
                           "}\n");
}

// main's MPI_Init is spelled by a macro that calls it in one configuration
// only: INIT and START go after it there, at the top of main in the other.
// One group is written, the first in the file, which compiles in both, with
// the category of both (comm: the other configuration calls nothing).
TEST(ConfigurationsTest, MainStartsOnceWhereverConfigurationsPlacedIt) {
  const char *Code = "int MPI_Init(int *, char ***);\n"
                     "int MPI_Finalize(void);\n"
                     "#ifdef A\n"
                     "#define COMM_UP(c, v) MPI_Init(c, v)\n"
                     "#else\n"
                     "#define COMM_UP(c, v) 0\n"
                     "#endif\n"
                     "int main(int argc, char **argv) {\n"
                     "  COMM_UP(&argc, &argv);\n"
                     "  return 0;\n"
                     "}\n";
  for (auto Defines : {std::vector<std::string>{"", "-DA"},
                       std::vector<std::string>{"-DA", ""}}) {
    TranslationUnitResult R = merged(Code, Defines, withCategories());
    ASSERT_FALSE(R.Failed) << R.FailureReason;
    std::string Out = mergedCode(R);
    EXPECT_NE(Out.find("int main(int argc, char **argv) {\n"
                       "  DFTRACER_C_INIT(NULL, NULL, NULL);\n"
                       "  DFTRACER_C_FUNCTION_START();\n"
                       "  DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"comm\");\n"
                       "  COMM_UP(&argc, &argv);\n"),
              std::string::npos)
        << Out;
    EXPECT_EQ(llvm::StringRef(Out).count("DFTRACER_C_INIT"), 1u) << Out;
    EXPECT_EQ(llvm::StringRef(Out).count("FUNCTION_START"), 1u) << Out;
  }
}

TEST(ConfigurationsTest, AFailingConfigurationFailsTheFileNamingIt) {
  TranslationUnitResult R =
      merged("int f(void) {\n#ifdef A\n  syntax error\n#endif\n"
             "  return 0;\n}\n",
             {"", "-DA"});
  EXPECT_TRUE(R.Failed);
  EXPECT_EQ(R.FailureReason,
            "with --variant '-DA': the file does not compile; left unchanged");
  EXPECT_TRUE(R.Files.empty());
}

} // namespace
