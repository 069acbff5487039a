//===- JsonFileTest.cpp - Data files read with positioned errors ----------===//

#include "diagnose/Diagnose.h"
#include "diagnose/JsonFile.h"
#include "diagnose/SuggestFilter.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace dftanalyze;

namespace {

std::string writeTemp(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/" + Name;
  FILE *F = std::fopen(Path.c_str(), "w");
  std::fputs(Text.c_str(), F);
  std::fclose(F);
  return Path;
}

} // namespace

// Line 3, column 12: the '}' where a ':' was expected.
const char *const MissingColon = "{\n  \"rules\": {\n    \"kind\" }\n}\n";

TEST(JsonFile, MalformedGivesLineAndColumn) {
  std::string Path = writeTemp("missing_colon.json", MissingColon);
  nlohmann::json J;
  std::string Error;
  EXPECT_FALSE(loadJsonObject(Path, "the test data", J, Error));
  EXPECT_EQ(Error.rfind(Path + ":3:12: invalid JSON: syntax error", 0), 0u)
      << Error;
}

TEST(JsonFile, TruncatedPointsPastTheLastLine) {
  std::string Path = writeTemp("truncated.json", "{\"a\": [1,\n2");
  nlohmann::json J;
  std::string Error;
  EXPECT_FALSE(loadJsonObject(Path, "the test data", J, Error));
  EXPECT_EQ(Error.rfind(Path + ":2:2: invalid JSON: ", 0), 0u) << Error;
}

TEST(JsonFile, UnreadableAndNotAnObject) {
  nlohmann::json J;
  std::string Error;
  std::string Missing = ::testing::TempDir() + "/no_such_file.json";
  EXPECT_FALSE(loadJsonObject(Missing, "the test data", J, Error));
  EXPECT_EQ(Error, Missing + ": cannot read the test data");
  std::string Array = writeTemp("array.json", "[1, 2]");
  EXPECT_FALSE(loadJsonObject(Array, "the test data", J, Error));
  EXPECT_EQ(Error, Array + ": not a JSON object");
  std::string Good = writeTemp("good.json", "{\"a\": 1}");
  EXPECT_TRUE(loadJsonObject(Good, "the test data", J, Error)) << Error;
  EXPECT_EQ(J["a"], 1);
}

// Both data-file loaders report a malformed file at its position.
TEST(JsonFile, DiagnosisRulesMalformed) {
  std::string Path = writeTemp("rules_missing_colon.json", MissingColon);
  DiagnosisRules Rules;
  std::string Error;
  EXPECT_FALSE(loadDiagnosisRules(Path, Rules, Error));
  EXPECT_EQ(Error.rfind(Path + ":3:12: invalid JSON: ", 0), 0u) << Error;
}

TEST(JsonFile, SuggestConfigMalformed) {
  std::string Path =
      writeTemp("suggest_trailing_comma.json",
                "{\"pair_cost_ns\": 500,\n \"min_calls\": 2,\n}");
  SuggestConfig C;
  std::string Error;
  EXPECT_FALSE(loadSuggestConfig(Path, C, Error));
  EXPECT_EQ(Error.rfind(Path + ":3:1: invalid JSON: ", 0), 0u) << Error;
}
