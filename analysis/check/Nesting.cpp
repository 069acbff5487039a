//===- Nesting.cpp - Spans must nest per thread, checked as they come -----===//

#include "Nesting.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace dftcheck {

namespace {

std::string formatUs(double Us) {
  char Buf[64];
  if (Us == static_cast<double>(static_cast<long long>(Us)))
    std::snprintf(Buf, sizeof(Buf), "%lld", static_cast<long long>(Us));
  else
    std::snprintf(Buf, sizeof(Buf), "%.3f", Us);
  return Buf;
}

std::string onThread(int64_t Pid, int64_t Tid) {
  return " on pid " + std::to_string(Pid) + " tid " + std::to_string(Tid);
}

} // namespace

NestingChecker::Entry NestingChecker::entryOf(const Span &S) {
  Entry E;
  E.Ts = S.Ts;
  E.Dur = S.Dur;
  E.Id = S.Id.value_or(0);
  E.Tid = S.Tid;
  E.HasLevel = S.Level.has_value();
  E.Level = S.Level.value_or(0);
  E.Line = S.Line;
  auto [It, Inserted] =
      NameIds.emplace(S.Name, static_cast<uint32_t>(Names.size()));
  if (Inserted)
    Names.push_back(S.Name);
  E.Name = It->second;
  return E;
}

std::string NestingChecker::describe(const Entry &E) const {
  return "'" + Names[E.Name] + "' (line " + std::to_string(E.Line) + ", " +
         formatUs(E.Ts) + ".." + formatUs(E.end()) + " us)";
}

void NestingChecker::problem(size_t Line, std::string Message) {
  Problems.push_back({FileIndex, Line, std::move(Message)});
}

bool NestingChecker::claimId(int64_t Pid, uint64_t Id) {
  std::map<uint64_t, uint64_t> &Runs = UsedIds[Pid];
  auto Next = Runs.upper_bound(Id); // the first run starting after Id
  if (Next != Runs.begin()) {
    auto Prev = std::prev(Next);
    if (Id <= Prev->second)
      return false;
    if (Prev->second + 1 == Id) { // extends Prev, perhaps up to Next
      Prev->second = Id;
      if (Next != Runs.end() && Next->first == Id + 1) {
        Prev->second = Next->second;
        Runs.erase(Next);
      }
      return true;
    }
  }
  if (Next != Runs.end() && Next->first == Id + 1) {
    uint64_t Last = Next->second;
    Runs.erase(Next);
    Runs.emplace(Id, Last);
    return true;
  }
  Runs.emplace(Id, Id);
  return true;
}

bool NestingChecker::idUsed(int64_t Pid, uint64_t Id) const {
  auto P = UsedIds.find(Pid);
  if (P == UsedIds.end())
    return false;
  auto Next = P->second.upper_bound(Id);
  return Next != P->second.begin() && Id <= std::prev(Next)->second;
}

void NestingChecker::SiblingOrder::add(const Entry &E) {
  auto Key = [](const Entry &X) { return std::make_tuple(X.Ts, X.end(), X.Id); };
  if (Any && (Key(E) < Key(Last) || E.Ts < MaxEnd))
    Suspect = true;
  if (!Any || Key(Last) < Key(E))
    Last = E;
  MaxEnd = Any ? std::max(MaxEnd, E.end()) : E.end();
  Any = true;
}

/// The children that named S by p_idx, from their summary: their time on
/// S's thread; S is rechecked when the summary cannot vouch for all of them.
double NestingChecker::claimByParent(const Span &S, const Entry &Me) {
  dftrace::SpanKey Key{S.Pid, Me.Id};
  Children *Kids = Nest.children(Key);
  if (!Kids)
    return 0;
  const Children &K = *Kids;
  double Time = 0;
  for (const auto &[Tid, T] : K.TimeByTid)
    if (Tid == S.Tid)
      Time = T;
  bool Fails = K.MixedTids || K.Tid != S.Tid || K.MinTs < Me.Ts ||
               K.MaxEnd > Me.end() ||
               (K.HasLevel && Me.HasLevel &&
                (K.MixedLevels || K.Level != Me.Level + 1)) ||
               K.Order.Suspect;
  if (Fails)
    Failed.emplace(PidId{S.Pid, Me.Id}, Me);
  Nest.close(Key, Kids);
  return Time;
}

/// The full check of one parent's children (the recheck): each must lie
/// inside it, one level deeper, on its thread; siblings must not overlap.
void NestingChecker::checkChildren(const Entry &Parent, int64_t Pid,
                                   const std::vector<Entry> &Kids) {
  std::vector<Entry> Siblings;
  for (const Entry &C : Kids) {
    if (C.Tid != Parent.Tid) {
      problem(C.Line, "span " + describe(C) + " names parent " +
                          describe(Parent) + " of another thread (tid " +
                          std::to_string(Parent.Tid) + ")");
      continue;
    }
    if (C.Ts < Parent.Ts || C.end() > Parent.end())
      problem(C.Line, "span " + describe(C) + " is not inside its parent " +
                          describe(Parent) + ": spans must nest per thread");
    if (C.HasLevel && Parent.HasLevel && C.Level != Parent.Level + 1)
      problem(C.Line, "span " + describe(C) + " has level " +
                          std::to_string(C.Level) + " but its parent " +
                          describe(Parent) + " has level " +
                          std::to_string(Parent.Level));
    Siblings.push_back(C);
  }
  checkRoots(Pid, Parent.Tid, Siblings);
}

/// Siblings (a parent's children, or a thread's outermost spans) must not
/// overlap: sorted by start, each starts at or after the previous end.
void NestingChecker::checkRoots(int64_t Pid, int64_t Tid,
                                std::vector<Entry> &Siblings) {
  std::sort(Siblings.begin(), Siblings.end(),
            [](const Entry &X, const Entry &Y) {
              return std::make_tuple(X.Ts, X.end(), X.Id) <
                     std::make_tuple(Y.Ts, Y.end(), Y.Id);
            });
  for (size_t K = 1; K < Siblings.size(); ++K) {
    const Entry &Prev = Siblings[K - 1], &C = Siblings[K];
    if (C.Ts < Prev.end())
      problem(C.Line, "span " + describe(C) + " overlaps its sibling " +
                          describe(Prev) + onThread(Pid, Tid) +
                          ": spans must nest per thread");
  }
}

/// The spans without p_idx on S's thread that lie inside S and no span
/// has claimed: S's direct children. Returns their time. Each span on top
/// that overlaps S without nesting is a problem, and is dropped.
double NestingChecker::claimByTime(const Span &S, const Entry &Me) {
  if (!Nest.stacked())
    return 0;
  std::vector<Entry> &Stack = Nest.thread(S.Pid, S.Tid);
  double Time = 0;
  auto Child = [&](const Entry &C) { Time += C.Dur; };
  while (const Entry *Top = Nest.claim(Stack, Me.Ts, Me.end(), Child)) {
    problem(Me.Line, "span " + describe(Me) + " overlaps " + describe(*Top) +
                         onThread(S.Pid, S.Tid) +
                         " without nesting in it: spans must nest per thread");
    Nest.drop(Stack);
  }
  return Time;
}

bool NestingChecker::add(const Span &S, double &SelfUs) {
  // Ids name parents only through p_idx. Without it (upstream without
  // DFTRACER_INC_METADATA) an id is upstream's event counter when the span
  // ended, which a parent shares with its last child: spans are nested by
  // time instead, and ids need not be unique.
  if (S.ParentId && S.Id && !claimId(S.Pid, *S.Id)) {
    Duplicates.push_back({{S.Pid, *S.Id}, S.Line});
    Repeated.emplace(PidId{S.Pid, *S.Id}, 0);
    DuplicateLines.insert(S.Line);
    return false;
  }
  Entry Me = entryOf(S);
  double Kids = 0;
  if (S.Id) // a span without p_idx can still be named by one with it
    Kids += claimByParent(S, Me);
  Kids += claimByTime(S, Me);
  SelfUs = std::max(0.0, S.Dur - Kids);
  if (!S.ParentId || !S.Id) {
    Nest.push(Nest.thread(S.Pid, S.Tid), Me);
  } else if (*S.ParentId == 0) {
    if (Me.HasLevel && Me.Level != 1)
      problem(Me.Line, "span " + describe(Me) + " has no parent but level " +
                           std::to_string(Me.Level) + " (expected 1)");
    Roots[{S.Pid, S.Tid}].add(Me);
  } else {
    Children &K = *Nest.parent({S.Pid, *S.ParentId}).first;
    if (K.N++ == 0) {
      K.MinTs = Me.Ts;
      K.MaxEnd = Me.end();
      K.MinId = Me.Id;
      K.MaxTs = Me.Ts;
      K.Tid = Me.Tid;
    } else {
      K.MinTs = std::min(K.MinTs, Me.Ts);
      K.MaxEnd = std::max(K.MaxEnd, Me.end());
      K.MinId = std::min(K.MinId, Me.Id);
      K.MaxTs = std::max(K.MaxTs, Me.Ts);
      K.MixedTids |= Me.Tid != K.Tid;
    }
    if (Me.HasLevel) {
      K.MixedLevels |= K.HasLevel && Me.Level != K.Level;
      K.Level = Me.Level;
      K.HasLevel = true;
    }
    bool Found = false;
    for (auto &[Tid, T] : K.TimeByTid)
      if (Tid == Me.Tid) {
        T += Me.Dur;
        Found = true;
      }
    if (!Found)
      K.TimeByTid.emplace_back(Me.Tid, Me.Dur);
    K.Order.add(Me);
  }
  return true;
}

bool NestingChecker::finish(const std::map<int64_t, double> &Stopped,
                            const dftrace::OpenAtExitSpans &OpenAtExit) {
  std::map<int64_t, uint64_t> Open; // stopped pid -> children left waiting
  // open_at_exit parent -> its record and the children left waiting
  std::map<PidId, std::pair<const dftrace::OpenAtExitRecord *, uint64_t>>
      OpenAtEnd;
  Nest.orphans([&](dftrace::SpanKey Parent, const Children &K) {
    PidId Key{Parent.Pid, Parent.Id};
    // A parent the runtime said was still open on its thread at exit, never
    // to be written, provided no span of the process used its id.
    auto Said = OpenAtExit.find(Key);
    if (Said != OpenAtExit.end() && !idUsed(Key.first, Key.second)) {
      auto &Entry = OpenAtEnd[Key];
      Entry.first = &Said->second;
      Entry.second += K.N;
      return;
    }
    // The parent was still open when tracing stopped only if it could have
    // been: an id no span of the process used, taken before its children's
    // (the runtime numbers a span when it starts), and children that all
    // began by the stop (after it, nothing more is written; a span that
    // began by then ended by then too, or was not written). Anything else
    // is a missing END as in any trace.
    auto Stop = Stopped.find(Key.first);
    if (Stop != Stopped.end() && !idUsed(Key.first, Key.second) &&
        Key.second < K.MinId && (Stop->second < 0 || K.MaxTs <= Stop->second))
      Open[Key.first] += K.N;
    else
      Orphaned.insert(Key);
  });
  for (const auto &[Pid, N] : Open)
    Caveats.push_back(
        {FileIndex, 0,
         std::to_string(N) + (N == 1 ? " span" : " spans") + " of pid " +
             std::to_string(Pid) +
             " name a parent that was still open when tracing stopped "
             "(trace_stopped): it was never written"});
  for (const auto &[Key, Said] : OpenAtEnd) {
    const auto &[R, N] = Said;
    Caveats.push_back(
        {FileIndex, 0,
         std::to_string(N) + (N == 1 ? " span" : " spans") + " of pid " +
             std::to_string(Key.first) + " name parent id " +
             std::to_string(Key.second) + " (\"" + R->Span + "\", tid " +
             std::to_string(R->Tid) +
             "), still open on its thread when the process finished "
             "(open_at_exit): it was never written"});
  }
  for (const auto &[Key, Order] : Roots)
    if (Order.Suspect)
      SuspectRoots.insert(Key);
  Nest.clearStacks();
  Roots.clear();
  return !Failed.empty() || !Orphaned.empty() || !SuspectRoots.empty() ||
         !Duplicates.empty();
}

void NestingChecker::recheck(const Span &S) {
  if (!S.ParentId || !S.Id || DuplicateLines.count(S.Line))
    return;
  auto R = Repeated.find({S.Pid, *S.Id});
  if (R != Repeated.end() && R->second == 0)
    R->second = S.Line;
  if (*S.ParentId == 0) {
    if (SuspectRoots.count({S.Pid, S.Tid}))
      CollectedRoots[{S.Pid, S.Tid}].push_back(entryOf(S));
    return;
  }
  PidId P{S.Pid, *S.ParentId};
  if (Failed.count(P) || Orphaned.count(P))
    Collected[P].push_back(entryOf(S));
}

void NestingChecker::finishRecheck() {
  for (const auto &[P, Parent] : Failed)
    checkChildren(Parent, P.first, Collected[P]);
  for (const PidId &P : Orphaned) {
    if (Failed.count(P))
      continue;
    bool Earlier = idUsed(P.first, P.second);
    for (const Entry &C : Collected[P])
      problem(C.Line,
              "span " + describe(C) + " names parent id " +
                  std::to_string(P.second) +
                  (Earlier ? ", a span written before it: a child is written "
                             "before its parent (spans are written when they "
                             "end)"
                           : " but no span has that id: the parent was never "
                             "closed (missing END?) or the trace is "
                             "truncated"));
  }
  for (auto &[K, R] : CollectedRoots)
    checkRoots(K.first, K.second, R);
  for (const auto &[D, Line] : Duplicates)
    problem(Line, "id " + std::to_string(D.second) + " of pid " +
                      std::to_string(D.first) + " already used on line " +
                      std::to_string(Repeated[D]));
  Failed.clear();
  Orphaned.clear();
  SuspectRoots.clear();
  Repeated.clear();
  Duplicates.clear();
  DuplicateLines.clear();
  Collected.clear();
  CollectedRoots.clear();
  UsedIds.clear();
}
std::vector<Problem> NestingChecker::takeProblems() {
  std::stable_sort(Problems.begin(), Problems.end(),
                   [](const Problem &A, const Problem &B) {
                     return A.Line < B.Line;
                   });
  return std::move(Problems);
}

size_t NestingChecker::held() const {
  size_t N = Roots.size() + Nest.open() + Nest.stacked();
  for (const auto &[Pid, Runs] : UsedIds)
    N += Runs.size();
  return N;
}

} // namespace dftcheck
