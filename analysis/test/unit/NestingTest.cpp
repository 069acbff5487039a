//===- NestingTest.cpp - Tests of the checker's nesting rules -------------===//

#include "check/Nesting.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <vector>

namespace {

using namespace dftcheck;

Span span(uint64_t Id, const char *Name, double Ts, double Dur, int64_t Level,
          uint64_t Parent, int64_t Tid = 1) {
  Span S;
  S.Id = Id;
  S.Name = Name;
  S.Cat = "C_APP";
  S.Pid = 1;
  S.Tid = Tid;
  S.Ts = Ts;
  S.Dur = Dur;
  S.Level = Level;
  S.ParentId = Parent;
  S.Line = static_cast<size_t>(Id) + 1;
  return S;
}

/// What checking a file of these spans (in file order: each span after
/// its children) finds: its problems, caveats and each span's self time.
struct Checked {
  std::vector<Problem> Problems, Caveats;
  std::vector<double> Self; // like the spans; -1 for a span not counted
  size_t MaxHeld = 0;       // the most entries the checker held
};

/// Stopped: pid -> the trace_stopped record's ts (-1: not recorded).
Checked check(const std::vector<Span> &Spans,
              const std::map<int64_t, double> &Stopped = {}) {
  NestingChecker C(0);
  Checked Out;
  for (const Span &S : Spans) {
    double Self = -1;
    if (!C.add(S, Self))
      Self = -1;
    Out.Self.push_back(Self);
    Out.MaxHeld = std::max(Out.MaxHeld, C.held());
  }
  if (C.finish(Stopped)) { // the second reading, as the reader does it
    for (const Span &S : Spans)
      C.recheck(S);
    C.finishRecheck();
  }
  Out.Problems = C.takeProblems();
  Out.Caveats = C.caveats();
  return Out;
}

Span noParent(Span S) {
  S.ParentId.reset();
  S.Level.reset();
  return S;
}

TEST(Nesting, SelfTimeSubtractsDirectChildrenOnly) {
  Checked T = check({span(3, "b", 20, 10, 3, 2), span(2, "a", 10, 50, 2, 1),
                     span(1, "main", 0, 100, 1, 0)});
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(T.Self[2], 50);
  EXPECT_EQ(T.Self[1], 40);
  EXPECT_EQ(T.Self[0], 10);
}

TEST(Nesting, ZeroLengthTiesAreResolvedByTheDeclaredTree) {
  // All in one microsecond: only p_idx tells who contains whom.
  Checked T = check({span(2, "a", 5, 0, 2, 1), span(4, "c", 5, 0, 3, 3),
                     span(3, "b", 5, 0, 2, 1), span(5, "d", 5, 1, 2, 1),
                     span(1, "main", 5, 1, 1, 0)});
  EXPECT_TRUE(T.Problems.empty()) << T.Problems[0].Message;
}

TEST(Nesting, SiblingOverlapIsReported) {
  Checked T = check({span(2, "a", 10, 20, 2, 1), span(3, "b", 20, 20, 2, 1),
                     span(1, "main", 0, 100, 1, 0)});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("'b'"), std::string::npos);
  EXPECT_NE(T.Problems[0].Message.find("overlaps its sibling 'a'"),
            std::string::npos);
}

TEST(Nesting, OutermostSpansThatOverlapAreReported) {
  Checked T = check({span(1, "a", 0, 20, 1, 0), span(2, "b", 10, 20, 1, 0),
                     span(3, "c", 40, 5, 1, 0)});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("'b' (line 3"), std::string::npos);
}

TEST(Nesting, MissingParentMeansMissingEnd) {
  Checked T = check({span(2, "child", 10, 20, 2, 1)});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("never closed"), std::string::npos);
}

/// Size-limited traces (trace_stopped): the parents open when tracing
/// stopped were never written; that is what the trace cannot say, not an
/// error of the trace.
TEST(Nesting, MissingParentAfterTraceStoppedIsACaveat) {
  Checked T = check({span(2, "a", 10, 20, 2, 1), span(3, "b", 40, 5, 2, 1)},
                    /*Stopped=*/{{1, 45}});
  EXPECT_TRUE(T.Problems.empty()) << T.Problems[0].Message;
  ASSERT_EQ(T.Caveats.size(), 1u);
  EXPECT_NE(T.Caveats[0].Message.find("2 spans of pid 1"), std::string::npos);
  EXPECT_NE(T.Caveats[0].Message.find("tracing stopped"), std::string::npos);
  // A record without ts: the ids alone say the parent came first.
  EXPECT_TRUE(check({span(2, "a", 10, 20, 2, 1)}, {{1, -1}}).Problems.empty());
  // Another process's missing parent is still an error.
  EXPECT_EQ(check({span(2, "a", 10, 20, 2, 1)}, {{9, 45}}).Problems.size(),
            1u);
}

/// The stop explains only a parent that could have been open at it: one
/// numbered before its children (ids are taken when a span starts) whose
/// children all began by the stop. Otherwise it is a missing END again.
TEST(Nesting, MissingParentTheStopDoesNotExplainIsAnError) {
  Checked After = check({span(2, "a", 10, 20, 2, 7)}, {{1, 45}});
  ASSERT_EQ(After.Problems.size(), 1u);
  EXPECT_NE(After.Problems[0].Message.find("parent id 7"), std::string::npos);
  EXPECT_TRUE(After.Caveats.empty());
  Checked Late = check({span(2, "a", 10, 20, 2, 1), span(3, "b", 50, 5, 2, 1)},
                       {{1, 45}});
  EXPECT_EQ(Late.Problems.size(), 2u);
  EXPECT_TRUE(Late.Caveats.empty());
}

TEST(Nesting, AChildAfterItsParentIsNamed) {
  Checked T = check({span(1, "main", 0, 100, 1, 0), span(2, "a", 10, 5, 2, 1)});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("written before it"),
            std::string::npos);
}

TEST(Nesting, ThreadsAreIndependent) {
  // Overlapping in time on different threads is fine.
  Checked T =
      check({span(1, "a", 0, 100, 1, 0, 1), span(2, "b", 50, 100, 1, 0, 2)});
  EXPECT_TRUE(T.Problems.empty());
}

TEST(Nesting, ParentOnAnotherThreadIsReported) {
  Checked T =
      check({span(2, "b", 10, 10, 2, 1, 2), span(1, "a", 0, 100, 1, 0, 1)});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("another thread"), std::string::npos);
}

TEST(Nesting, EveryFailingChildIsNamed) {
  // Two children outside, one inside: the summary fails, the recheck
  // names the two.
  Checked T = check({span(2, "early", 0, 5, 2, 1), span(3, "ok", 20, 5, 2, 1),
                     span(4, "late", 95, 10, 2, 1),
                     span(1, "main", 10, 90, 1, 0)});
  ASSERT_EQ(T.Problems.size(), 2u);
  EXPECT_NE(T.Problems[0].Message.find("'early'"), std::string::npos);
  EXPECT_NE(T.Problems[1].Message.find("'late'"), std::string::npos);
}

TEST(Nesting, RepeatedIdNamesTheFirstLine) {
  Span Again = span(1, "b", 10, 5, 1, 0);
  Again.Line = 3;
  Checked T = check({span(1, "a", 0, 5, 1, 0), Again});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("already used on line 2"),
            std::string::npos);
  EXPECT_EQ(T.Self[1], -1);
}

TEST(Nesting, TimeModeWithoutParentIds) {
  Checked T = check({noParent(span(2, "inner", 10, 10, 2, 1)),
                     noParent(span(1, "outer", 0, 100, 1, 0))});
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(T.Self[1], 90);
  T = check({noParent(span(2, "inner", 10, 10, 2, 1)),
             noParent(span(1, "outer", 0, 100, 1, 0)),
             noParent(span(3, "crossing", 95, 10, 1, 0))});
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("overlaps 'outer'"), std::string::npos);
}

/// Issue 21: the checker holds what open spans need, not the file. A main
/// around 100,000 calls, each holding two: held entries stay a handful,
/// where keeping main's direct children alone would hold 100,000.
TEST(Nesting, MemoryFollowsTheOpenSpans) {
  std::vector<Span> Spans;
  uint64_t Id = 2;
  const int Calls = 100000;
  for (int I = 0; I < Calls; ++I, Id += 3) { // ids in the order of start
    double Ts = 10.0 * I;
    Spans.push_back(span(Id + 1, "pwrite64", Ts + 1, 2, 3, Id));
    Spans.push_back(span(Id + 2, "lseek", Ts + 4, 1, 3, Id));
    Spans.push_back(span(Id, "write_block", Ts, 6, 2, 1));
  }
  Spans.push_back(span(1, "main", 0, 10.0 * Calls, 1, 0));
  Checked T = check(Spans);
  EXPECT_TRUE(T.Problems.empty()) << T.Problems[0].Message;
  EXPECT_LT(T.MaxHeld, 10u);
  EXPECT_EQ(T.Self.back(), 10.0 * Calls - 6.0 * Calls);
}

} // namespace
