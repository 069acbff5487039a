//===- Nesting.cpp - Spans must nest per thread ---------------------------===//

#include "Nesting.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <tuple>

namespace dftcheck {

namespace {

using ThreadKey = std::tuple<size_t, int64_t, int64_t>; // file, pid, tid
using IdKey = std::tuple<size_t, int64_t, uint64_t>;    // file, pid, id

std::string formatUs(double Us) {
  char Buf[64];
  if (Us == static_cast<double>(static_cast<long long>(Us)))
    std::snprintf(Buf, sizeof(Buf), "%lld", static_cast<long long>(Us));
  else
    std::snprintf(Buf, sizeof(Buf), "%.3f", Us);
  return Buf;
}

std::string describe(const Span &S) {
  return "'" + S.Name + "' (line " + std::to_string(S.Line) + ", " +
         formatUs(S.Ts) + ".." + formatUs(S.end()) + " us)";
}

/// Checks the spans of one thread. Two modes:
///  - tree mode, when every span carries p_idx (this runtime's traces): the
///    tree comes from p_idx; each child must lie inside its parent, one
///    level deeper, and siblings must not overlap. Timestamps are whole
///    microseconds, so a zero-length span can touch a neighbour's boundary;
///    only the declared tree can tell such ties apart.
///  - time mode otherwise (B/E pairs, foreign traces): a sweep over spans
///    sorted by start requires each to be disjoint from or inside the others.
class ThreadChecker {
public:
  ThreadChecker(TraceSet &Set, const std::map<IdKey, size_t> &ById,
                std::vector<double> &ChildTime)
      : Set(Set), ById(ById), ChildTime(ChildTime) {}

  void run(std::vector<size_t> &Spans);

private:
  void runTree(const std::vector<size_t> &Spans);
  void runTime(std::vector<size_t> &Spans);
  void checkSiblings(std::vector<size_t> &Siblings);
  void problem(const Span &S, const std::string &Message) {
    Set.problem(S.FileIndex, S.Line, Message);
  }

  TraceSet &Set;
  const std::map<IdKey, size_t> &ById;
  std::vector<double> &ChildTime;
};

void ThreadChecker::run(std::vector<size_t> &Spans) {
  bool AllHaveParent = true;
  for (size_t I : Spans)
    AllHaveParent &=
        Set.Spans[I].ParentId.has_value() && Set.Spans[I].Id.has_value();
  if (AllHaveParent)
    runTree(Spans);
  else
    runTime(Spans);
}

void ThreadChecker::checkSiblings(std::vector<size_t> &Siblings) {
  const std::vector<Span> &Spans = Set.Spans;
  std::sort(Siblings.begin(), Siblings.end(), [&](size_t A, size_t B) {
    const Span &X = Spans[A], &Y = Spans[B];
    return std::make_tuple(X.Ts, X.end(), *X.Id) <
           std::make_tuple(Y.Ts, Y.end(), *Y.Id);
  });
  for (size_t K = 1; K < Siblings.size(); ++K) {
    const Span &Prev = Spans[Siblings[K - 1]], &S = Spans[Siblings[K]];
    if (S.Ts < Prev.end())
      problem(S, "span " + describe(S) + " overlaps its sibling " +
                     describe(Prev) + " on pid " + std::to_string(S.Pid) +
                     " tid " + std::to_string(S.Tid) +
                     ": spans must nest per thread");
  }
}

void ThreadChecker::runTree(const std::vector<size_t> &ThreadSpans) {
  std::map<uint64_t, std::vector<size_t>> Children; // parent id -> spans
  for (size_t Index : ThreadSpans) {
    const Span &S = Set.Spans[Index];
    uint64_t ParentId = *S.ParentId;
    if (ParentId == 0) {
      if (S.Level && *S.Level != 1)
        problem(S, "span " + describe(S) + " has no parent but level " +
                       std::to_string(*S.Level) + " (expected 1)");
      Children[0].push_back(Index);
      continue;
    }
    auto It = ById.find({S.FileIndex, S.Pid, ParentId});
    if (It == ById.end()) {
      problem(S, "span " + describe(S) + " names parent id " +
                     std::to_string(ParentId) +
                     " but no span has that id: the parent was never closed "
                     "(missing END?) or the trace is truncated");
      continue;
    }
    const Span &Parent = Set.Spans[It->second];
    if (Parent.Tid != S.Tid) {
      problem(S, "span " + describe(S) + " names parent " + describe(Parent) +
                     " of another thread (tid " + std::to_string(Parent.Tid) +
                     ")");
      continue;
    }
    if (S.Ts < Parent.Ts || S.end() > Parent.end())
      problem(S, "span " + describe(S) + " is not inside its parent " +
                     describe(Parent) + ": spans must nest per thread");
    if (S.Level && Parent.Level && *S.Level != *Parent.Level + 1)
      problem(S, "span " + describe(S) + " has level " +
                     std::to_string(*S.Level) + " but its parent " +
                     describe(Parent) + " has level " +
                     std::to_string(*Parent.Level));
    ChildTime[It->second] += S.Dur;
    Children[ParentId].push_back(Index);
  }
  for (auto &Entry : Children)
    checkSiblings(Entry.second);
}

void ThreadChecker::runTime(std::vector<size_t> &Order) {
  const std::vector<Span> &Spans = Set.Spans;
  std::vector<size_t> Stack; // enclosing spans, innermost last
  // Parents first: earlier start, then longer.
  std::sort(Order.begin(), Order.end(), [&](size_t A, size_t B) {
    const Span &X = Spans[A], &Y = Spans[B];
    return std::make_tuple(X.Ts, -X.end(), X.Line) <
           std::make_tuple(Y.Ts, -Y.end(), Y.Line);
  });
  for (size_t Index : Order) {
    const Span &S = Spans[Index];
    while (!Stack.empty()) {
      const Span &Top = Spans[Stack.back()];
      if (Top.end() <= S.Ts &&
          !(S.Dur == 0 && Top.end() == S.Ts && Top.Ts < S.Ts)) {
        Stack.pop_back();
        continue;
      }
      if (S.end() > Top.end()) {
        problem(S, "span " + describe(S) + " overlaps " + describe(Top) +
                       " on pid " + std::to_string(S.Pid) + " tid " +
                       std::to_string(S.Tid) +
                       " without nesting in it: spans must nest per thread");
        Stack.pop_back();
        continue;
      }
      break;
    }
    if (!Stack.empty())
      ChildTime[Stack.back()] += S.Dur;
    Stack.push_back(Index);
  }
}

} // namespace

std::vector<double> checkNesting(TraceSet &Set) {
  std::map<ThreadKey, std::vector<size_t>> Threads;
  std::map<IdKey, size_t> ById;
  for (size_t I = 0; I < Set.Spans.size(); ++I) {
    const Span &S = Set.Spans[I];
    Threads[{S.FileIndex, S.Pid, S.Tid}].push_back(I);
    if (S.Id)
      ById.emplace(IdKey{S.FileIndex, S.Pid, *S.Id}, I);
  }
  std::vector<double> ChildTime(Set.Spans.size(), 0.0);
  for (auto &Entry : Threads) {
    ThreadChecker Checker(Set, ById, ChildTime);
    Checker.run(Entry.second);
  }
  std::vector<double> Self(Set.Spans.size());
  for (size_t I = 0; I < Set.Spans.size(); ++I)
    Self[I] = std::max(0.0, Set.Spans[I].Dur - ChildTime[I]);
  return Self;
}

} // namespace dftcheck
