//===- ScaleTest.cpp - What the analysis keeps at many ranks (issue 41) ---===//
//
// The state that grows with ranks and files (docs/analysis.md, "At
// scale"): the merged common values stay exact sums whatever the order of
// the merges, a rank keeps only the values the reports print, and the
// cross-process byte ranges are capped by (file, pid), so what is kept does
// not depend on the merge order and the figures say "at least".
//
//===----------------------------------------------------------------------===//

#include "analyze/Aggregate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

using namespace dftanalyze;

namespace {

/// A stream's kept values: N distinct values from Seed, with counts.
ValueCounts streamValues(uint32_t Seed, size_t N) {
  std::mt19937 R(Seed);
  ValueCounts V;
  V.add(0, 100 + Seed % 7); // a common value in every stream
  for (size_t I = 1; I < N; ++I)
    V.add(static_cast<int64_t>(R() % 100000), 1 + R() % 5);
  V.Other = Seed % 3;
  return V;
}

std::map<int64_t, uint64_t> asMap(const ValueCounts &V) {
  V.fold();
  return {V.Counts.begin(), V.Counts.end()};
}

} // namespace

TEST(Scale, MergedValuesAreExactSumsInAnyOrder) {
  std::vector<ValueCounts> Parts;
  std::map<int64_t, uint64_t> Want;
  uint64_t WantOther = 0;
  for (uint32_t S = 0; S < 300; ++S) {
    Parts.push_back(streamValues(S, 32));
    for (const auto &[V, N] : asMap(Parts.back()))
      Want[V] += N;
    WantOther += Parts.back().Other;
  }
  // One by one, in order; backwards; and in two halves merged at the end
  // (as two workers, or two MPI ranks).
  ValueCounts Forward, Backward, Left, Right;
  for (const ValueCounts &P : Parts)
    Forward.merge(P);
  for (size_t I = Parts.size(); I-- > 0;)
    Backward.merge(Parts[I]);
  for (size_t I = 0; I < Parts.size(); ++I)
    (I % 2 ? Left : Right).merge(Parts[I]);
  Left.merge(Right);
  for (const ValueCounts *V : {&Forward, &Backward, &Left}) {
    EXPECT_EQ(asMap(*V), Want);
    EXPECT_EQ(V->Other, WantOther);
    EXPECT_EQ(V->top(4), Forward.top(4));
  }
  EXPECT_EQ(Forward.top(1).front().first, 0);
}

TEST(Scale, ARankKeepsTheValuesTheReportsPrint) {
  ValueCounts V = streamValues(7, 32);
  auto Top = V.top(ValueCounts::ReportedValues);
  uint64_t Other = V.Other;
  V.keepTop();
  EXPECT_EQ(V.Counts.size(), ValueCounts::ReportedValues);
  EXPECT_EQ(V.top(ValueCounts::ReportedValues), Top);
  EXPECT_EQ(V.Other, Other); // values_not_kept as before
}

TEST(Scale, ARanksGatheredValuesKeepWhatMergingKeeps) {
  // keepTopOf (a rank's streams' values gathered and sorted once) keeps
  // what merging the streams' lists one by one and keepTop() keep.
  ValueCounts Merged, Gathered;
  std::vector<ValueCounts::Value> All;
  for (uint32_t S = 0; S < 12; ++S) {
    ValueCounts Part = streamValues(S, 32);
    Merged.merge(Part);
    Part.fold();
    All.insert(All.end(), Part.Counts.begin(), Part.Counts.end());
    Gathered.Other += Part.Other;
  }
  Merged.keepTop();
  Gathered.keepTopOf(All);
  EXPECT_EQ(Gathered.Counts, Merged.Counts);
  EXPECT_EQ(Gathered.Other, Merged.Other);
  EXPECT_TRUE(All.empty());
  EXPECT_EQ(Gathered.Counts.capacity(), Gathered.Counts.size());
}

TEST(Scale, ATallyIsEmptyAfterItsValuesMove) {
  // A stream's tally is reused for its next file (its table kept when
  // small, freed when large): nothing of the last file's values stays.
  for (int64_t Distinct : {20, 200}) {
    ValueTally T;
    ValueCounts First, Next;
    for (int64_t V = 0; V < Distinct; ++V)
      T.add(V, 3, First);
    T.moveTo(First);
    T.add(7, 2, Next);
    T.moveTo(Next);
    ASSERT_EQ(Next.Counts.size(), 1u) << Distinct;
    EXPECT_EQ(Next.Counts[0], (ValueCounts::Value{7, 2})) << Distinct;
    EXPECT_EQ(Next.Other, 0u) << Distinct;
  }
}

TEST(Scale, SmallPartsIntoShortAndLongListsKeepExactSums) {
  // A worker merges each file's few values into the same lists
  // (mergeValues): searched in place while a list is short, appended
  // unsearched once it is long, and summed when Pending folds. The sums
  // are exact at every step, before a fold and after, whatever the path:
  // ranks that share values (S % 40) and ranks that bring new ones.
  for (uint32_t Share : {40u, 1000u}) {
    ValueCounts Into;
    std::map<int64_t, uint64_t> Want;
    uint64_t WantOther = 0;
    bool SawShort = false, SawLong = false;
    for (uint32_t S = 0; S < 300; ++S) {
      ValueCounts Part = streamValues(S % Share, 1 + S % 7);
      Part.fold();
      (Into.Counts.size() < ValueCounts::SearchedValues ? SawShort : SawLong) =
          true;
      Into.mergeValues(Part.Counts, Part.Other);
      for (const auto &[V, N] : Part.Counts)
        Want[V] += N;
      WantOther += Part.Other;
      if (S % 37 == 0) { // folds Into: the merges go on from there
        EXPECT_EQ(asMap(Into), Want) << Share << " " << S;
        EXPECT_EQ(Into.Other, WantOther) << Share << " " << S;
      }
    }
    EXPECT_TRUE(SawShort && SawLong) << Share; // both paths were taken
    EXPECT_EQ(asMap(Into), Want) << Share;
    EXPECT_EQ(Into.Other, WantOther) << Share;
  }
}

TEST(Scale, ATallysTopIsWhatMoveToKeeps) {
  // takeTop (a stream's or function's values into the worker's vector)
  // keeps what moveTo keeps in an empty list, and leaves the tally empty
  // for the next file, its table kept (under 64 slots) or freed.
  for (int64_t Distinct : {20, 40, 200}) {
    ValueTally A, B;
    ValueCounts Moved, Unused;
    for (int64_t V = 0; V < Distinct; ++V) {
      A.add(V * 7, 1 + V % 5, Unused);
      B.add(V * 7, 1 + V % 5, Unused);
    }
    A.moveTo(Moved);
    std::vector<ValueCounts::Value> Top = {{-1, 1}}; // emptied first
    uint64_t Other = 0;
    B.takeTop(Top, Other);
    EXPECT_EQ(Top, Moved.Counts) << Distinct;
    EXPECT_EQ(Other, Moved.Other) << Distinct;
    B.add(3, 2, Unused);
    B.takeTop(Top, Other);
    ASSERT_EQ(Top.size(), 1u) << Distinct;
    EXPECT_EQ(Top[0], (ValueCounts::Value{3, 2})) << Distinct;
  }
}

namespace {

/// A process's ranges on one file: Count ranges, 1 KiB apart.
ProcessRanges rangesOf(uint32_t FileIndex, size_t Count) {
  ProcessRanges R;
  R.FileIndex = FileIndex;
  R.Pid = 1000 + FileIndex;
  for (size_t I = 0; I < Count; ++I)
    R.Write.push_back({I * 1024, I * 1024 + 512});
  return R;
}

/// Bytes written twice on the file after finish(), and whether "at least".
std::pair<uint64_t, uint64_t> crossAfter(std::vector<uint32_t> Order) {
  FileStat Total;
  size_t W = ioSlot(dftrace::Layer::Posix);
  for (uint32_t F : Order) {
    FileStat One;
    One.Ranges[W].push_back(rangesOf(F, 4096));
    One.RangeCount[W] = 4096;
    Total.merge(std::move(One));
  }
  Total.finishAccess();
  return {Total.Access[W].CrossWritten, Total.Access[W].RangesCapped};
}

} // namespace

TEST(Scale, CrossProcessRangesAreCappedByRankNotByArrival) {
  // 300 processes of 4,096 ranges: past MaxCrossRanges (2^20), the first
  // 256 in (file, pid) order are kept, whatever order they came in.
  std::vector<uint32_t> Order(300);
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  auto Sorted = crossAfter(Order);
  std::reverse(Order.begin(), Order.end());
  auto Reversed = crossAfter(Order);
  std::shuffle(Order.begin(), Order.end(), std::mt19937(5));
  auto Shuffled = crossAfter(Order);
  EXPECT_EQ(Sorted, Reversed);
  EXPECT_EQ(Sorted, Shuffled);
  size_t Kept = MaxCrossRanges / 4096;
  EXPECT_EQ(Sorted.first, (Kept - 1) * 4096 * 512); // all write the same
  EXPECT_EQ(Sorted.second, 300 - Kept);             // "at least"
  // Under the cap: nothing dropped, no "at least".
  auto Few = crossAfter({3, 1, 2});
  EXPECT_EQ(Few.first, 2u * 4096 * 512);
  EXPECT_EQ(Few.second, 0u);
}
