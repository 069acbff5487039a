//===- OpenAddressing.h - Growing a linear-probing table ----------*- C++ -*-===//
//
// NameTable (analyze/) and SpanTable (here) are open-addressing tables with
// linear probing, kept at most half full. Both grow the same way: twice the
// slots, every used slot put back at its hash, in order.
//
// \code
//   struct Slot { size_t Hash; T *V; bool used() const { return V; } };
//   if (++Count * 2 > Slots.size())
//     growSlots(Slots, Mask);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_OPENADDRESSING_H
#define DFTRACER_READER_OPENADDRESSING_H

#include <cstddef>
#include <vector>

namespace dftrace {

/// Doubles Slots (a power of two; Mask is its size - 1) and re-inserts the
/// used slots by their Hash member.
template <class Slot> void growSlots(std::vector<Slot> &Slots, size_t &Mask) {
  std::vector<Slot> Old(Slots.size() * 2);
  Old.swap(Slots);
  Mask = Slots.size() - 1;
  for (const Slot &S : Old)
    if (S.used()) {
      size_t I = S.Hash & Mask;
      while (Slots[I].used())
        I = (I + 1) & Mask;
      Slots[I] = S;
    }
}

} // namespace dftrace

#endif
