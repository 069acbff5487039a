//===- RuleSetExtendsTest.cpp - Rule sets extending one another ----------===//
//
// "extends" (docs/rules.md §11): a bundled base by name or a file by path
// relative to the extending one; scalars replace, lists add, objects merge
// field by field; chains load, cycles and missing bases are errors.
//
//===----------------------------------------------------------------------===//

#include "annotate/RuleSet.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

using namespace annotate;

namespace {

std::string errorOf(llvm::Expected<RuleSet> R) {
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

/// A fresh directory for rule-set files, removed at the end of the test.
class RuleSetExtendsTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("rules-extends", Dir));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Dir); }

  std::string ext() const { return std::string(Dir) + "/ext.json"; }

  /// Loads Json as the rule set ext.json, bundled names from rules/.
  llvm::Expected<RuleSet> extendDftracer(llvm::StringRef Json) {
    return loadRuleSet(write("ext.json", Json), ANNOTATE_SOURCE_RULES_DIR);
  }

  std::string write(llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    EXPECT_FALSE(EC) << EC.message();
    Out << Text;
    return std::string(Path);
  }

  llvm::SmallString<256> Dir;
};

/// Every field of R but its name and exit macros is the dftracer rule
/// set's (whose filters are empty).
void expectDftracerButNameAndExitMacros(const RuleSet &R) {
  auto Base = loadRuleSet("dftracer", ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(static_cast<bool>(Base)) << llvm::toString(Base.takeError());
  EXPECT_EQ(R.Include, Base->Include);
  EXPECT_EQ(R.FunctionStart, Base->FunctionStart);
  EXPECT_EQ(R.FunctionEnd, Base->FunctionEnd);
  EXPECT_EQ(R.ReturnVariable, Base->ReturnVariable);
  EXPECT_EQ(R.Init, Base->Init);
  EXPECT_EQ(R.Fini, Base->Fini);
  EXPECT_EQ(R.Metadata, Base->Metadata);
  EXPECT_EQ(R.InitAfterCalls, Base->InitAfterCalls);
  EXPECT_EQ(R.FiniBeforeCalls, Base->FiniBeforeCalls);
  EXPECT_EQ(R.NoReturnFunctions, Base->NoReturnFunctions);
  EXPECT_EQ(R.AnnotatedMarkers, Base->AnnotatedMarkers);
  EXPECT_EQ(R.InitialisedMarkers, Base->InitialisedMarkers);
  EXPECT_EQ(R.CxxFunctionStart, Base->CxxFunctionStart);
  EXPECT_EQ(R.CxxLambdas, Base->CxxLambdas);
  EXPECT_EQ(R.SkipComment, Base->SkipComment);
  EXPECT_EQ(R.SkipFileComment, Base->SkipFileComment);
  EXPECT_EQ(R.GuardMinStatements, Base->GuardMinStatements);
  EXPECT_EQ(R.FunctionFilter.lastMatch("h5_open"), nullptr);
  EXPECT_EQ(R.FileFilter.lastMatch("src/H5.c"), nullptr);
  EXPECT_EQ(R.CategoriesEnabled, Base->CategoriesEnabled);
  EXPECT_EQ(R.CategoryUpdate, Base->CategoryUpdate);
  EXPECT_EQ(R.CxxCategoryUpdate, Base->CxxCategoryUpdate);
  EXPECT_EQ(R.DefaultCategory, Base->DefaultCategory);
  ASSERT_EQ(R.Categories.size(), Base->Categories.size());
  for (size_t I = 0; I < R.Categories.size(); ++I) {
    EXPECT_EQ(R.Categories[I].Name, Base->Categories[I].Name);
    ASSERT_EQ(R.Categories[I].Callees.size(),
              Base->Categories[I].Callees.size());
    for (size_t J = 0; J < R.Categories[I].Callees.size(); ++J)
      EXPECT_EQ(R.Categories[I].Callees[J].text(),
                Base->Categories[I].Callees[J].text());
  }
}

TEST_F(RuleSetExtendsTest, BundledBaseByNameGivesEveryField) {
  auto R = extendDftracer(R"({"extends": "dftracer", "name": "h5",
    "exit_macros": ["FUNC_LEAVE_NOAPI"]})");
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Name, "h5");
  EXPECT_EQ(R->ExitMacros, std::vector<std::string>{"FUNC_LEAVE_NOAPI"});
  expectDftracerButNameAndExitMacros(*R);
}

/// bench/hdf5/hdf5.rules.json was a copy of rules/dftracer.json plus its
/// exit macros; extending dftracer, it must stay exactly that.
TEST_F(RuleSetExtendsTest, HdfBenchRulesAreDftracerWithExitMacros) {
  auto R = loadRuleSet(
      ANNOTATE_SOURCE_RULES_DIR "/../bench/hdf5/hdf5.rules.json",
      ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Name, "dftracer-hdf5");
  EXPECT_EQ(R->ExitMacros,
            (std::vector<std::string>{
                "FUNC_LEAVE_NOAPI", "FUNC_LEAVE_NOAPI_VOID",
                "FUNC_LEAVE_NOAPI_NOFS", "FUNC_LEAVE_NOAPI_TAG",
                "FUNC_LEAVE_API", "FUNC_LEAVE_API_NOINIT",
                "FUNC_LEAVE_API_NOFS", "FUNC_LEAVE_API_NOPUSH"}));
  expectDftracerButNameAndExitMacros(*R);
}

TEST_F(RuleSetExtendsTest, ScalarsReplaceAndObjectsMergeFieldByField) {
  auto R = extendDftracer(R"({"extends": "dftracer",
    "function": {"end": "MY_END();"},
    "main": {"fini": "MY_FINI();"},
    "cxx": {"lambdas": true},
    "select": {"guard": {"min_statements": 0}},
    "categories": {"enabled": true, "default": "compute"}})");
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Name, "dftracer"); // not given: the base's
  EXPECT_EQ(R->FunctionStart, "DFTRACER_C_FUNCTION_START();");
  EXPECT_EQ(R->FunctionEnd, "MY_END();");
  EXPECT_EQ(R->Init, "DFTRACER_C_INIT(NULL, NULL, NULL);");
  EXPECT_EQ(R->Fini, "MY_FINI();");
  EXPECT_EQ(R->CxxFunctionStart, "DFTRACER_CPP_FUNCTION();");
  EXPECT_TRUE(R->CxxLambdas);
  EXPECT_EQ(R->GuardMinStatements, 0u);
  EXPECT_EQ(R->SkipComment, "annotate: skip");
  EXPECT_TRUE(R->CategoriesEnabled);
  EXPECT_EQ(R->DefaultCategory, "compute");
  EXPECT_NE(R->CategoryUpdate.find("${category}"), std::string::npos);
}

TEST_F(RuleSetExtendsTest, ListsAddToTheBase) {
  auto R = extendDftracer(R"({"extends": "dftracer",
    "main": {"init_after_calls": ["shmem_init"]},
    "noreturn_functions": ["my_die", "abort"],
    "select": {"functions": [{"exclude": "h5_*"}]},
    "categories": {"map": [{"name": "io", "callees": ["my_write"]},
                           {"name": "gpu", "callees": ["cuda*"]}]}})");
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->isNoReturn("my_die"));
  EXPECT_TRUE(R->isNoReturn("MPI_Abort"));
  // A name the base lists already is not listed twice.
  EXPECT_EQ(llvm::count(R->NoReturnFunctions, "abort"), 1);
  EXPECT_EQ(R->InitAfterCalls,
            (std::vector<std::string>{"MPI_Init", "MPI_Init_thread",
                                      "shmem_init"}));
  ASSERT_NE(R->FunctionFilter.lastMatch("h5_open"), nullptr);
  EXPECT_FALSE(R->FunctionFilter.lastMatch("h5_open")->Include);
  // io keeps its rank (first) with the new callee; gpu comes after the
  // base's categories.
  llvm::StringRef MyWrite[] = {"my_write"};
  llvm::StringRef Cuda[] = {"cudaMemcpy", "MPI_Send"};
  EXPECT_EQ(R->categoryOf(MyWrite), "io");
  EXPECT_EQ(R->categoryRank(MyWrite), 0u);
  EXPECT_EQ(R->categoryOf(Cuda), "comm");
  llvm::StringRef OnlyCuda[] = {"cudaMemcpy"};
  EXPECT_EQ(R->categoryOf(OnlyCuda), "gpu");
  EXPECT_EQ(R->Categories.size(), 4u);
}

TEST_F(RuleSetExtendsTest, ExtendingFileIsCheckedLikeAnyOther) {
  EXPECT_EQ(errorOf(extendDftracer("{\"extends\": \"dftracer\",\n"
                                   " \"exit_macro\": [\"X\"]}")),
            ext() + ":2:2: unknown field 'exit_macro'");
  EXPECT_EQ(errorOf(extendDftracer(R"({"extends": 3})")),
            ext() +
                ":1:2: field 'extends' must be a rule set's name or a path");
  // Without "extends", the required fields stay required.
  EXPECT_EQ(errorOf(parseRuleSet(R"({"name": "x", "exit_macros": []})",
                                 "ext.json")),
            "ext.json:1:1: missing field 'include'");
}

TEST_F(RuleSetExtendsTest, MissingBaseNamesFileAndField) {
  std::string E = errorOf(extendDftracer(R"({"extends": "no-such-base"})"));
  EXPECT_EQ(E.rfind(ext() + ":1:2: field 'extends': cannot read rule set "
                            "'no-such-base' (",
                    0),
            0u)
      << E;
  EXPECT_NE(E.find("no-such-base.json"), std::string::npos) << E;
}

TEST_F(RuleSetExtendsTest, ChainOfPathsRelativeToTheExtendingFile) {
  write("base.json", R"({"name": "base", "include": "b.h",
    "function": {"start": "S();", "end": "E();"},
    "exit_macros": ["LEAVE_A"]})");
  ASSERT_FALSE(llvm::sys::fs::create_directory(Dir + "/sub"));
  write("sub/mid.json", R"({"extends": "../base.json", "name": "mid",
    "function": {"end": "MID_END();"}, "exit_macros": ["LEAVE_B"]})");
  std::string Top = write("top.json", R"({"extends": "sub/mid.json",
    "include": "top.h", "exit_macros": ["LEAVE_C"]})");
  auto R = loadRuleSet(Top, ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Name, "mid");
  EXPECT_EQ(R->Include, "top.h");
  EXPECT_EQ(R->FunctionStart, "S();");
  EXPECT_EQ(R->FunctionEnd, "MID_END();");
  EXPECT_EQ(R->ExitMacros,
            (std::vector<std::string>{"LEAVE_A", "LEAVE_B", "LEAVE_C"}));
}

TEST_F(RuleSetExtendsTest, CycleIsAnErrorShowingIt) {
  std::string A = write("a.json", R"({"extends": "b.json", "name": "a"})");
  std::string B =
      write("b.json", "{\"name\": \"b\",\n  \"extends\": \"./a.json\"}");
  std::string E = errorOf(loadRuleSet(A, ANNOTATE_SOURCE_RULES_DIR));
  std::string DirS = std::string(Dir);
  EXPECT_EQ(E, B + ":2:3: extends cycle: " + A + " -> " + B + " -> " + DirS +
                   "/./a.json");
  std::string Self = write("self.json", R"({"extends": "self.json"})");
  EXPECT_EQ(errorOf(loadRuleSet(Self, ANNOTATE_SOURCE_RULES_DIR)),
            Self + ":1:2: extends cycle: " + Self + " -> " + Self);
}

TEST_F(RuleSetExtendsTest, MalformedBaseReportsItsOwnPosition) {
  std::string Base = write("base.json", "{\"name\": \"b\", \"include\": 3}");
  std::string Top = write("top.json", R"({"extends": "base.json"})");
  std::string E = errorOf(loadRuleSet(Top, ANNOTATE_SOURCE_RULES_DIR));
  EXPECT_EQ(E, Base + ":1:15: field 'include' must be a string");
}

} // namespace
