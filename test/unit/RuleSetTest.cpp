//===- RuleSetTest.cpp ----------------------------------------------------===//

#include "annotate/RuleSet.h"

#include "llvm/Support/Error.h"

#include <gtest/gtest.h>

using namespace annotate;

namespace {

const char *Minimal = R"({
  "name": "mini",
  "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "main": {"init": "I();", "fini": "F();"}
})";

std::string errorOf(llvm::StringRef Json) {
  auto R = parseRuleSet(Json, "rules.json");
  if (R)
    return "";
  return llvm::toString(R.takeError());
}

TEST(RuleSetTest, LoadsTheShippedDftracerRules) {
  auto R = loadRuleSet("dftracer", ANNOTATE_SOURCE_RULES_DIR);
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->Include, "dftracer/dftracer.h");
  EXPECT_EQ(R->FunctionStart, "DFTRACER_C_FUNCTION_START();");
  EXPECT_EQ(R->FunctionEnd, "DFTRACER_C_FUNCTION_END();");
  EXPECT_EQ(R->Init, "DFTRACER_C_INIT(NULL, NULL, NULL);");
  EXPECT_TRUE(R->isNoReturn("MPI_Abort"));
  EXPECT_FALSE(R->isNoReturn("MPI_Finalize"));
  EXPECT_EQ(R->metadataStatement("annotate_meta_0", "app", "ior"),
            "DFTRACER_C_METADATA(annotate_meta_0, \"app\", \"ior\");");
}

TEST(RuleSetTest, MinimalRuleSetGetsDefaults) {
  auto R = parseRuleSet(Minimal, "rules.json");
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->ReturnVariable, "annotate_ret");
  EXPECT_TRUE(R->NoReturnFunctions.empty());
}

TEST(RuleSetTest, SyntaxErrorHasLineAndColumn) {
  std::string E = errorOf("{\n  \"name\": \"x\",\n  \"include\" \"t.h\"\n}");
  EXPECT_EQ(E.substr(0, 13), "rules.json:3:") << E;
  EXPECT_NE(E.find("invalid JSON"), std::string::npos) << E;
}

TEST(RuleSetTest, MissingFieldNamesIt) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
    "main": {"init": "I();", "fini": "F();"}})");
  EXPECT_EQ(E, "rules.json:1:1: missing field 'function'");
}

TEST(RuleSetTest, WrongTypePointsAtTheKey) {
  std::string E = errorOf("{\n \"name\": \"x\",\n \"include\": 3,\n"
                          " \"function\": {\"start\": \"S();\", \"end\": \"E();\"},\n"
                          " \"main\": {\"init\": \"I();\", \"fini\": \"F();\"}}");
  EXPECT_EQ(E, "rules.json:3:2: field 'include' must be a string");
}

TEST(RuleSetTest, UnknownFieldIsATypo) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
  "function": {"strat": "S();", "start": "S();", "end": "E();"},
  "main": {"init": "I();", "fini": "F();"}})");
  EXPECT_EQ(E, "rules.json:2:16: unknown field 'strat'");
}

TEST(RuleSetTest, ArrayOfStringsIsChecked) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "main": {"init": "I();", "fini": "F();"},
  "noreturn_functions": ["exit", 3]})");
  EXPECT_EQ(E, "rules.json:4:3: field 'noreturn_functions' must be an array "
               "of strings");
}

TEST(RuleSetTest, MetadataNeedsAnIdentifier) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "main": {"init": "I();", "fini": "F();", "metadata": "M(\"${key}\");"}})");
  EXPECT_NE(E.find("must use ${name}"), std::string::npos) << E;
}

TEST(RuleSetTest, MissingFileSaysWhich) {
  auto R = loadRuleSet("no-such-rules", "/nonexistent");
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(llvm::toString(R.takeError()).find("no-such-rules"),
            std::string::npos);
}

} // namespace

namespace {

TEST(RuleSetTest, SelectAndCategoriesAreRead) {
  auto R = parseRuleSet(R"({"name": "x", "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "select": {"functions": [{"exclude": "*"}, {"include": "re:^h5_"}],
             "files": [{"exclude": "vendor/*"}],
             "guard": {"min_statements": 3}},
  "categories": {"enabled": true, "update": "U(\"${category}\");",
                 "map": [{"name": "io", "callees": ["MPI_File_*", "fwrite"]},
                         {"name": "comm", "callees": ["MPI_*"]}]}})",
                        "rules.json");
  ASSERT_TRUE(static_cast<bool>(R)) << llvm::toString(R.takeError());
  EXPECT_TRUE(R->Init.empty()); // no "main": main is a plain function
  EXPECT_EQ(R->GuardMinStatements, 3u);
  const FilterRule *Rule = R->FunctionFilter.lastMatch("h5_write");
  ASSERT_NE(Rule, nullptr);
  EXPECT_TRUE(Rule->Include);
  EXPECT_FALSE(R->FunctionFilter.lastMatch("main")->Include);
  EXPECT_FALSE(R->FileFilter.lastMatch("vendor/zlib/inflate.c")->Include);
  EXPECT_EQ(R->FileFilter.lastMatch("src/io.c"), nullptr);
  llvm::StringRef IoCall[] = {"MPI_Barrier", "MPI_File_write_all"};
  llvm::StringRef CommCall[] = {"MPI_Barrier", "malloc"};
  EXPECT_EQ(R->categoryOf(IoCall), "io"); // io is listed first
  EXPECT_EQ(R->categoryOf(CommCall), "comm");
  EXPECT_EQ(R->categoryOf({}), "cpu");
  // Ranks follow the map, the default after it.
  EXPECT_EQ(R->categoryRank(IoCall), 0u);
  EXPECT_EQ(R->categoryRank(CommCall), 1u);
  EXPECT_EQ(R->categoryRank({}), 2u);
  EXPECT_EQ(R->categoryStatement("io", false), "U(\"io\");");
}

TEST(RuleSetTest, BadPatternPointsAtIt) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "select": {"functions": [{"exclude": "re:(unclosed"}]}})");
  EXPECT_EQ(E.substr(0, 16), "rules.json:3:29:") << E;
  EXPECT_NE(E.find("invalid regular expression"), std::string::npos) << E;
}

TEST(RuleSetTest, FilterRuleShape) {
  std::string E = errorOf(R"({"name": "x", "include": "t.h",
  "function": {"start": "S();", "end": "E();"},
  "select": {"files": [{"skip": "a"}]}})");
  EXPECT_NE(E.find("must be {\"include\": PATTERN}"), std::string::npos) << E;
}

TEST(RuleSetTest, ShippedRuleSetsLoad) {
  for (const char *Name : {"dftracer", "caliper", "scorep"}) {
    auto R = loadRuleSet(Name, ANNOTATE_SOURCE_RULES_DIR);
    EXPECT_TRUE(static_cast<bool>(R)) << Name << ": "
                                      << llvm::toString(R.takeError());
  }
}

} // namespace
