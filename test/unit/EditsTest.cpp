//===- EditsTest.cpp ------------------------------------------------------===//

#include "annotate/Edits.h"

#include <gtest/gtest.h>

#include <cstring>

using namespace annotate;

namespace {

TEST(EditsTest, IdenticalInsertionsAreKeptOnce) {
  FileEdits E;
  E.add({3, 0, "X;", EditRank::Statement});
  E.add({3, 0, "X;", EditRank::Statement});
  auto M = E.merge();
  ASSERT_EQ(M.Edits.size(), 1u);
  EXPECT_TRUE(M.Conflicts.empty());
  EXPECT_EQ(applyEdits("abcdef", M.Edits), "abcX;def");
}

// Two bodies closing at one place: the same text, not the same edit.
TEST(EditsTest, ClosingBracesOfTwoDepthsAreBothKept) {
  FileEdits E;
  E.add({3, 0, " }", EditRank::closeBrace(1)});
  E.add({3, 0, " }", EditRank::closeBrace(2)});
  EXPECT_EQ(applyEdits("abcdef", E.merge().Edits), "abc } }def");
}

TEST(EditsTest, InsertionsAtOneOffsetFollowRankThenArrival) {
  FileEdits E;
  E.add({1, 0, "[stmt1]", EditRank::Statement});
  E.add({1, 0, "[open0]", EditRank::openBrace(0)});
  E.add({1, 0, "[close1]", EditRank::closeBrace(1)});
  E.add({1, 0, "[close2]", EditRank::closeBrace(2)});
  E.add({1, 0, "[open1]", EditRank::openBrace(1)});
  E.add({1, 0, "[stmt2]", EditRank::Statement});
  EXPECT_EQ(applyEdits("ab", E.merge().Edits),
            "a[close2][close1][open0][open1][stmt1][stmt2]b");
}

TEST(EditsTest, InsertionBeforeAndAfterAReplacementAreFine) {
  FileEdits E;
  E.add({2, 3, "XYZ", EditRank::Statement});
  E.add({2, 0, "<", EditRank::openBrace(0)});
  E.add({5, 0, ">", EditRank::closeBrace(0)});
  auto M = E.merge();
  EXPECT_TRUE(M.Conflicts.empty());
  EXPECT_EQ(applyEdits("ab---cd", M.Edits), "ab<XYZ>cd");
}

TEST(EditsTest, OverlappingEditsAreDroppedTogether) {
  FileEdits E;
  E.add({2, 4, "R", EditRank::Statement});
  E.add({3, 0, "inside", EditRank::Statement});
  E.add({0, 0, "ok", EditRank::Statement});
  auto M = E.merge();
  ASSERT_EQ(M.Edits.size(), 1u);
  EXPECT_EQ(M.Edits[0].Text, "ok");
  EXPECT_EQ(M.Conflicts.size(), 2u);
}

TEST(EditsTest, TwoReplacementsSharingBytesConflict) {
  FileEdits E;
  E.add({0, 3, "A", EditRank::Statement});
  E.add({2, 3, "B", EditRank::Statement});
  EXPECT_EQ(E.merge().Conflicts.size(), 2u);
}

TEST(EditsTest, AppendMergesUnitsThatSawTheSameHeader) {
  FileEdits FromA, FromB;
  FromA.add({4, 0, "S;", EditRank::Statement});
  FromB.add({4, 0, "S;", EditRank::Statement});
  FromB.add({9, 0, "E;", EditRank::Statement});
  FromA.append(FromB);
  EXPECT_EQ(FromA.merge().Edits.size(), 2u);
}

// Two configurations planned the include at different places (one saw a
// function earlier in the file): only the first place is kept.
TEST(EditsTest, OnceKeyEditsKeepTheFirstInTheFile) {
  FileEdits E;
  Edit Late{6, 0, "#inc\n", EditRank::Statement, "include"};
  Edit Early{2, 0, "#inc\n", EditRank::Statement, "include"};
  E.add(Late);
  E.add({4, 0, "S;", EditRank::Statement});
  E.add(Early);
  E.add(Early);
  auto M = E.merge();
  EXPECT_TRUE(M.Conflicts.empty());
  EXPECT_EQ(applyEdits("ab\ncd\nef", M.Edits), "ab#inc\n\ncS;d\nef");
}

// Configurations planned a function's START group at one place with other
// categories: the tail (the category update) of the lowest Preference is
// kept, whatever the order, and arrives where the first of the group did
// (before the END of an empty body); other keys and edits without one are
// untouched.
Edit startGroup(unsigned Offset, const char *Head, const char *Tail,
                unsigned Preference, const char *Key = "start@0") {
  Edit S{Offset, 0, std::string(Head) + Tail, EditRank::Statement, Key};
  S.TailAt = std::strlen(Head);
  S.Preference = Preference;
  return S;
}

TEST(EditsTest, OnceKeyEditsTakeTheTailOfTheLowestPreference) {
  for (bool Reversed : {false, true}) {
    FileEdits E;
    Edit Comm = startGroup(1, "[S]", "[comm]", 1);
    Edit Mem = startGroup(1, "[S]", "[mem]", 2);
    E.add(Reversed ? Mem : Comm);
    E.add({1, 0, "[end]", EditRank::Statement});
    E.add(Reversed ? Comm : Mem);
    E.add(startGroup(3, "[S]", "[io]", 0, "start@2"));
    EXPECT_EQ(applyEdits("{x{y", E.merge().Edits),
              "{[S][comm][end]x{[S][io]y");
  }
}

// main's START group planned at two places: the first in the file keeps
// its place and head (INIT, START and the line break before the update, as
// laid out there), with the update of the lowest Preference, planned at the
// other place.
TEST(EditsTest, OnceKeyEditsKeepTheFirstPlaceWithTheBestTail) {
  FileEdits E;
  E.add(startGroup(5, "\n    [S@5]\n    ", "[comm]", 1));
  E.add(startGroup(1, "\n  [S@1]\n  ", "[cpu]", 3));
  EXPECT_EQ(applyEdits("{abc;def", E.merge().Edits),
            "{\n  [S@1]\n  [comm]abc;def");
}

// At one place and one Preference (another indent), the first planned.
TEST(EditsTest, OnceKeyEditsOtherwiseKeepTheFirstPlanned) {
  FileEdits E;
  E.add({1, 0, "\n  S;", EditRank::Statement, "start@0"});
  E.add({1, 0, "\n      S;", EditRank::Statement, "start@0"});
  EXPECT_EQ(applyEdits("{}", E.merge().Edits), "{\n  S;}");
}

} // namespace
