//===- SpanNesting.h - How a span finds its children ------------*- C++ -*-===//
//
// Spans are written when they end, so a span's children come before it.
// dftracer-check (check/Nesting.h: the nesting rules, self time) and
// dftracer-analyze (analyze/FileAnalyzer.cpp: the I/O below each function)
// build the same tree of spans with this class; what a child hands its
// parent (Kids: the check's summary of the children, the analyzer's
// Pending I/O) and what a thread keeps of a span no span has claimed yet
// (Item) are theirs.
//
//  - By p_idx. A child hands itself to its parent's entry, keyed (pid,
//    p_idx): parent(). The parent, when it comes, finds that entry under
//    (pid, its id), children(), and is done with it, close(). Only spans
//    still open have an entry (SpanTable.h, from a reused pool); what is
//    left at the end of the file names a parent that never came: orphans().
//  - By time, for spans without p_idx. Per thread (pid, tid), a stack of
//    the subtrees no span has claimed, in the order they ended: push(). A
//    span claims those on top that lie inside it, ties inside (times are
//    whole microseconds): claim(). What is left on top must have ended by
//    the time it starts; if not, the thread does not nest there, and claim()
//    returns that top. The check reports each span so overlapped and drops
//    it (drop()): a validator names every problem; the analyzer reports the
//    first and keeps the stack (the span is placed as a root). A thread's
//    outermost spans stay until the end of the file (a span still to come
//    may contain them): unclaimed().
//
// \code
//   SpanNesting<Pending, Subtree> Nest;
//   Pending *Mine = Nest.children({Pid, Id}); // null: no child named it
//   ...
//   if (Mine)
//     Nest.close({Pid, Id}, Mine);
//   auto [Parent, First] = Nest.parent({Pid, ParentIdx});
// \endcode
//
// dftracer-analyze counts instructions per span: everything here is inline,
// traces with p_idx ask the stacks nothing (stacked() is 0), and siblings,
// which come in runs, find their parent's entry without a lookup.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_SPANNESTING_H
#define DFTRACER_READER_SPANNESTING_H

#include "SpanTable.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dftrace {

/// Kids: reset() as SpanTable needs. Item: its start Ts and end() (the same
/// type, the type of claim()'s times).
template <class Kids, class Item> class SpanNesting {
public:
  // --- By p_idx ---

  /// What the children that named span K (pid, id) have handed up, or null.
  Kids *children(SpanKey K) const {
    return Open.size() ? Open.find(K) : nullptr;
  }
  /// The entry of parent K (pid, p_idx) that a child hands itself to;
  /// second: true when the child is the first to name it.
  std::pair<Kids *, bool> parent(SpanKey K) {
    // Siblings come in runs: their parent's entry is asked for once.
    if (LastParent && LastParentKey == K)
      return {LastParent, false};
    std::pair<Kids *, bool> Got = Open.get(K);
    LastParent = Got.first;
    LastParentKey = K;
    return Got;
  }
  /// Span K has been read: Own, its entry (children(K)), goes back to the
  /// pool.
  void close(SpanKey K, Kids *Own) {
    Open.erase(K); // by key: inserting a parent may have moved the slots
    if (LastParent == Own)
      LastParent = nullptr;
  }
  /// A pooled entry outside the table, equal to Kids{}; give() returns it.
  Kids *take() { return Open.take(); }
  void give(Kids *V) { Open.give(V); }
  /// The spans whose children were read but that have not come yet.
  size_t open() const { return Open.size(); }
  /// Calls Fn(K, entry) for every parent K that never came, in the order of
  /// K; then gives every entry back.
  template <class F> void orphans(F &&Fn) {
    std::vector<SpanKey> Keys;
    Open.forEach([&](SpanKey K, const Kids &) { Keys.push_back(K); });
    std::sort(Keys.begin(), Keys.end());
    for (const SpanKey &K : Keys)
      Fn(K, *Open.find(K));
    Open.clear();
    LastParent = nullptr;
  }

  // --- By time ---

  /// Subtrees on every thread's stack (0: the stacks have nothing to give).
  size_t stacked() const { return Stacked; }
  /// The stack of thread (Pid, Tid); the last one asked is asked first.
  std::vector<Item> &thread(int64_t Pid, int64_t Tid) {
    SpanKey K{Pid, static_cast<uint64_t>(Tid)};
    if (!LastStack || !(LastThread == K)) {
      LastStack = &Stacks[K]; // unordered_map: the reference stays valid
      LastThread = K;
    }
    return *LastStack;
  }
  /// A subtree that no span claims yet, on top of its thread's Stack.
  void push(std::vector<Item> &Stack, Item &&I) {
    Stack.push_back(std::move(I));
    ++Stacked;
  }
  void push(std::vector<Item> &Stack, const Item &I) {
    Stack.push_back(I);
    ++Stacked;
  }
  /// Take(item) for each subtree on top of Stack that lies within [Ts, End]
  /// (the span's direct children by time), popped. Then null, or the top
  /// when it has not ended by Ts: it overlaps the span without nesting in
  /// it, and stays on the stack (drop() removes it).
  template <class Time, class F>
  const Item *claim(std::vector<Item> &Stack, Time Ts, Time End, F &&Take) {
    while (!Stack.empty() && Stack.back().Ts >= Ts &&
           Stack.back().end() <= End) {
      Take(Stack.back());
      Stack.pop_back();
      --Stacked;
    }
    if (Stack.empty() || Stack.back().end() <= Ts)
      return nullptr;
    return &Stack.back();
  }
  /// Removes the top of Stack, which claim() returned.
  void drop(std::vector<Item> &Stack) {
    Stack.pop_back();
    --Stacked;
  }
  /// Calls Fn(thread {pid, tid}, item) for every subtree no span claimed,
  /// thread by thread, each in its stack's order; then empties the stacks.
  template <class F> void unclaimed(F &&Fn) {
    for (auto &[K, Stack] : Stacks)
      for (Item &I : Stack)
        Fn(K, I);
    clearStacks();
  }
  void clearStacks() {
    Stacks.clear();
    Stacked = 0;
    LastStack = nullptr;
  }

private:
  SpanTable<Kids> Open; // by (pid, id): what the children handed up
  // The entry a child last handed itself to (close() forgets it), so that
  // its next sibling finds it without a lookup.
  Kids *LastParent = nullptr;
  SpanKey LastParentKey{0, 0};
  // Per thread ({pid, tid}), the subtrees not yet claimed, in the order
  // they ended; Stacked counts them over all threads.
  std::unordered_map<SpanKey, std::vector<Item>, SpanKeyHash> Stacks;
  size_t Stacked = 0;
  SpanKey LastThread{0, 0};
  std::vector<Item> *LastStack = nullptr;
};

} // namespace dftrace

#endif
