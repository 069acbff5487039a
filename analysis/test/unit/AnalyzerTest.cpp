//===- AnalyzerTest.cpp - Tests of the analyzer's building blocks ---------===//

#include "analyze/AccessPattern.h"
#include "analyze/Aggregate.h"
#include "analyze/Analysis.h"
#include "analyze/Archive.h"
#include "analyze/FileAnalyzer.h"
#include "analyze/FoldWatermark.h"
#include "analyze/IntervalUnion.h"
#include "analyze/Timeline.h"
#include "diagnose/Diagnose.h"
#include "diagnose/SuggestFilter.h"
#include "report/ChromeTrace.h"
#include "report/Output.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include <fstream>
#include <random>

namespace {

using namespace dftanalyze;

TEST(IntervalUnion, OverlapsCountOnce) {
  IntervalUnion U;
  U.add(0, 10);
  U.add(5, 12);
  U.add(20, 21);
  U.add(3, 3); // empty
  EXPECT_EQ(U.total(), 13u);
  EXPECT_FALSE(U.conflict());
}

TEST(IntervalUnion, AnyOrderGivesTheSameUnion) {
  std::mt19937_64 Rng(3);
  std::vector<std::pair<int64_t, int64_t>> V;
  for (int I = 0; I < 20000; ++I) {
    int64_t B = static_cast<int64_t>(Rng() % 1000000);
    V.emplace_back(B, B + static_cast<int64_t>(Rng() % 300));
  }
  std::vector<char> Covered(1000400, 0);
  for (auto [B, E] : V)
    for (int64_t T = B; T < E; ++T)
      Covered[T] = 1;
  uint64_t Want = 0;
  for (char C : Covered)
    Want += C;
  for (int Order = 0; Order < 3; ++Order) {
    if (Order == 1)
      std::sort(V.begin(), V.end(), [](auto A, auto B) { return A.second < B.second; });
    if (Order == 2)
      std::reverse(V.begin(), V.end());
    IntervalUnion U;
    for (auto [B, E] : V)
      U.add(B, E);
    EXPECT_EQ(U.total(), Want) << "order " << Order;
  }
}

TEST(IntervalUnion, AnIntervalBeforeFoldedTimeIsAConflict) {
  IntervalUnion U;
  for (int64_t I = 0; I < static_cast<int64_t>(IntervalUnion::FoldAbove) + 10; ++I)
    U.add(10 * I, 10 * I + 5);
  U.fold(1000);
  U.add(0, 1); // starts in time already folded
  EXPECT_TRUE(U.conflict());
}

/// An I/O call holding another (MPI-IO over POSIX) reaches the trace after
/// it: folding at the watermark never folds time the parent still covers,
/// so the union stays exact in one pass, and folding keeps memory bounded.
TEST(FoldWatermark, AParentAfterItsChildrenIsNotFoldedUnder) {
  IntervalUnion U;
  FoldWatermark W;
  const int64_t N = static_cast<int64_t>(IntervalUnion::FoldAbove) * 3;
  size_t MostKept = 0;
  for (int64_t I = 0; I < N; ++I) {
    int64_t T = 20 * I;
    // pwrite64 [T+2, T+6), then MPI_File_write_at [T, T+10) around it.
    for (auto [B, E] : {std::pair<int64_t, int64_t>{T + 2, T + 6}, {T, T + 10}}) {
      W.ended(/*Tid=*/7, E);
      if (U.add(B, E))
        U.fold(W.watermark());
      MostKept = std::max(MostKept, U.kept());
    }
  }
  EXPECT_FALSE(U.conflict());
  EXPECT_EQ(U.total(), static_cast<uint64_t>(10 * N));
  EXPECT_LT(MostKept, 2 * IntervalUnion::FoldAbove + FoldWatermark::Recent);
  EXPECT_EQ(W.threads(), 1u);
}

/// A thread with fewer spans than FoldWatermark::Recent holds the watermark
/// at the start: its next parent may start before all of them.
TEST(FoldWatermark, AYoungThreadHoldsItBack) {
  FoldWatermark W;
  for (int64_t I = 0; I < 100; ++I)
    W.ended(1, 10 * I);
  EXPECT_EQ(W.watermark(), 10 * (100 - 64));
  W.ended(2, 5000);
  EXPECT_EQ(W.watermark(), std::numeric_limits<int64_t>::min());
}

TEST(Archive, RoundTrip) {
  Aggregate A;
  A.Events = 12345678901ull;
  A.Layers[1].ByOp[2].Bytes = 7;
  A.Functions["f"].Inclusive.Once.TimeUs = 99;
  A.UnknownOps[{1, "odd"}] = 3;
  ProcessStat P;
  P.Pid = -5;
  P.Rank = "3";
  P.Picture.Names = {"main"};
  P.Picture.Spans.push_back({-10, 4, 2, 0, 1, 1});
  A.Processes.push_back(P);
  A.addIssue(2, 9, Issue::MissingFH, "why");
  Writer W;
  visit(W, A);
  Reader R(W.Bytes.data(), W.Bytes.size());
  Aggregate B;
  visit(R, B);
  EXPECT_TRUE(R.atEnd());
  Writer W2;
  visit(W2, B);
  EXPECT_EQ(W.Bytes, W2.Bytes);
  EXPECT_EQ(B.Processes[0].Pid, -5);
  EXPECT_EQ(B.Processes[0].Picture.Spans[0].Ts, -10);
  EXPECT_EQ(B.Functions["f"].Inclusive.Once.TimeUs, 99u);
}

TEST(AccessStream, PastTheRangeCapRedundantBytesAreALowerBound) {
  AccessStream S;
  const uint64_t N = AccessStream::MaxRanges;
  for (uint64_t I = 0; I < N; ++I) // N disjoint 10-byte reads, gaps between
    S.data(false, I * 100, 10, 4096);
  S.data(false, N * 100, 10, 4096);  // past the cap: not kept
  S.data(false, N * 100, 10, 4096);  // so this re-read is missed
  S.data(false, 0, 10, 4096);        // a kept range: counted
  S.data(false, 5, 100, 4096);       // joins two kept ones: 10 again
  RangeList R, W;
  AccessStats A = S.finish(R, W);
  EXPECT_EQ(A.RangesCapped, 1u);
  EXPECT_EQ(A.RedundantRead, 10u + 5 + 5); // 0..10, then 5..10 and 100..105
  EXPECT_EQ(R.size(), N - 1); // [0,110) merged with [100,110)
  EXPECT_EQ(R.front(), std::make_pair(uint64_t(0), uint64_t(110)));
}

TEST(AccessStream, AdjacentRangesMergeAndOverlapsCountOnce) {
  AccessStream S;
  S.data(true, 0, 4096, 4096);
  S.data(true, 4096, 4096, 4096);   // adjacent: one range
  S.data(true, 2048, 4096, 4096);   // 4096 bytes again, not aligned
  S.data(false, 100, 10, 0);        // unit unknown: 1 MiB, assumed
  RangeList R, W;
  AccessStats A = S.finish(R, W);
  EXPECT_EQ(W.size(), 1u);
  EXPECT_EQ(A.RedundantWritten, 4096u);
  EXPECT_EQ(A.DistinctWritten, 8192u);
  EXPECT_EQ(A.NotAligned, 2u);
  EXPECT_EQ(A.AlignAssumed, 1u);
  EXPECT_EQ(A.AlignMin, 4096u);
  EXPECT_EQ(A.AlignMax, uint64_t(1) << 20);
  EXPECT_EQ(A.alignment(), 0u); // mixed
  EXPECT_EQ(A.SeqWrites, 1u);   // the third starts before the second's end
  EXPECT_EQ(A.ConsecWrites, 1u);
  EXPECT_EQ(A.RwSwitches, 1u);
  EXPECT_EQ(A.MaxByteWritten, 8191);
  EXPECT_EQ(A.MaxByteRead, 109);
}

/// Byte ranges in any order (appended, extended, between kept ones, over
/// several) give the ranges and the redundant bytes of a byte-by-byte count.
TEST(AccessStream, RangesInAnyOrderAgreeWithAByteCount) {
  AccessStream S;
  std::vector<bool> Seen(4096);
  uint64_t Redundant = 0, X = 12345;
  for (int I = 0; I < 3000; ++I) {
    X = X * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t Offset = (X >> 33) % 4000, Size = 1 + (X >> 20) % 60;
    if (I % 3 == 0) // a sequential run now and then
      Offset = (I * 7) % 4000;
    for (uint64_t B = Offset; B < Offset + Size; ++B) {
      Redundant += Seen[B];
      Seen[B] = true;
    }
    S.data(false, Offset, Size, 4096);
  }
  RangeList R, W;
  AccessStats A = S.finish(R, W);
  RangeList Expected;
  for (uint64_t B = 0; B < Seen.size(); ++B)
    if (Seen[B]) {
      if (!Expected.empty() && Expected.back().second == B)
        ++Expected.back().second;
      else
        Expected.emplace_back(B, B + 1);
    }
  EXPECT_EQ(R, Expected);
  EXPECT_EQ(A.RedundantRead, Redundant);
  EXPECT_EQ(A.DistinctRead, rangeBytes(Expected));
  EXPECT_EQ(A.RangesCapped, 0u);
}

/// The calls of one stream, handed up in tallies of a few calls each (as
/// spans hand them to their function) and summed in an AccessSum, give the
/// stream's own figures, but for the byte-range ones; sizes and strides
/// past SmallValues' inline slots and past ValueTally's cap included.
TEST(AccessSum, TalliesOfAStreamAddUpToItsFigures) {
  AccessStream S;
  AccessSum Sum;
  LazyTally Open;
  for (uint64_t I = 0; I < 5000; ++I) {
    // Mostly sequential, with a write now and then, sizes of up to 1500
    // distinct values (past the 1024 cap), every 7th buffer not aligned,
    // some calls without an offset.
    bool Write = I % 5 == 0;
    MemAlign Mem{8, I % 7 == 0};
    AccessCall C = I % 11 == 3
                       ? S.noOffset(Write, Mem)
                       : S.data(Write, I * 2000 - (I % 3) * 100,
                                1 + (I * 37) % 1500, I % 2 ? 4096 : 0, Mem);
    ASSERT_TRUE(C.valid());
    LazyTally Mine;
    Mine.add(C);
    Open.take(Mine); // a span with one call, under one with many
    EXPECT_TRUE(Mine.empty());
    if (I % 9 == 8) {
      Sum.add(*Open.get()); // the function's span ends
      Open.clear();
    }
  }
  if (!Open.empty())
    Sum.add(*Open.get());
  RangeList R, W;
  AccessStats Want = S.finish(R, W), Got = Sum.finish();
  EXPECT_EQ(Got.calls(), 5000u);
  EXPECT_EQ(Got.MemJudged, 5000u);
  EXPECT_EQ(Got.MemNotAligned, 715u); // 0, 7, ..., 4998
  EXPECT_EQ(Got.memAlignment(), 8u);
  EXPECT_GT(Got.AlignAssumed, 0u);
  EXPECT_GT(Got.Sizes.Other, 0u);
  Want.DistinctRead = Want.DistinctWritten = 0; // a stream's, not a sum's
  Want.RangesCapped = Got.RangesCapped;         // per stream, per call
  Writer WA, WB;
  WA(Want);
  WB(Got);
  EXPECT_EQ(WA.Bytes, WB.Bytes);
}

/// Without the CM record no call is judged: no silent 0.
TEST(AccessStream, MemoryAlignmentNotRecordedIsNotJudged) {
  AccessStream S;
  S.data(true, 0, 10, 4096, {0, false});
  S.data(true, 10, 10, 4096, {0, true});
  RangeList R, W;
  AccessStats A = S.finish(R, W);
  EXPECT_EQ(A.MemJudged, 0u);
  EXPECT_EQ(A.MemNotAligned, 0u);
  EXPECT_EQ(A.memAlignment(), 0u);
  AccessStats B;
  B.merge(A);
  AccessStream T;
  T.data(false, 0, 10, 4096, {4096, true});
  B.merge(T.finish(R, W));
  EXPECT_EQ(B.MemJudged, 1u);
  EXPECT_EQ(B.MemNotAligned, 1u);
  EXPECT_EQ(B.memAlignment(), 4096u);
}

TEST(AccessStats, MergeOrderDoesNotMatterAndArchiveRoundTrips) {
  // Streams with more distinct sizes than a stream keeps: trimmed at the
  // end of each stream, then summed, so any merge order gives one result.
  std::vector<AccessStats> Parts;
  std::vector<RangeList> Reads;
  for (uint64_t P = 0; P < 5; ++P) {
    AccessStream S;
    for (uint64_t I = 0; I < 3000; ++I)
      S.data(I % 2, I * 8192, 1 + (I * (P + 1)) % 1500, 4096);
    RangeList R, W;
    Parts.push_back(S.finish(R, W));
    Reads.push_back(R);
  }
  AccessStats A, B;
  for (size_t I = 0; I < Parts.size(); ++I)
    A.merge(Parts[I]);
  for (size_t I = Parts.size(); I-- > 0;)
    B.merge(Parts[I]);
  Writer WA, WB;
  WA(A);
  WB(B);
  EXPECT_EQ(WA.Bytes, WB.Bytes);
  EXPECT_GT(A.Sizes.Other, 0u);
  EXPECT_LE(A.Sizes.Counts.size(), 5 * ValueCounts::KeepValues);
  AccessStats C;
  Reader R(WA.Bytes.data(), WA.Bytes.size());
  R(C);
  Writer WC;
  WC(C);
  EXPECT_EQ(WC.Bytes, WA.Bytes);
  // The five processes read the same offsets: every byte a later one read
  // was read before by another.
  std::vector<const RangeList *> Lists;
  for (const RangeList &L : Reads)
    Lists.push_back(&L);
  uint64_t Sum = 0;
  for (const RangeList &L : Reads)
    Sum += rangeBytes(L);
  RangeList All;
  for (const RangeList &L : Reads)
    All.insert(All.end(), L.begin(), L.end());
  std::sort(All.begin(), All.end());
  uint64_t Union = 0, End = 0;
  for (auto [Bg, En] : All) { // the union, the slow way
    Bg = std::max(Bg, End);
    if (En > Bg)
      Union += En - Bg;
    End = std::max(End, En);
  }
  EXPECT_EQ(crossBytes(Lists), Sum - Union);
  EXPECT_GT(crossBytes(Lists), 0u);
}

TEST(Timeline, BucketsDoNotDependOnArrivalOrder) {
  std::vector<std::pair<int64_t, uint64_t>> Calls;
  std::mt19937_64 Rng(7);
  for (int I = 0; I < 5000; ++I)
    Calls.emplace_back(static_cast<int64_t>(Rng() % 3000000),
                       Rng() % 2000);
  auto Build = [&](bool Reverse) {
    Timeline T;
    TimelineBuilder B(T);
    for (size_t I = 0; I < Calls.size(); ++I) {
      const auto &C = Calls[Reverse ? Calls.size() - 1 - I : I];
      B.io(dftrace::Layer::Posix, C.first, C.second);
      B.span("f", dftrace::Layer::App, 1, C.first, C.second, I);
    }
    B.finish();
    return T;
  };
  Timeline A = Build(false), B = Build(true);
  EXPECT_EQ(A.Width, B.Width);
  EXPECT_EQ(A.Origin, B.Origin);
  EXPECT_EQ(A.Io[0].BusyUs, B.Io[0].BusyUs);
  EXPECT_EQ(A.Io[0].Calls, B.Io[0].Calls);
  uint64_t Busy = 0, Want = 0;
  for (uint64_t V : A.Io[0].BusyUs)
    Busy += V;
  for (const auto &C : Calls)
    Want += C.second;
  EXPECT_EQ(Busy, Want);
  EXPECT_EQ(A.Spans.size(), Timeline::MaxSpans);
}

/// Nested calls of one function, and I/O inside I/O, counted once.
TEST(FileAnalyzer, RecursionAndNestedIoCountOnce) {
  std::string Path = ::testing::TempDir() + "/recursion.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":5,"name":"pwrite64","cat":"POSIX","pid":1,"tid":1,"ts":13,"dur":2,"ph":"X","args":{"level":4,"p_idx":4,"ret":10}})" "\n"
      << R"({"id":4,"name":"MPI_File_write","cat":"MPIIO","pid":1,"tid":1,"ts":12,"dur":5,"ph":"X","args":{"level":3,"p_idx":3,"bytes":10,"ret":0}})" "\n"
      << R"({"id":3,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":11,"dur":8,"ph":"X","args":{"level":2,"p_idx":2}})" "\n"
      << R"({"id":6,"name":"pread64","cat":"POSIX","pid":1,"tid":1,"ts":20,"dur":1,"ph":"X","args":{"level":2,"p_idx":2,"ret":7}})" "\n"
      << R"({"id":2,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":10,"dur":12,"ph":"X","args":{"level":1,"p_idx":0}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  const FunctionStat &F = A.Functions.at("f");
  EXPECT_EQ(F.Calls, 2u);
  EXPECT_EQ(F.Direct.Once.Ops, 2u); // the MPI call (its pwrite64 is part of it), pread64
  EXPECT_EQ(F.Inclusive.Once.Ops, 2u);
  EXPECT_EQ(F.Inclusive.Once.TimeUs, 6u);
  EXPECT_EQ(F.Inclusive.Once.BytesWritten, 10u);
  EXPECT_EQ(F.Inclusive.Once.BytesRead, 7u);
  EXPECT_EQ(A.Io.Once.Ops, 2u);
  EXPECT_EQ(A.Layers[static_cast<size_t>(Layer::Posix)].Totals.Ops, 2u);
  EXPECT_EQ(A.Processes.at(0).IoUnionUs, 6u);
  EXPECT_EQ(A.issueTotal(), 0u);
}

/// The same spans without level/p_idx (upstream DFTracer's dev branch),
/// nested by time on their thread: a call that starts or ends exactly
/// with its function (whole microseconds) is inside it, and a second
/// thread's span at the same time is not.
TEST(FileAnalyzer, WithoutParentIdsSpansNestByTime) {
  std::string Path = ::testing::TempDir() + "/no-p_idx.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":5,"name":"pwrite64","cat":"POSIX","pid":1,"tid":1,"ts":12,"dur":2,"ph":"X","args":{"ret":10}})" "\n"
      << R"({"id":4,"name":"MPI_File_write","cat":"MPIIO","pid":1,"tid":1,"ts":12,"dur":5,"ph":"X","args":{"bytes":10,"ret":0}})" "\n"
      << R"({"id":9,"name":"pwrite64","cat":"POSIX","pid":1,"tid":2,"ts":13,"dur":1,"ph":"X","args":{"ret":3}})" "\n"
      << R"({"id":3,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":11,"dur":8,"ph":"X"})" "\n"
      << R"({"id":6,"name":"pread64","cat":"POSIX","pid":1,"tid":1,"ts":21,"dur":1,"ph":"X","args":{"ret":7}})" "\n"
      << R"({"id":2,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":10,"dur":12,"ph":"X","args":{}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  const FunctionStat &F = A.Functions.at("f");
  EXPECT_EQ(F.Calls, 2u);
  EXPECT_EQ(F.Direct.Once.Ops, 2u); // the MPI call (its pwrite64 is part of it), pread64
  EXPECT_EQ(F.Inclusive.Once.Ops, 2u);
  EXPECT_EQ(F.Inclusive.Once.BytesWritten, 10u);
  EXPECT_EQ(F.Inclusive.Once.BytesRead, 7u);
  EXPECT_EQ(A.Functions.at(NoFunction).Direct.Once.BytesWritten, 3u); // thread 2
  EXPECT_EQ(A.Io.Once.Ops, 3u);
  EXPECT_EQ(A.Unattributed, 0u);
  EXPECT_EQ(A.issueTotal(), 0u);
}

/// Two runs of one thread concatenated, the later run first: the earlier
/// run's spans arrive after a span that ended later and was written before
/// them, so containment cannot be trusted. They are reported, not placed.
TEST(FileAnalyzer, OutOfEndOrderIsReportedNotGuessed) {
  std::string Path = ::testing::TempDir() + "/concatenated.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":2,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":101,"dur":2,"ph":"X","args":{"ret":5}})" "\n"
      << R"({"id":1,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":100,"dur":50,"ph":"X"})" "\n"
      << R"({"id":2,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":11,"dur":2,"ph":"X","args":{"ret":4}})" "\n"
      << R"({"id":1,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":10,"dur":50,"ph":"X"})" "\n"
      << R"({"id":3,"name":"read","cat":"POSIX","pid":1,"tid":1,"ts":120,"dur":1,"ph":"X","args":{"ret":6}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  EXPECT_EQ(A.IssueCounts[static_cast<size_t>(Issue::UnnestedSpan)], 3u);
  ASSERT_EQ(A.Issues.size(), 3u);
  for (size_t I = 0; I < 3; ++I)
    EXPECT_EQ(A.Issues[I].Line, 4 + I);
  EXPECT_EQ(A.Unattributed, 3u);
  const FunctionStat &F = A.Functions.at("f");
  EXPECT_EQ(F.Calls, 2u);
  EXPECT_EQ(F.Direct.Once.BytesRead, 5u); // only the first read: in order
  EXPECT_EQ(A.Functions.at(NoFunction).Direct.Once.BytesRead, 10u);
}

/// Many distinct functions under one span (a region named per iteration),
/// inside a recursive call: each credited once, the recursion once, and in
/// time linear in the spans (merging indexes long lists).
TEST(FileAnalyzer, ManyFunctionsUnderOneSpanCountOnce) {
  std::string Path = ::testing::TempDir() + "/many-functions.pfw";
  const int N = 200;
  {
    std::ofstream Out(Path);
    Out << "[\n";
    for (int I = 0; I < N; ++I)
      Out << R"({"id":)" << 100 + 2 * I << R"(,"name":"pwrite64","cat":"POSIX","pid":1,"tid":1,"ts":)"
          << 10 + 4 * I << R"(,"dur":1,"ph":"X","args":{"level":4,"p_idx":)" << 101 + 2 * I
          << R"(,"ret":8}})" "\n"
          << R"({"id":)" << 101 + 2 * I << R"(,"name":"step_)" << I
          << R"(","cat":"C_APP","pid":1,"tid":1,"ts":)" << 10 + 4 * I
          << R"(,"dur":2,"ph":"X","args":{"level":3,"p_idx":2}})" "\n";
    Out << R"({"id":2,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":5,"dur":)" << 4 * N + 10
        << R"(,"ph":"X","args":{"level":2,"p_idx":1}})" "\n"
        << R"({"id":3,"name":"pread64","cat":"POSIX","pid":1,"tid":1,"ts":)" << 4 * N + 20
        << R"(,"dur":1,"ph":"X","args":{"level":2,"p_idx":1,"ret":4}})" "\n"
        << R"({"id":1,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":1,"dur":)" << 4 * N + 30
        << R"(,"ph":"X","args":{"level":1,"p_idx":0}})" "\n";
  }
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  const FunctionStat &F = A.Functions.at("f");
  EXPECT_EQ(F.Calls, 2u);
  EXPECT_EQ(F.Direct.Once.Ops, 1u); // the pread64
  EXPECT_EQ(F.Inclusive.Once.Ops, static_cast<uint64_t>(N + 1));
  EXPECT_EQ(F.Inclusive.Once.BytesWritten, static_cast<uint64_t>(8 * N));
  EXPECT_EQ(F.Inclusive.Once.BytesRead, 4u);
  for (int I = 0; I < N; I += 37) {
    const FunctionStat &S = A.Functions.at("step_" + std::to_string(I));
    EXPECT_EQ(S.Direct.Once.Ops, 1u);
    EXPECT_EQ(S.Inclusive.Once.Ops, 1u);
  }
  EXPECT_EQ(A.Io.Once.Ops, static_cast<uint64_t>(N + 1));
  EXPECT_EQ(A.issueTotal(), 0u);
}

/// A thread whose early calls reach the file late: the union is folded by
/// then, so the file is read again without folding, and stays exact.
TEST(FileAnalyzer, LateThreadIsExactAfterRereading) {
  std::string Path = ::testing::TempDir() + "/late-thread.pfw";
  {
    std::ofstream Out(Path);
    Out << "[\n";
    const int64_t N = static_cast<int64_t>(IntervalUnion::FoldAbove) + 5000;
    for (int64_t I = 0; I < N; ++I)
      Out << R"({"id":)" << I + 1
          << R"(,"name":"pwrite64","cat":"POSIX","pid":1,"tid":1,"ts":)"
          << 10 * I << R"(,"dur":5,"ph":"X","args":{"level":1,"p_idx":0,"ret":1}})"
          << "\n";
    Out << R"({"id":999999,"name":"pread64","cat":"POSIX","pid":1,"tid":2,"ts":3,"dur":10,"ph":"X","args":{"level":1,"p_idx":0,"ret":1}})"
        << "\n";
  }
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  const int64_t N = static_cast<int64_t>(IntervalUnion::FoldAbove) + 5000;
  ASSERT_EQ(A.Processes.size(), 1u);
  EXPECT_EQ(A.Processes[0].IoUnionUs, static_cast<uint64_t>(5 * N + 5));
  EXPECT_EQ(A.Processes[0].UnionUs[static_cast<size_t>(Layer::Posix)],
            static_cast<uint64_t>(5 * N + 5));
  EXPECT_EQ(A.Processes[0].Threads, 2u);
}

/// A part that is not there (a rank whose directory the root cannot see)
/// fails the join instead of leaving its events out.
TEST(ChromeTrace, AMissingPartFailsTheJoin) {
  std::string Out = ::testing::TempDir() + "/joined.json";
  std::ofstream(Out + ".part0") << ",\n{\"name\":\"a\"}";
  std::remove((Out + ".part1").c_str());
  std::remove(Out.c_str());
  std::string Error;
  EXPECT_FALSE(joinChromeParts(2, Out, Error));
  EXPECT_NE(Error.find("joined.json.part1: cannot read"), std::string::npos)
      << Error;
  EXPECT_FALSE(std::ifstream(Out).good());
  EXPECT_FALSE(std::ifstream(Out + ".part0").good()); // parts removed
  EXPECT_FALSE(std::ifstream(Out + ".tmp").good());
}

} // namespace

namespace {

using namespace dftanalyze;

Aggregate recordsFixture() {
  Aggregate A;
  for (uint32_t I = 0; I < 2; ++I)
    A.merge(analyzeFile(std::string(DFT_RECORDS_DIR) + "/rank" +
                            std::to_string(I) + ".pfw",
                        I, AnalyzeOptions()));
  A.finish();
  return A;
}

constexpr size_t PosixSlot = 0, MpiSlot = 2, Hdf5Slot = 3;

/// H5Dwrite > MPI_File_write_at_all > 2 pwrite64 on one file, plus an
/// independent and a non-blocking MPI write, and H5Fclose's own pwrite64:
/// each layer keeps its own bytes, and the headline is POSIX's, not the
/// 3155968 + 16384 bytes of the sum over layers.
TEST(FileAnalyzer, NestedLayersCountOncePerFile) {
  Aggregate A = recordsFixture();
  EXPECT_EQ(A.issueTotal(), 0u);
  const FileStat &F = A.Files.at("/data/out.h5");
  EXPECT_EQ(F.Layers[PosixSlot].BytesWritten, 1054720u + 8192u);
  EXPECT_EQ(F.Layers[MpiSlot].BytesWritten, 1052672u + 8192u);
  EXPECT_EQ(F.Layers[Hdf5Slot].BytesWritten, 1048576u);
  IoTotals Reached = F.reached();
  EXPECT_EQ(Reached.BytesWritten, 1062912u);
  EXPECT_EQ(Reached.Ops, 7u);     // 5 pwrite64 + 2 open64
  EXPECT_EQ(Reached.TimeUs, 153u);
  EXPECT_EQ(F.reachedMetaOps(), 2u);
  EXPECT_EQ(F.Processes, 2u);
  // MPI-IO kinds per file, opens with their communicator.
  EXPECT_EQ(F.Mpi.Kinds[size_t(MpiKind::Collective)].Ops, 1u);
  EXPECT_EQ(F.Mpi.Kinds[size_t(MpiKind::Collective)].Bytes, 1048576u);
  EXPECT_EQ(F.Mpi.Kinds[size_t(MpiKind::Independent)].Bytes, 4096u);
  EXPECT_EQ(F.Mpi.Kinds[size_t(MpiKind::NonBlocking)].TimeUs, 60u);
  EXPECT_EQ(F.Mpi.Opens, 2u);
  EXPECT_EQ(F.Mpi.CommSizeSum, 4u);
  // Per rank and per function: POSIX's bytes as the headline.
  ASSERT_EQ(A.Processes.size(), 2u);
  EXPECT_EQ(A.Processes[0].Io.reached().BytesWritten, 1054720u);
  EXPECT_EQ(A.Processes[0].Io.Once.BytesWritten, 1052672u);
  EXPECT_EQ(A.Processes[0].Io.Layers[Hdf5Slot].Ops, 2u);
  const FunctionStat &W = A.Functions.at("write_phase");
  EXPECT_EQ(W.Direct.Once.Ops, 4u);
  EXPECT_EQ(W.Direct.reached().BytesWritten, 1054720u);
  EXPECT_EQ(W.Direct.Layers[PosixSlot].Ops, 5u);
  EXPECT_EQ(W.Direct.Mpi.Kinds[size_t(MpiKind::Collective)].Ops, 1u);
  EXPECT_EQ(A.Functions.at("main").Inclusive.reached().BytesWritten, 1062912u);
  EXPECT_EQ(A.Io.reached().BytesWritten, 1062912u);
  const LayerStat &M = A.Layers[size_t(Layer::MpiIo)];
  EXPECT_EQ(M.Mpi.Kinds[size_t(MpiKind::NonBlocking)].Bytes, 8192u);
  EXPECT_EQ(M.Mpi.SizedOpens, 2u);
}

/// The runtime's records: untraced summed over processes, throttled calls
/// and time in the function table (marked), bypassed layers and stopped
/// traces per process.
TEST(FileAnalyzer, RecordsOfWhatTheTraceDoesNotHold) {
  Aggregate A = recordsFixture();
  ASSERT_EQ(A.Untraced.size(), 2u);
  const UntracedStat &U = A.Untraced.at("/usr");
  EXPECT_EQ(U.Opens, 5u);
  EXPECT_EQ(U.Reads, 15u);
  EXPECT_EQ(U.Writes, 1u);
  EXPECT_EQ(U.BytesRead, 5096u);
  EXPECT_EQ(U.BytesWritten, 10u);
  EXPECT_EQ(U.Processes, 2u);
  EXPECT_EQ(A.Untraced.at("/etc").BytesRead, 120u);

  const FunctionStat &F = A.Functions.at("uniform_random_number");
  EXPECT_EQ(F.Calls, 4094306u); // 2 spans + 4094304 counted
  EXPECT_EQ(F.TimeUs, 812347u);
  EXPECT_EQ(F.ThrottledCalls, 4094304u);
  EXPECT_EQ(F.ThrottleReasons, ThrottleBit);
  const LayerStat &P = A.Layers[size_t(Layer::Posix)];
  EXPECT_EQ(P.Throttled.Ops, 10u);
  EXPECT_EQ(P.Totals.Ops, 17u);
  EXPECT_EQ(P.Totals.BytesWritten, 1062912u + 40960u);
  EXPECT_EQ(P.ByOp[size_t(Op::Write)].Bytes, 1062912u + 40960u);
  EXPECT_EQ(A.Throttled.at({"POSIX", "pwrite64"}).Reasons, SizeLimitBit);

  ASSERT_EQ(A.Stopped.size(), 1u);
  EXPECT_EQ(A.Stopped[0].Pid, 7);
  EXPECT_EQ(A.Stopped[0].Reason, "size_limit");
  EXPECT_EQ(A.Stopped[0].Limit, 1073741824u);
  EXPECT_EQ(A.Stopped[0].Written, 1073741100u);
  EXPECT_EQ(A.Stopped[0].TsUs, 1050);
  ASSERT_EQ(A.Bypassed.size(), 2u);
  EXPECT_EQ(A.Bypassed[1].Pid, 8);
  EXPECT_EQ(A.Bypassed[1].Layer, "STDIO");
  EXPECT_EQ(A.Bypassed[1].Symbol, "fwrite");

  // Through the archive (MPI mode) unchanged.
  Writer W;
  visit(W, A);
  Reader R(W.Bytes.data(), W.Bytes.size());
  Aggregate B;
  visit(R, B);
  EXPECT_TRUE(R.atEnd());
  EXPECT_EQ(B.Untraced.at("/usr").Processes, 2u);
  EXPECT_EQ(B.Functions.at("uniform_random_number").ThrottledCalls, 4094304u);
  EXPECT_EQ(B.Files.at("/data/out.h5").Mpi.CommSizeSum, 4u);
}

/// A record whose args break the contract is a bad_field issue on its
/// line, and the rest of the file is read.
TEST(FileAnalyzer, ABrokenRecordIsReportedWithItsLine) {
  std::string Path = ::testing::TempDir() + "/bad-record.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":1,"name":"throttled","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"function":"f","fcat":"C_APP","calls":-3,"dur":5,"reason":"throttle"}})" "\n"
      << R"({"id":2,"name":"untraced","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"dirs":[{"dir":"/usr","opens":1}]}})" "\n"
      << R"({"id":3,"name":"f","cat":"C_APP","pid":1,"tid":1,"ts":1,"dur":2,"ph":"X","args":{"level":1,"p_idx":0}})" "\n"
      << R"({"id":4,"name":"some_future_record","cat":"dftracer","pid":1,"tid":1,"ph":"M","args":{"x":1}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  ASSERT_EQ(A.Issues.size(), 2u);
  EXPECT_EQ(A.Issues[0].Line, 2u);
  EXPECT_EQ(A.Issues[0].Kind, Issue::BadField);
  EXPECT_NE(A.Issues[0].Message.find("args.\"calls\""), std::string::npos)
      << A.Issues[0].Message;
  EXPECT_EQ(A.Issues[1].Line, 3u);
  EXPECT_NE(A.Issues[1].Message.find("\"reads\" is missing"), std::string::npos)
      << A.Issues[1].Message;
  EXPECT_EQ(A.Functions.at("f").Calls, 1u);
  EXPECT_TRUE(A.Untraced.empty());
}

/// Past the size budget the runtime writes no more spans, so a parent
/// still open then never reaches the file: the missing parent says why.
TEST(FileAnalyzer, AMissingParentAfterTheBudgetSaysTracingStopped) {
  std::string Path = ::testing::TempDir() + "/stopped.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":2,"name":"tiny","cat":"C_APP","pid":5,"tid":5,"ts":10,"dur":1,"ph":"X","args":{"level":2,"p_idx":1}})" "\n"
      << R"({"id":3,"name":"trace_stopped","cat":"dftracer","pid":5,"tid":5,"ph":"M","args":{"reason":"size_limit","limit":100,"written":90,"ts":12}})" "\n"
      << R"({"id":4,"name":"throttled","cat":"dftracer","pid":5,"tid":5,"ph":"M","args":{"function":"loop","fcat":"C_APP","calls":1,"dur":50,"bytes":0,"reason":"size_limit"}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  ASSERT_EQ(A.Issues.size(), 1u);
  EXPECT_EQ(A.Issues[0].Kind, Issue::MissingParent);
  EXPECT_NE(A.Issues[0].Message.find("tracing stopped while it was open"),
            std::string::npos)
      << A.Issues[0].Message;
  EXPECT_EQ(A.Functions.at("loop").Calls, 1u);
  EXPECT_EQ(A.Functions.at("loop").ThrottleReasons, SizeLimitBit);
}

/// A span another thread still had open at exit is never written; the
/// runtime names it in an open_at_exit record, and its children's I/O is
/// charged to it (not to "(unknown parent)"), the issue saying why.
TEST(FileAnalyzer, AParentOpenAtExitIsNamed) {
  std::string Path = ::testing::TempDir() + "/open_at_exit.pfw";
  std::ofstream(Path)
      << "[\n"
      << R"({"id":2,"name":"write","cat":"POSIX","pid":5,"tid":6,"ts":10,"dur":3,"ph":"X","args":{"fd":3,"count":8,"ret":8,"level":2,"p_idx":1}})" "\n"
      << R"({"id":3,"name":"open_at_exit","cat":"dftracer","pid":5,"tid":5,"ph":"M","args":{"tid":6,"span_id":1,"span":"loop","span_cat":"C_APP","level":1,"ts":9}})" "\n";
  Aggregate A = analyzeFile(Path, 0, AnalyzeOptions());
  ASSERT_EQ(A.Issues.size(), 1u);
  EXPECT_EQ(A.Issues[0].Kind, Issue::MissingParent);
  EXPECT_NE(A.Issues[0].Message.find("still open on its thread when the "
                                     "process finished: see open_at_exit"),
            std::string::npos)
      << A.Issues[0].Message;
  EXPECT_NE(A.Issues[0].Message.find("charged to loop"), std::string::npos)
      << A.Issues[0].Message;
  ASSERT_TRUE(A.Functions.count("loop"));
  EXPECT_EQ(A.Functions.count(UnknownParent), 0u);
}

/// A worker keeps what one file leaves behind (its maps' nodes, interval
/// vectors, tallies, per-path records) for the next (issue 41): reading
/// files one after another must give what a fresh analysis of each,
/// merged, gives. The files differ in pids, threads, paths, offsets and
/// records, and the first comes back last, after the others' leftovers.
TEST(WorkerAnalyzer, FilesInTurnAgreeWithFreshAnalyses) {
  std::string Other = ::testing::TempDir() + "/worker_other.pfw";
  std::ofstream(Other)
      << "[\n"
      << R"({"id":1,"name":"CM","cat":"dftracer","pid":9,"tid":9,"ph":"M","args":{"name":"rank","value":"2"}})" "\n"
      << R"({"id":2,"name":"FH","cat":"dftracer","pid":9,"tid":9,"ph":"M","args":{"name":"/data/in.dat","value":77}})" "\n"
      << R"({"id":4,"name":"read","cat":"POSIX","pid":9,"tid":10,"ts":5,"dur":4,"ph":"X","args":{"level":2,"p_idx":3,"fhash":77,"fd":4,"count":4096,"offset":8192,"ret":4096}})" "\n"
      << R"({"id":5,"name":"read","cat":"POSIX","pid":9,"tid":10,"ts":10,"dur":4,"ph":"X","args":{"level":2,"p_idx":3,"fhash":77,"fd":4,"count":4096,"offset":0,"ret":4096}})" "\n"
      << R"({"id":6,"name":"fwrite","cat":"STDIO","pid":9,"tid":9,"ts":12,"dur":2,"ph":"X","args":{"level":2,"p_idx":7,"count":10,"ret":10}})" "\n"
      << R"({"id":3,"name":"load","cat":"C_APP","pid":9,"tid":10,"ts":4,"dur":12,"ph":"X","args":{"level":1,"p_idx":0}})" "\n"
      << R"({"id":7,"name":"main","cat":"C_APP","pid":9,"tid":9,"ts":1,"dur":20,"ph":"X","args":{"level":1,"p_idx":0}})" "\n"
      << R"({"id":8,"name":"write","cat":"POSIX","pid":11,"tid":11,"ts":3,"dur":1,"ph":"X","args":{"level":1,"p_idx":0,"fd":1,"count":3,"ret":3}})" "\n";
  std::string Dir = DFT_RECORDS_DIR;
  std::vector<std::string> Files = {Dir + "/rank0.pfw", Other,
                                    Dir + "/rank1.pfw", Dir + "/rank0.pfw"};
  DiagnosisRules Rules;
  std::string Error;
  ASSERT_TRUE(loadDiagnosisRules(DFT_DIAGNOSIS_RULES, Rules, Error))
      << Error;
  for (bool Html : {false, true}) {
    AnalyzeOptions O;
    O.Sites = true;
    O.Timeline = Html;
    Aggregate InTurn = analyzeFiles(Files, {0, 1, 2, 3}, 1, O);
    Aggregate Fresh;
    for (uint32_t I = 0; I < Files.size(); ++I)
      Fresh.merge(analyzeFile(Files[I], I, O));
    std::string Text[2];
    for (Aggregate *A : {&InTurn, &Fresh}) {
      A->FileNames = Files;
      A->finish();
      Report R(*A);
      // The findings too: their call sites are per-process tables.
      std::vector<Finding> Findings = diagnose(R, Rules);
      OutputOptions Out;
      Out.Findings = &Findings;
      Text[A == &Fresh] = reportJson(R, Out).dump(1);
    }
    EXPECT_EQ(Text[0], Text[1]) << (Html ? "with the timeline" : "");
    EXPECT_NE(Text[0].find("/data/in.dat"), std::string::npos);
  }
}

TEST(SuggestFilter, NamesWithGlobCharactersBecomeAnchoredRegexes) {
  EXPECT_EQ(exactPattern("uniform_random_number"), "uniform_random_number");
  EXPECT_EQ(exactPattern("ns::V::operator[]"), "re:^ns::V::operator\\[\\]$");
  EXPECT_EQ(exactPattern("a*b?"), "re:^a\\*b\\?$");
}

} // namespace
