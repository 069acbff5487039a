//===- TablesTest.cpp - The analyzer's flat tables against std's ----------===//

#include "analyze/NameTable.h"
#include "reader/SpanTable.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <string>

namespace {

using namespace dftanalyze;
using dftrace::SpanKey;
using dftrace::SpanTable;

struct Counted {
  uint64_t V = 0;
  void reset() { V = 0; }
};

// Random gets and erases on few keys (long probe runs, wrapping the table,
// growing it) agree with a std::map, and erased entries come back reset.
TEST(SpanTable, AgreesWithAMapUnderInsertsAndErases) {
  std::mt19937_64 Rng(7);
  SpanTable<Counted> T;
  std::map<SpanKey, uint64_t> Ref;
  for (int Step = 0; Step < 200000; ++Step) {
    // Keys in a few "pids" with ids in a small range: collisions and runs.
    SpanKey K{static_cast<int64_t>(Rng() % 3),
              Rng() % (Step < 100000 ? 40 : 400)};
    if (Rng() % 3 == 0) {
      T.erase(K);
      Ref.erase(K);
    } else {
      auto [V, New] = T.get(K);
      ASSERT_EQ(New, !Ref.count(K));
      if (New) {
        ASSERT_EQ(V->V, 0u); // a reused entry is reset
      }
      V->V += static_cast<uint64_t>(Step);
      Ref[K] += static_cast<uint64_t>(Step);
    }
    ASSERT_EQ(T.size(), Ref.size());
    if (Step % 997 == 0)
      for (const auto &[RK, RV] : Ref) {
        Counted *V = T.find(RK);
        ASSERT_NE(V, nullptr);
        ASSERT_EQ(V->V, RV);
      }
  }
  std::map<SpanKey, uint64_t> Seen;
  T.forEach([&](SpanKey K, const Counted &V) { Seen[K] = V.V; });
  EXPECT_EQ(Seen, Ref);
  EXPECT_EQ(T.find({5, 5}), nullptr);
  T.clear();
  EXPECT_EQ(T.size(), 0u);
  EXPECT_EQ(T.find(Ref.begin()->first), nullptr);
}

// Each (layer, name) is one entry, whatever was added since; an I/O name
// carries its classification.
TEST(NameTable, OneEntryPerLayerAndName) {
  NameTable N;
  std::map<std::pair<int, std::string>, NameTable::Entry *> Ref;
  std::mt19937_64 Rng(11);
  for (int I = 0; I < 5000; ++I) {
    // Names of every length 0..40 (the 8-byte steps and the tail).
    std::string Name(Rng() % 41, 'a');
    for (char &C : Name)
      C = static_cast<char>('a' + Rng() % 3);
    auto L = static_cast<dftrace::Layer>(Rng() % dftrace::NumLayers);
    NameTable::Entry &E = N.find(L, Name);
    auto [It, New] = Ref.try_emplace({static_cast<int>(L), Name}, &E);
    ASSERT_EQ(It->second, &E) << Name;
    if (New)
      E.Fn = static_cast<uint32_t>(I);
  }
  std::set<NameTable::Entry *> Distinct;
  for (const auto &[K, E] : Ref) {
    ASSERT_EQ(&N.find(static_cast<dftrace::Layer>(K.first), K.second), E);
    Distinct.insert(E);
  }
  EXPECT_EQ(Distinct.size(), Ref.size()); // the same name in two layers: two
  EXPECT_EQ(N.find(dftrace::Layer::Posix, "pwrite64").Call.O,
            dftrace::Op::Write);
  EXPECT_EQ(N.find(dftrace::Layer::MpiIo, "MPI_File_write_at_all").Call.Mpi,
            dftrace::MpiKind::Collective);
  EXPECT_TRUE(N.find(dftrace::Layer::Posix, "aio_write").Call.AioRequest);
  EXPECT_EQ(N.find(dftrace::Layer::App, "pwrite64").Call.O,
            dftrace::Op::Unknown); // an application span's name: not an I/O call
}

} // namespace
