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

/// The file planned in each configuration given by its -D flags.
TranslationUnitResult merged(llvm::StringRef Code,
                             std::vector<std::string> Defines) {
  std::vector<TranslationUnitResult> Results;
  std::vector<Configuration> Configs;
  for (const std::string &D : Defines) {
    std::vector<std::string> Args = {"-std=gnu11"};
    if (!D.empty())
      Args.push_back(D);
    Results.push_back(annotateCode(Code, "input.c", Args, defaultOptions()));
    Configs.push_back({{}, {}, D.empty() ? "" : "--variant '" + D + "'"});
  }
  return mergeConfigurations("input.c", std::move(Results), Configs);
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
