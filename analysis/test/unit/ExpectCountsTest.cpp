//===- ExpectCountsTest.cpp - Tests of --expect-counts --------------------===//

#include "check/ExpectCounts.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace {

using namespace dftcheck;

std::string writeTemp(const std::string &Text) {
  std::string Path = ::testing::TempDir() + "/counts.json";
  std::ofstream(Path) << Text;
  return Path;
}

TEST(ExpectCounts, OnlyListedNamesAreCompared) {
  auto M = compareCounts({{"a", 2}, {"gone", 0}}, {{"a", 2}, {"extra", 9}});
  EXPECT_TRUE(M.empty());
}

TEST(ExpectCounts, MismatchesAndAbsentFunctions) {
  auto M = compareCounts({{"a", 2}, {"b", 1}}, {{"a", 3}});
  ASSERT_EQ(M.size(), 2u);
  EXPECT_EQ(M[0].Name, "a");
  EXPECT_EQ(M[0].Expected, 2u);
  EXPECT_EQ(M[0].Actual, 3u);
  EXPECT_EQ(M[1].Name, "b");
  EXPECT_EQ(M[1].Actual, 0u);
  std::ostringstream Os;
  printCountDiff(Os, "x.json", M);
  EXPECT_NE(Os.str().find("call counts differ from x.json"), std::string::npos);
}

TEST(ExpectCounts, LoadsObjectsAndRejectsOtherShapes) {
  std::map<std::string, uint64_t> Out;
  std::string Error;
  EXPECT_TRUE(
      loadExpectedCounts(writeTemp("{\"main\": 1, \"f\": 0}"), Out, Error));
  EXPECT_EQ(Out.at("main"), 1u);
  EXPECT_FALSE(loadExpectedCounts(writeTemp("[1, 2]"), Out, Error));
  EXPECT_FALSE(loadExpectedCounts(writeTemp("{\"main\": -1}"), Out, Error));
  EXPECT_NE(Error.find("non-negative integer"), std::string::npos);
  EXPECT_FALSE(loadExpectedCounts(writeTemp("{\"main\": 1.5}"), Out, Error));
  EXPECT_FALSE(loadExpectedCounts("/nonexistent/counts.json", Out, Error));
}

} // namespace
