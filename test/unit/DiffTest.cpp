//===- DiffTest.cpp -------------------------------------------------------===//

#include "annotate/Output.h"

#include <gtest/gtest.h>

using namespace annotate;

namespace {

TEST(DiffTest, OneInsertionWithContext) {
  std::string Original = "a\nb\nc\nd\ne\nf\ng\nh\n";
  std::vector<Edit> Edits = {{6, 0, "X\n", 0}}; // before "d"
  EXPECT_EQ(unifiedDiff("f.c", Original, Edits),
            "--- a/f.c\n+++ b/f.c\n@@ -1,6 +1,7 @@\n"
            " a\n b\n c\n+X\n d\n e\n f\n");
}

TEST(DiffTest, DistantEditsMakeTwoHunksWithShiftedNewLines) {
  std::string Original;
  for (int I = 0; I < 20; ++I)
    Original += "l" + std::to_string(I) + "\n";
  unsigned Line15 = Original.find("l15");
  std::vector<Edit> Edits = {{0, 0, "A\n", 0}, {Line15, 0, "B\n", 0}};
  std::string D = unifiedDiff("f.c", Original, Edits);
  EXPECT_NE(D.find("@@ -1,3 +1,4 @@\n+A\n l0\n"), std::string::npos) << D;
  EXPECT_NE(D.find("@@ -13,6 +14,7 @@\n"), std::string::npos) << D;
}

TEST(DiffTest, ReplacementShowsOldAndNewLines) {
  std::string D = unifiedDiff("f.c", "x\nreturn f();\ny\n",
                              {{2, 11, "{ R; }", 0}});
  EXPECT_NE(D.find("-return f();\n+{ R; }\n"), std::string::npos) << D;
}

TEST(DiffTest, MissingFinalNewlineIsMarked) {
  std::string D = unifiedDiff("f.c", "a\nb", {{2, 0, "X\n", 0}});
  EXPECT_NE(D.find(" b\n\\ No newline at end of file\n"), std::string::npos)
      << D;
}

TEST(DiffTest, NoEditsNoDiff) { EXPECT_EQ(unifiedDiff("f.c", "a\n", {}), ""); }

} // namespace
