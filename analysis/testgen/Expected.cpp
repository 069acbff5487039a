//===- Expected.cpp - The totals a report must hold -----------------------===//

#include "Expected.h"

#include <algorithm>

namespace tracegen {

namespace {

int sizeBin(uint64_t B) {
  const uint64_t Top[] = {100, 1024, 10240, 102400, 1048576, 4194304,
                          10485760, 104857600, 1073741824};
  int I = 0;
  while (I < 9 && B > Top[I])
    ++I;
  return I;
}

uint64_t unionLength(std::vector<std::pair<int64_t, int64_t>> V) {
  std::sort(V.begin(), V.end());
  uint64_t Total = 0;
  int64_t CurB = 0, CurE = 0;
  bool Have = false;
  for (auto [B, E] : V) {
    if (E <= B)
      continue;
    if (Have && B <= CurE) {
      CurE = std::max(CurE, E);
      continue;
    }
    if (Have)
      Total += static_cast<uint64_t>(CurE - CurB);
    CurB = B, CurE = E, Have = true;
  }
  if (Have)
    Total += static_cast<uint64_t>(CurE - CurB);
  return Total;
}

/// The kind of the MPI-IO data calls Builder.cpp writes, as
/// docs/analysis.md names them (written out here, not derived, so the
/// analyzer's rule is checked against it).
const char *mpiKind(const std::string &Name) {
  if (Name == "MPI_File_write_at_all")
    return "collective";
  if (Name == "MPI_File_write_at" || Name == "MPI_File_read_at")
    return "independent";
  if (Name == "MPI_File_iwrite_at")
    return "nonblocking";
  return nullptr;
}

} // namespace

void Expected::process(const Process &P, const std::string &FileName,
                       uint64_t ExtraEvents) {
  uint64_t RankEvents = ExtraEvents;
  Totals RankIo;
  std::vector<std::pair<int64_t, int64_t>> All[6], AnyIo;
  for (size_t T = 0; T < P.Roots.size(); ++T)
    for (Node *N : P.Order[T]) {
      if (!N->Written)
        continue;
      ++RankEvents;
      if (N->BadDur)
        continue;
      ++Spans;
      LayerAcc &L = Layers[N->Layer];
      ++L.Ops;
      L.TimeUs += static_cast<uint64_t>(N->Dur);
      bool IsIo = N->Layer >= 1 && N->Layer <= 4;
      if (!IsIo) {
        Fn &F = Functions[N->Name];
        ++F.Calls;
        F.TimeUs += static_cast<uint64_t>(N->Dur);
        if (!N->Parent)
          All[N->Layer].emplace_back(N->Ts, N->Ts + N->Dur);
        continue;
      }
      All[N->Layer].emplace_back(N->Ts, N->Ts + N->Dur);
      AnyIo.emplace_back(N->Ts, N->Ts + N->Dur);
      if (N->Failed)
        ++L.Failed;
      uint64_t Moved = N->Failed ? 0 : N->Bytes;
      if (N->K == Read)
        L.Read += Moved;
      if (N->K == Write)
        L.Written += Moved;
      auto &Op = L.ByOp[N->OpName];
      ++Op[0];
      Op[1] += static_cast<uint64_t>(N->Dur);
      Op[2] += N->K == Read || N->K == Write ? Moved : 0;
      if (!N->Failed && N->K == Read)
        ++L.ReadBins[sizeBin(Moved)];
      if (!N->Failed && N->K == Write)
        ++L.WriteBins[sizeBin(Moved)];
      if (N->K == Read || N->K == Write)
        ++L.DataOps, L.DataUs += static_cast<uint64_t>(N->Dur);
      if (N->Layer == 3 && (N->K == Read || N->K == Write))
        if (const char *Kind = mpiKind(N->Name)) {
          auto &K = L.MpiKinds[Kind];
          ++K[0];
          K[1] += static_cast<uint64_t>(N->Dur);
          K[2] += Moved;
        }
      if (N->K == Meta)
        ++L.MetaOps, L.MetaUs += static_cast<uint64_t>(N->Dur);
      if (N->K == Unknown)
        ++UnknownOps[std::string(LayerNames[N->Layer]) + "/" + N->Name];
      if (N->FHash)
        Files.insert(P.PathOf.at(N->FHash));
      // Once per call: only calls not inside another I/O call.
      bool InIo = false;
      for (Node *A = N->Parent; A; A = A->Parent)
        InIo |= A->Layer >= 1 && A->Layer <= 4 && A->Written;
      if (InIo)
        continue;
      Io.add(*N);
      RankIo.add(*N);
      // Direct: the nearest annotated span; inclusive: every distinct
      // annotated span above. A span never written (a cut trace) takes
      // nothing; its I/O goes to "(unknown parent)".
      Node *Nearest = nullptr;
      std::set<std::string> Above;
      bool Lost = false;
      for (Node *A = N->Parent; A; A = A->Parent) {
        if (A->Layer >= 1 && A->Layer <= 4)
          continue;
        if (!A->Written) {
          Lost = true;
          if (!Nearest)
            Nearest = A;
          continue;
        }
        if (!Nearest)
          Nearest = A;
        Above.insert(A->Name);
      }
      if (!Nearest) {
        Functions["(no function)"].Direct.add(*N);
        Functions["(no function)"].Inclusive.add(*N);
        continue;
      }
      if (Nearest->Written)
        Functions[Nearest->Name].Direct.add(*N);
      else
        Functions["(unknown parent)"].Direct.add(*N);
      if (Lost)
        Functions["(unknown parent)"].Inclusive.add(*N);
      for (const std::string &Name : Above)
        Functions[Name].Inclusive.add(*N);
    }
  Json Union = Json::object();
  for (int L = 0; L < 6; ++L) {
    uint64_t U = unionLength(All[L]);
    Layers[L].UnionSum += U;
    Layers[L].UnionMax = std::max(Layers[L].UnionMax, U);
    if (!All[L].empty() || Layers[L].Ops)
      Union[LayerNames[L]] = U;
  }
  Ranks.push_back({{"rank", std::to_string(P.Rank)},
                   {"pid", P.Pid},
                   {"file", FileName},
                   {"events", RankEvents},
                   {"io_time_us", unionLength(AnyIo)},
                   {"io_ops", RankIo.Ops},
                   {"io_bytes_read", RankIo.Read},
                   {"io_bytes_written", RankIo.Written}});
}

Json Expected::json(size_t NumFiles) const {
  Json J;
  J["schema"] = 2;
  J["files"] = NumFiles;
  J["events"] = Events;
  J["lines"] = Lines;
  J["text_bytes"] = TextBytes;
  J["spans"] = Spans;
  J["unattributed_spans"] = 0; // every generated span has a place
  Json Counts = Json::object();
  uint64_t Total = 0;
  for (const char *K : IssueKinds) {
    auto It = Issues.find(K);
    Counts[K] = It == Issues.end() ? 0 : It->second;
    Total += Counts[K].get<uint64_t>();
  }
  J["issues"] = {{"total", Total}, {"counts", Counts}};
  Json Ls = Json::object();
  for (int L = 0; L < 6; ++L) {
    const LayerAcc &A = Layers[L];
    if (!A.Ops)
      continue;
    Json X{{"ops", A.Ops},           {"bytes_read", A.Read},
           {"bytes_written", A.Written}, {"time_us", A.TimeUs},
           {"union_us", A.UnionSum}, {"union_max_us", A.UnionMax}};
    if (L >= 1 && L <= 4) {
      X["failed"] = A.Failed;
      X["data"] = {{"ops", A.DataOps}, {"time_us", A.DataUs}};
      X["metadata"] = {{"ops", A.MetaOps}, {"time_us", A.MetaUs}};
      Json Ops = Json::object();
      for (const auto &[Name, V] : A.ByOp)
        Ops[Name] = {{"ops", V[0]}, {"time_us", V[1]}, {"bytes", V[2]}};
      X["operations"] = Ops;
      if (!A.MpiKinds.empty()) {
        Json Kinds = Json::object();
        for (const auto &[Name, V] : A.MpiKinds)
          Kinds[Name] = {{"ops", V[0]}, {"time_us", V[1]}, {"bytes", V[2]}};
        X["mpiio"] = Kinds;
      }
    }
    Ls[LayerNames[L]] = X;
  }
  J["layers"] = Ls;
  J["io"] = {{"ops", Io.Ops},
             {"time_us", Io.TimeUs},
             {"bytes_read", Io.Read},
             {"bytes_written", Io.Written}};
  Json Sizes = Json::object();
  for (int L = 1; L <= 4; ++L)
    if (Layers[L].Ops)
      Sizes[LayerNames[L]] = {
          {"read", std::vector<uint64_t>(Layers[L].ReadBins, Layers[L].ReadBins + 10)},
          {"write", std::vector<uint64_t>(Layers[L].WriteBins, Layers[L].WriteBins + 10)}};
  J["sizes"] = Sizes;
  Json Fns = Json::array();
  for (const auto &[Name, F] : Functions) {
    Json X{{"name", Name}, {"calls", F.Calls}, {"time_us", F.TimeUs}};
    X.update(F.Direct.io());
    X["inclusive"] = F.Inclusive.io();
    Fns.push_back(X);
  }
  J["functions"] = Fns;
  J["ranks"] = {{"count", Ranks.size()}, {"list", Ranks}};
  Json Un = Json::array();
  for (const auto &[Key, N] : UnknownOps)
    Un.push_back({{"name", Key.substr(Key.find('/') + 1)},
                  {"layer", Key.substr(0, Key.find('/'))},
                  {"ops", N}});
  J["unknown_operations"] = Un;
  Json First = Json::array();
  for (const Json &I : IssueList)
    First.push_back(I);
  J["issues"]["first"] = First;
  return J;
}

} // namespace tracegen
