//===- CallSites.cpp - Which annotated function issued which I/O chain ----===//

#include "CallSites.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <tuple>

namespace dftanalyze {

void SiteStat::merge(const SiteStat &O) {
  if (!Processes && !C.Ops) {
    Layer = O.Layer;
    Op = O.Op;
    Mpi = O.Mpi;
    TopLayer = O.TopLayer;
  }
  C.merge(O.C);
  Processes += O.Processes;
  // Full, and every label of O sorts after the last kept: nothing changes
  // (at many ranks, most merges; the union below copies 32 strings).
  if (O.Ranks.empty() ||
      (Ranks.size() >= MaxSiteRanks && !(O.Ranks.front() < Ranks.back())))
    return;
  if (O.Ranks.size() <= 2) {
    // A file's site has its process's label (two with a fork): put each
    // in its place, as the union below would, without copying the others.
    for (const std::string &L : O.Ranks)
      insertRank(L);
    return;
  }
  std::vector<std::string> All;
  std::set_union(Ranks.begin(), Ranks.end(), O.Ranks.begin(), O.Ranks.end(),
                 std::back_inserter(All));
  if (All.size() > MaxSiteRanks)
    All.resize(MaxSiteRanks);
  Ranks = std::move(All);
}

void SiteStat::insertRank(const std::string &L) {
  size_t At = static_cast<size_t>(
      std::lower_bound(Ranks.begin(), Ranks.end(), L) - Ranks.begin());
  if (At < Ranks.size() && Ranks[At] == L)
    return;
  if (Ranks.size() >= MaxSiteRanks) {
    if (At == Ranks.size())
      return;
    Ranks.pop_back();
  }
  Ranks.insert(Ranks.begin() + static_cast<std::ptrdiff_t>(At), L);
}

void SiteStat::mergeOne(const SiteCounts &Counts, uint8_t L, uint8_t O,
                        uint8_t M, uint8_t Top, const std::string &Rank) {
  if (!Processes && !C.Ops) {
    Layer = L;
    Op = O;
    Mpi = M;
    TopLayer = Top;
  }
  C.merge(Counts);
  ++Processes;
  if (Ranks.size() >= MaxSiteRanks && !(Rank < Ranks.back()))
    return; // as merge(): full, and the label sorts after the last kept
  insertRank(Rank);
}

namespace {
/// Larger value wins; among equals the smaller label, so merges commute.
void keepMax(uint64_t &Max, std::string &Label, uint64_t V,
             const std::string &L) {
  if (V > Max || (V == Max && (Label.empty() || L < Label))) {
    Max = V;
    Label = L;
  }
}
} // namespace

void FileRankStat::add(uint64_t Bytes, uint64_t TimeUs,
                       const std::string &Rank) {
  keepMax(MaxBytes, MaxBytesRank, Bytes, Rank);
  keepMax(MaxTimeUs, MaxTimeRank, TimeUs, Rank);
  SumBytes += Bytes;
  SumTimeUs += TimeUs;
  ++Processes;
}

void FileRankStat::merge(const FileRankStat &O) {
  if (!O.Processes)
    return;
  keepMax(MaxBytes, MaxBytesRank, O.MaxBytes, O.MaxBytesRank);
  keepMax(MaxTimeUs, MaxTimeRank, O.MaxTimeUs, O.MaxTimeRank);
  SumBytes += O.SumBytes;
  SumTimeUs += O.SumTimeUs;
  Processes += O.Processes;
}

uint64_t jobHash(const std::string &JobKey) {
  // FNV-1a, 64 bits: stable across runs and machines (the MPI engine's
  // ranks and -j's threads must agree), and 2^-64 of two jobs colliding.
  uint64_t H = 14695981039346656037ull;
  for (unsigned char C : JobKey) {
    H ^= C;
    H *= 1099511628211ull;
  }
  return H;
}

std::string jobTag(const std::string &JobKey) {
  return jobTagOf(jobHash(JobKey));
}

std::string jobTagOf(uint64_t H) {
  static const char Hex[] = "0123456789abcdef";
  std::string T(16, '0');
  for (int I = 15; I >= 0; --I, H >>= 4)
    T[I] = Hex[H & 15];
  return T;
}

bool jobHashOfTag(std::string_view Tag, uint64_t &Hash) {
  if (Tag.size() != 16)
    return false;
  Hash = 0;
  for (char C : Tag) {
    if (C >= '0' && C <= '9')
      Hash = Hash << 4 | uint64_t(C - '0');
    else if (C >= 'a' && C <= 'f')
      Hash = Hash << 4 | uint64_t(C - 'a' + 10);
    else
      return false;
  }
  return true;
}

void DiagnosisFacts::merge(DiagnosisFacts &&O) {
  if (Sites.empty())
    Sites = std::move(O.Sites);
  else
    for (auto &[K, S] : O.Sites)
      Sites[K].merge(S);
  if (FileRanks.empty())
    FileRanks = std::move(O.FileRanks);
  else
    for (auto &[K, S] : O.FileRanks)
      FileRanks[K].merge(S);
  for (auto &[K, S] : O.FunctionRanks)
    FunctionRanks[K].merge(S);
}

uint32_t ChainTable::intern(const Node &N) {
  uint64_t Key = (static_cast<uint64_t>(N.Name) << 32) | N.Tail;
  auto [It, New] = Index.try_emplace(Key, static_cast<uint32_t>(Nodes.size()));
  if (New)
    Nodes.push_back(N);
  return It->second;
}

uint32_t ChainTable::leaf(std::string_view Name, dftrace::Layer L,
                          dftrace::Op O, dftrace::MpiKind Mpi) {
  // Loops call the same function: the last name is checked first.
  if (LastLeaf && Name == LastName)
    return LastLeaf;
  auto It = NameIds.find(Name);
  uint32_t Id;
  if (It == NameIds.end()) {
    Names.push_back(std::make_unique<std::string>(Name));
    Id = static_cast<uint32_t>(Names.size()); // 0 is no name
    NameIds.emplace(*Names.back(), Id);
  } else {
    Id = It->second;
  }
  LastLeaf = intern({Id, 0, L, O, Mpi, L});
  LastName = *Names[Id - 1];
  return LastLeaf;
}

uint32_t ChainTable::prepend(uint32_t Call, uint32_t Tail) {
  const Node &Last = Nodes[Tail];
  return intern({Nodes[Call].Name, Tail, Last.L, Last.O, Last.Mpi,
                 Nodes[Call].L});
}

std::string ChainTable::text(uint32_t Chain) const {
  std::string S;
  for (uint32_t C = Chain; C; C = Nodes[C].Tail) {
    if (!S.empty())
      S += " > ";
    S += *Names[Nodes[C].Name - 1];
  }
  return S;
}

void SiteList::add(uint32_t Chain, const SiteCounts &C) {
  if (Index) {
    auto [It, New] = Index->try_emplace(Chain, Items.size());
    if (New)
      Items.emplace_back(Chain, C);
    else
      Items[It->second].second.merge(C);
    return;
  }
  for (auto &[Id, Known] : Items)
    if (Id == Chain) {
      Known.merge(C);
      return;
    }
  Items.emplace_back(Chain, C);
  if (Items.size() > IndexAbove) {
    Index = std::make_unique<std::unordered_map<uint32_t, size_t>>();
    for (size_t I = 0; I < Items.size(); ++I)
      Index->emplace(Items[I].first, I);
  }
}

void SiteList::take(SiteList &O) {
  if (size() < O.size())
    std::swap(*this, O);
  for (const auto &[Chain, C] : O.Items)
    add(Chain, C);
  O.clear();
}

} // namespace dftanalyze
