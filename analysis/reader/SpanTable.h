//===- SpanTable.h - Entries of open spans, by (pid, span id) -----*- C++ -*-===//
//
// SpanNesting.h keeps, for each span still open, what its children handed
// up (dftracer-analyze: a Pending, ~750 bytes; dftracer-check: a summary of
// the children). A trace holds millions of spans but only a few are open
// at once (the depth of the stacks), so the entries come from a pool that
// is reused: reading a span allocates nothing once the pool has reached the
// deepest nesting of the file. The table is open addressing (linear
// probing, at most half full, backward-shift deletion), keyed by (pid, id)
// as p_idx names a parent.
//
// \code
//   SpanTable<Pending> Open;
//   auto [Parent, New] = Open.get({Pid, ParentIdx}); // made if absent
//   if (Pending *Mine = Open.find({Pid, Id})) ...
//   Open.erase({Pid, Id});      // back to the pool, reset()
//   Pending *Tmp = Open.take(); // a pooled entry outside the table
//   Open.give(Tmp);
// \endcode
//
// T needs reset(), which makes it equal to a T{} while keeping its memory.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_SPANTABLE_H
#define DFTRACER_READER_SPANTABLE_H

#include "OpenAddressing.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace dftrace {

struct SpanKey {
  int64_t Pid;
  uint64_t Id;
  bool operator==(const SpanKey &O) const {
    return Pid == O.Pid && Id == O.Id;
  }
  bool operator<(const SpanKey &O) const {
    return Pid != O.Pid ? Pid < O.Pid : Id < O.Id;
  }
};
struct SpanKeyHash {
  size_t operator()(const SpanKey &K) const {
    uint64_t H = K.Id * 0x9e3779b97f4a7c15ull ^
                 static_cast<uint64_t>(K.Pid) * 0xc2b2ae3d27d4eb4full;
    return static_cast<size_t>(H ^ (H >> 29));
  }
};

template <class T> class SpanTable {
public:
  /// K's entry, or null.
  T *find(SpanKey K) const {
    size_t H = SpanKeyHash()(K);
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      const Slot &S = Slots[I];
      if (!S.V)
        return nullptr;
      if (S.K == K)
        return S.V;
    }
  }
  /// K's entry, taken from the pool when absent (second: true).
  std::pair<T *, bool> get(SpanKey K) {
    size_t H = SpanKeyHash()(K);
    size_t I = H & Mask;
    for (;; I = (I + 1) & Mask) {
      Slot &S = Slots[I];
      if (!S.V)
        break;
      if (S.K == K)
        return {S.V, false};
    }
    T *V = take();
    Slots[I] = {K, H, V};
    if (++Count * 2 > Slots.size())
      growSlots(Slots, Mask);
    return {V, true};
  }
  /// Removes K's entry, if any, and gives it back to the pool.
  void erase(SpanKey K) {
    size_t I = SpanKeyHash()(K) & Mask;
    for (;; I = (I + 1) & Mask) {
      if (!Slots[I].V)
        return;
      if (Slots[I].K == K)
        break;
    }
    give(Slots[I].V);
    // Backward shift: move up each later entry of the run whose home slot
    // is not between the hole and it, so lookups never meet a gap.
    for (size_t J = (I + 1) & Mask; Slots[J].V; J = (J + 1) & Mask) {
      size_t Home = Slots[J].Hash & Mask;
      bool Stays = I <= J ? (Home > I && Home <= J) : (Home > I || Home <= J);
      if (!Stays) {
        Slots[I] = Slots[J];
        I = J;
      }
    }
    Slots[I].V = nullptr;
    --Count;
  }
  /// An entry of the pool outside the table, equal to T{}.
  T *take() {
    if (Free.empty()) {
      Pool.push_back(std::make_unique<T>());
      return Pool.back().get();
    }
    T *V = Free.back();
    Free.pop_back();
    return V;
  }
  /// Gives back an entry of take() or erase().
  void give(T *V) {
    V->reset();
    Free.push_back(V);
  }
  size_t size() const { return Count; }
  /// Calls F(key, entry) for every entry, in no particular order.
  template <class F> void forEach(F &&Fn) const {
    for (const Slot &S : Slots)
      if (S.V)
        Fn(S.K, *S.V);
  }
  /// Gives every entry back.
  void clear() {
    for (Slot &S : Slots)
      if (S.V) {
        give(S.V);
        S.V = nullptr;
      }
    Count = 0;
  }

private:
  struct Slot {
    SpanKey K{0, 0};
    size_t Hash = 0;
    T *V = nullptr;
    bool used() const { return V != nullptr; }
  };

  std::vector<Slot> Slots = std::vector<Slot>(64);
  size_t Mask = 63;
  size_t Count = 0;
  std::vector<std::unique_ptr<T>> Pool; // owns every entry
  std::vector<T *> Free;
};

} // namespace dftrace

#endif
