//===- SourceTextTest.cpp -------------------------------------------------===//

#include "SourceText.h"
#include "TestSupport.h"

#include <gtest/gtest.h>

using namespace annotate;
using namespace annotate::test;

namespace {

/// The line break SourceText gives for an insertion at each offset of Code
/// where Code has a '|' (removed before parsing).
std::vector<std::string> breaksAt(std::string Code) {
  std::vector<unsigned> Marks;
  for (size_t At = Code.find('|'); At != std::string::npos;
       At = Code.find('|', At)) {
    Marks.push_back(At);
    Code.erase(At, 1);
  }
  std::unique_ptr<clang::ASTUnit> Unit = parseC(Code);
  const clang::SourceManager &SM = Unit->getSourceManager();
  SourceText Text(SM, Unit->getLangOpts(), SM.getMainFileID());
  std::vector<std::string> Out;
  for (unsigned At : Marks)
    Out.push_back(Text.lineBreakAt(At).str());
  return Out;
}

using Breaks = std::vector<std::string>;

TEST(SourceTextTest, LineBreakOfTheAnchorsLine) {
  EXPECT_EQ(breaksAt("int |a;\r\nint b;|\r\n"), (Breaks{"\r\n", "\r\n"}));
  EXPECT_EQ(breaksAt("int |a;\nint b;|\n"), (Breaks{"\n", "\n"}));
  // Mixed: each line its own, whatever most lines have.
  EXPECT_EQ(breaksAt("int a;\r\nint |b;\nint c;\r\nint |d;\r\n"),
            (Breaks{"\n", "\r\n"}));
}

// The last line has no line break of its own: the file's, derived as
// clang-format does (CRLF when more than half of them are).
TEST(SourceTextTest, LastLineWithoutOneTakesTheFiles) {
  EXPECT_EQ(breaksAt("int a;\r\nint b;\r\nint c;\n|int d;"), Breaks{"\r\n"});
  EXPECT_EQ(breaksAt("int a;\nint b;\nint c;\r\n|int d;"), Breaks{"\n"});
  EXPECT_EQ(breaksAt("int a;\r\nint b;\n|int d;"), Breaks{"\n"}); // a tie: LF
  EXPECT_EQ(breaksAt("int |a;"), Breaks{"\n"});
}

TEST(SourceTextTest, RangesIntersect) {
  Ranges A = {{0, 10}, {20, 30}};
  Ranges B = {{5, 25}};
  EXPECT_EQ(intersectRanges(A, B), (Ranges{{5, 10}, {20, 25}}));
  EXPECT_TRUE(inRanges(A, 0));
  EXPECT_FALSE(inRanges(A, 10));
  EXPECT_TRUE(inRanges(A, 29));
}

} // namespace
