//===- NestingTest.cpp - Tests of the checker's nesting rules -------------===//

#include "Nesting.h"

#include <gtest/gtest.h>

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

TraceSet set(std::vector<Span> Spans) {
  TraceSet T;
  T.Files.push_back("t.pfw");
  T.Spans = std::move(Spans);
  return T;
}

TEST(Nesting, SelfTimeSubtractsDirectChildrenOnly) {
  TraceSet T = set({span(1, "main", 0, 100, 1, 0), span(2, "a", 10, 50, 2, 1),
                    span(3, "b", 20, 10, 3, 2)});
  std::vector<double> Self = checkNesting(T);
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(Self[0], 50);
  EXPECT_EQ(Self[1], 40);
  EXPECT_EQ(Self[2], 10);
}

TEST(Nesting, ZeroLengthTiesAreResolvedByTheDeclaredTree) {
  // All in one microsecond: only p_idx tells who contains whom.
  TraceSet T = set({span(1, "main", 5, 1, 1, 0), span(2, "a", 5, 0, 2, 1),
                    span(3, "b", 5, 0, 2, 1), span(4, "c", 5, 0, 3, 3),
                    span(5, "d", 5, 1, 2, 1)});
  checkNesting(T);
  EXPECT_TRUE(T.Problems.empty()) << T.Problems[0].Message;
}

TEST(Nesting, SiblingOverlapIsReported) {
  TraceSet T = set({span(1, "main", 0, 100, 1, 0), span(2, "a", 10, 20, 2, 1),
                    span(3, "b", 20, 20, 2, 1)});
  checkNesting(T);
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("overlaps its sibling 'a'"),
            std::string::npos);
}

TEST(Nesting, MissingParentMeansMissingEnd) {
  TraceSet T = set({span(2, "child", 10, 20, 2, 1)});
  checkNesting(T);
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("never closed"), std::string::npos);
}

TEST(Nesting, ThreadsAreIndependent) {
  // Overlapping in time on different threads is fine.
  TraceSet T =
      set({span(1, "a", 0, 100, 1, 0, 1), span(2, "b", 50, 100, 1, 0, 2)});
  checkNesting(T);
  EXPECT_TRUE(T.Problems.empty());
}

TEST(Nesting, ParentOnAnotherThreadIsReported) {
  TraceSet T =
      set({span(1, "a", 0, 100, 1, 0, 1), span(2, "b", 10, 10, 2, 1, 2)});
  checkNesting(T);
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("another thread"), std::string::npos);
}

TEST(Nesting, TimeModeWithoutParentIds) {
  TraceSet T =
      set({span(1, "outer", 0, 100, 1, 0), span(2, "inner", 10, 10, 2, 1)});
  for (Span &S : T.Spans) {
    S.ParentId.reset();
    S.Level.reset();
  }
  std::vector<double> Self = checkNesting(T);
  EXPECT_TRUE(T.Problems.empty());
  EXPECT_EQ(Self[0], 90);
  T.Spans.push_back(span(3, "crossing", 95, 10, 1, 0));
  T.Spans.back().ParentId.reset();
  checkNesting(T);
  ASSERT_EQ(T.Problems.size(), 1u);
  EXPECT_NE(T.Problems[0].Message.find("overlaps 'outer'"), std::string::npos);
}

} // namespace
