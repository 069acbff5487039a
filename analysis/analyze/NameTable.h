//===- NameTable.h - A trace file's span names, interned once -----*- C++ -*-===//
//
// A trace names a few dozen functions millions of times. Each span asked
// several tables about its name (the I/O taxonomy, the call-site chains,
// the functions); now it asks this one, and everything known about the name
// is kept in its entry: the classification of an I/O call, and the ids the
// analyzer gave it (function id, one-call chain), filled the first time they
// are needed.
//
// \code
//   NameTable::Entry &N = Names.find(Layer::Posix, "pwrite64");
//   N.Call.O == Op::Write;            // dftrace::callNameOf, once per name
//   if (N.Fn == NameTable::NoId) N.Fn = functionId(...);
// \endcode
//
// An open-addressing table (linear probing, at most half full) of the names'
// hashes, read 8 bytes at a time; entries and names are never removed, and
// names are copied into storage that does not move.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_NAMETABLE_H
#define DFTRACER_ANALYZE_NAMETABLE_H

#include "reader/IoTaxonomy.h"
#include "reader/OpenAddressing.h"

#include <cstdint>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace dftanalyze {

class NameTable {
public:
  static constexpr uint32_t NoId = ~0u;
  struct Entry {
    dftrace::CallName Call; // I/O layers only
    uint32_t Fn = NoId;     // the analyzer's function id
    uint32_t Leaf = NoId;   // ChainTable::leaf of the call
    uint32_t ShmLeaf = NoId; // ... on MPI's shared memory (Caveats.h)
  };

  /// The entry of (L, Name), made on first sight. The reference stays valid.
  Entry &find(dftrace::Layer L, std::string_view Name) {
    uint64_t H = hash(L, Name);
    for (size_t I = H & Mask;; I = (I + 1) & Mask) {
      Slot &S = Slots[I];
      if (!S.E)
        return add(S, H, L, Name);
      if (S.Hash == H && S.L == L && S.Name.size() == Name.size() &&
          sameBytes(S.Name.data(), Name.data(), Name.size()))
        return *S.E;
    }
  }

private:
  struct Slot {
    uint64_t Hash = 0;
    std::string_view Name;
    dftrace::Layer L = dftrace::Layer::App;
    Entry *E = nullptr;
    bool used() const { return E != nullptr; }
  };

  static uint64_t hash(dftrace::Layer L, std::string_view Name) {
    const char *P = Name.data();
    size_t N = Name.size();
    uint64_t H = (N * 0x9e3779b97f4a7c15ull) ^ static_cast<uint64_t>(L);
    for (; N >= 8; P += 8, N -= 8) {
      uint64_t W;
      std::memcpy(&W, P, 8);
      H = (H ^ W) * 0xff51afd7ed558ccdull;
      H ^= H >> 32;
    }
    uint64_t W = 0;
    if (N && Name.size() >= 8) {
      std::memcpy(&W, Name.data() + Name.size() - 8, 8); // the last 8 bytes
    } else if (N >= 4) { // (the length is in H)
      W = dftrace::edgeWord(P, N);
    } else {
      for (size_t I = 0; I < N; ++I)
        W |= static_cast<uint64_t>(static_cast<uint8_t>(P[I])) << (8 * I);
    }
    H = (H ^ W) * 0xc4ceb9fe1a85ec53ull;
    return H ^ (H >> 29);
  }

  /// A[0, N) == B[0, N), in words (memcmp was a call and a third of a
  /// lookup; the names are short and equal when their hashes are).
  static bool sameBytes(const char *A, const char *B, size_t N) {
    auto Word = [](const char *P) {
      uint64_t W;
      std::memcpy(&W, P, 8);
      return W;
    };
    if (N >= 8) {
      for (size_t I = 0; I + 8 < N; I += 8)
        if (Word(A + I) != Word(B + I))
          return false;
      return Word(A + N - 8) == Word(B + N - 8);
    }
    if (N >= 4)
      return dftrace::edgeWord(A, N) == dftrace::edgeWord(B, N);
    for (size_t I = 0; I < N; ++I)
      if (A[I] != B[I])
        return false;
    return true;
  }

  Entry &add(Slot &S, uint64_t H, dftrace::Layer L, std::string_view Name) {
    Texts.emplace_back(Name);
    Entries.emplace_back();
    Entry &E = Entries.back();
    if (dftrace::isIoLayer(L))
      E.Call = dftrace::callNameOf(L, Name);
    S = {H, Texts.back(), L, &E};
    if (++Count * 2 > Slots.size())
      dftrace::growSlots(Slots, Mask);
    return E;
  }

  std::vector<Slot> Slots = std::vector<Slot>(64);
  size_t Mask = 63;
  size_t Count = 0;
  std::deque<std::string> Texts; // what Slot::Name points into
  std::deque<Entry> Entries;     // what find's references point to
};

} // namespace dftanalyze

#endif
