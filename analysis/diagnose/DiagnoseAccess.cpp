//===- DiagnoseAccess.cpp - Kinds of where in the files the calls go ------===//
//
// misaligned_requests, hdf5_unaligned, random_access, redundant_traffic
// and cache_bound, from the per-file access figures (AccessPattern.h):
// those are per file, not per site, so the sites named are the bottom
// layer's data sites.
//
//===----------------------------------------------------------------------===//

#include "DiagnoseInternal.h"

#include <algorithm>
#include <map>

namespace dftanalyze {
namespace diagnosis {

namespace {

/// Why what misaligned calls cost is not estimated (misaligned_requests,
/// hdf5_unaligned).
void misalignedNotEstimated(Finding &F) {
  notEstimated(F, "the cost of a misaligned call depends on the file "
                  "system's locking and read-modify-write; compare an "
                  "aligned run (--compare)");
}

/// A chain that starts with an HDF5 raw-data call.
bool isRawHdf5(const std::string &Chain) {
  return Chain.rfind("H5Dwrite", 0) == 0 || Chain.rfind("H5Dread", 0) == 0;
}

/// The calls of S that do not start where the previous one ended.
uint64_t nonSequential(const AccessStats &S) {
  uint64_t N = S.Reads + S.Writes, Seq = S.SeqReads + S.SeqWrites;
  return N > Seq ? N - Seq : 0;
}

} // namespace

void Diagnoser::misaligned(const DiagnosisRule &Rule) {
  uint64_t Calls = 0, Not = 0, NotBytes = 0, Assumed = 0, Us = 0;
  // Each file's layers are merged once (reachedAccess), for the sums and
  // for the files listed: a file per process makes this per rank.
  std::vector<uint64_t> NotOf; // by R.FilesByTime's index
  NotOf.reserve(R.FilesByTime.size());
  for (const FileFigures &FF : R.FilesByTime) {
    AccessStats S = FF.S->reachedAccess();
    NotOf.push_back(S.NotAligned);
    // Without an FS record the unit is an assumption (1 MiB): such a
    // file is a caveat, not evidence.
    if (S.AlignAssumed && !Rule.param("judge_assumed")) {
      Assumed += S.AlignAssumed;
      continue;
    }
    Calls += S.Reads + S.Writes;
    Not += S.NotAligned;
    NotBytes += S.NotAlignedBytes;
    if (S.Reads + S.Writes)
      Us += FF.Reached.TimeUs * S.NotAligned / (S.Reads + S.Writes);
  }
  double Share = ratio(Not, Calls);
  Finding F;
  if (!Not || !atLeast(Rule, F, "not_aligned_share", Share, "min_share") ||
      !supported(Rule, F, Not, NotBytes, Us))
    return;
  misalignedNotEstimated(F);
  if (Assumed)
    F.Caveats.push_back(std::to_string(Assumed) +
                        " calls on files without an FS record (block or "
                        "stripe size unknown) were not judged");
  F.Sites = dataSites();
  accessFiles(F, [&](const FileFigures &FF) {
    return NotOf[static_cast<size_t>(&FF - R.FilesByTime.data())];
  });
  F.Summary = std::to_string(Not) + " of " + std::to_string(Calls) +
              " data calls (" + pct(Share) +
              ") start off the file system's block or stripe boundary";
  add(Rule, std::move(F));
}

/// HDF5 files whose objects are not aligned to the file system's unit
/// (FS record: stripe, else block): the recorded alignment (HDF5_FILE)
/// is not a multiple of the unit, and most bytes reaching the file start
/// off a unit boundary.
void Diagnoser::hdf5Unaligned(const DiagnosisRule &Rule) {
  struct Hit {
    const FileFigures *F;
    uint64_t Unit, Alignment, Threshold, NotBytes;
  };
  std::vector<Hit> Hits;
  uint64_t Calls = 0, Not = 0, NotBytes = 0, Bytes = 0, Us = 0;
  size_t NoFsRecord = 0;
  for (const FileFigures &FF : R.FilesByTime) {
    if (!FF.S->Hdf5Opens)
      continue;
    uint64_t Unit = FF.S->Fs.alignUnit();
    if (!Unit) {
      ++NoFsRecord;
      continue;
    }
    auto Prop = [&](const char *Key, uint64_t Default) -> uint64_t {
      auto It = FF.S->Hdf5Props.find(Key);
      if (It == FF.S->Hdf5Props.end())
        return Default;
      std::string V = mostCommon(It->second, "");
      return V.empty() || V.find_first_not_of("0123456789") != V.npos
                 ? Default
                 : std::stoull(V);
    };
    uint64_t Alignment = Prop("alignment", 1);
    if (Alignment >= Unit && Alignment % Unit == 0)
      continue; // aligned as the file system wants
    AccessStats S = FF.S->reachedAccess();
    uint64_t N = S.Reads + S.Writes, B = S.BytesRead + S.BytesWritten;
    if (!N || !S.NotAligned)
      continue;
    Calls += N;
    Bytes += B;
    Not += S.NotAligned;
    NotBytes += S.NotAlignedBytes;
    Us += FF.Reached.TimeUs * S.NotAlignedBytes / std::max<uint64_t>(1, B);
    Hits.push_back({&FF, Unit, Alignment, Prop("alignment_threshold", 1),
                    S.NotAlignedBytes});
  }
  double Share = ratio(NotBytes, Bytes);
  Finding F;
  if (Hits.empty() ||
      !atLeast(Rule, F, "not_aligned_byte_share", Share, "min_share") ||
      !supported(Rule, F, Not, NotBytes, Us))
    return;
  std::stable_sort(Hits.begin(), Hits.end(), [](const Hit &X, const Hit &Y) {
    return X.NotBytes > Y.NotBytes;
  });
  const Hit &First = Hits[0];
  F.Proof.push_back(
      {"hdf5_alignment", double(First.Alignment), "<", double(First.Unit)});
  misalignedNotEstimated(F);
  if (NoFsRecord)
    F.Caveats.push_back(std::to_string(NoFsRecord) +
                        " HDF5 files without an FS record (unit unknown) "
                        "were not judged");
  // Who issued the calls below HDF5: raw data under H5Dwrite/H5Dread,
  // the rest is HDF5's metadata (object headers, B-trees, heaps).
  auto BelowHdf5 = [&](const SiteRef &S) {
    return atBottom(S) && dftrace::isDataOp(S.O()) && S.Top() == Layer::Hdf5;
  };
  uint64_t Raw = 0, Meta = 0;
  for (const SiteRef &S : Sites)
    if (BelowHdf5(S))
      (isRawHdf5(*S.Chain) ? Raw : Meta) += S.S->C.Ops;
  F.Sites = topSites(BelowHdf5, byTime);
  for (const Hit &H : Hits)
    listFile(F, *H.F);
  F.Summary =
      std::to_string(Hits.size()) + " HDF5 files with alignment " +
      std::to_string(First.Alignment) + " on a " + std::to_string(First.Unit) +
      " B file system unit: " + std::to_string(Not) + " of " +
      std::to_string(Calls) + " data calls, " + pct(Share) +
      " of the bytes, start off a unit boundary" + fromSite(F, "most from");
  add(Rule, std::move(F),
      {{"unit", std::to_string(First.Unit)},
       {"threshold", std::to_string(First.Unit)},
       {"alignment", std::to_string(First.Alignment)},
       {"alignment_threshold", std::to_string(First.Threshold)},
       {"ratio", pct(Share)},
       {"metadata_calls", std::to_string(Meta)},
       {"metadata", Meta > Raw ? "true" : "false"}});
}

void Diagnoser::randomAccess(const DiagnosisRule &Rule) {
  uint64_t Calls = 0, Random = 0, Us = 0, Bytes = 0;
  // Each file's layers are merged once (reachedAccess), for the sums and
  // for the files listed: a file per process makes this per rank.
  std::vector<uint64_t> OffOf; // by R.FilesByTime's index
  OffOf.reserve(R.FilesByTime.size());
  for (const FileFigures &FF : R.FilesByTime) {
    AccessStats S = FF.S->reachedAccess();
    uint64_t N = S.Reads + S.Writes, Off = nonSequential(S);
    OffOf.push_back(Off);
    Calls += N;
    if (Off) {
      Random += Off;
      Us += FF.Reached.TimeUs * Off / N;
      Bytes += (S.BytesRead + S.BytesWritten) * Off / N;
    }
  }
  double Share = ratio(Random, Calls);
  Finding F;
  if (!Random ||
      !atLeast(Rule, F, "non_sequential_share", Share, "min_share") ||
      !supported(Rule, F, Random, Bytes, Us))
    return;
  notEstimated(F, "what sequential access would cost depends on the device "
                  "and the read-ahead; compare a run (--compare)");
  F.Sites = dataSites();
  accessFiles(F, [&](const FileFigures &FF) {
    return OffOf[static_cast<size_t>(&FF - R.FilesByTime.data())];
  });
  F.Summary = std::to_string(Random) + " of " + std::to_string(Calls) +
              " data calls (" + pct(Share) +
              ") start before the end of the previous call (not sequential)";
  add(Rule, std::move(F));
}

/// Per job (issue 36): bytes a process of the job moved again, or that two
/// of its processes both moved. Two programs that each read an input once
/// do not make each other's reads redundant; one program that reads it
/// twice does.
void Diagnoser::redundant(const DiagnosisRule &Rule) {
  for (const JobView &Job : jobs()) {
    uint64_t Again = 0, Bytes = 0, Us = 0, Ops = 0;
    std::map<std::string, uint64_t> AgainOf; // path -> bytes moved again
    for (const auto &[Path, J] : Job.Files) {
      auto FS = A.Files.find(Path);
      if (FS == A.Files.end())
        continue;
      unsigned Mask = bottomLayers(FS->second.Layers);
      uint64_t Moved = J.accessBytes(Mask);
      uint64_t Rep = std::min(J.movedAgain(Mask), Moved);
      Again += Rep;
      Bytes += Moved;
      AgainOf[Path] = J.movedAgain(Mask);
      uint64_t TimeUs = 0, DataOps = 0;
      for (size_t L = 0; L < NumIoLayers; ++L)
        if (Mask & (1u << L)) {
          TimeUs += J.Layers[L].TimeUs;
          DataOps += J.ReadOps[L] + J.WriteOps[L];
        }
      if (Moved) {
        Us += TimeUs * Rep / Moved;
        Ops += DataOps * Rep / Moved;
      }
    }
    double Share = ratio(Again, Bytes);
    Finding F;
    if (!Again ||
        !atLeast(Rule, F, "bytes_moved_again_share", Share, "min_share") ||
        !supported(Rule, F, Ops, Again, Us))
      continue;
    F.RecoverableUs = Us;
    F.Method = "the files' I/O time (and data calls) in proportion to the "
               "bytes read or written again over the same range";
    F.Sites = dataSites(&Job);
    accessFiles(F, [&](const FileFigures &FF) {
      auto It = AgainOf.find(FF.Path);
      return It == AgainOf.end() ? 0 : It->second;
    });
    std::string Of = Job.Program.empty() ? "" : " of " + Job.Program;
    F.Summary = std::to_string(Again) + " B (" + pct(Share) +
                " of the bytes) read or written again over a range already "
                "moved, by the same or another process" + Of;
    if (!Job.Program.empty())
      F.Ranks = jobRanks(Job, F);
    add(Rule, std::move(F));
  }
}

/// Data read back after it was written, the job's data under a share of
/// the nodes' memory: the reads measured the page cache. Per job (issue
/// 36): a reader launched after a writer is another job, whose reads are
/// not judged against the writer's bytes.
void Diagnoser::cacheBound(const DiagnosisRule &Rule) {
  for (const JobView &Job : jobs()) {
    std::map<std::string, uint64_t> Mem; // host -> mem_total
    uint64_t *HostMem = nullptr; // of Host: ranks come by node, as a rule
    const std::string *Host = nullptr;
    for (const RankFigures &RF : R.Ranks)
      if (RF.P->MemTotal && RF.Program == Job.Program) {
        if (!Host || RF.P->Host != *Host) {
          HostMem = &Mem[RF.P->Host];
          Host = &RF.P->Host;
        }
        *HostMem = std::max(*HostMem, RF.P->MemTotal);
      }
    uint64_t Memory = 0;
    for (const auto &[H, M] : Mem)
      Memory += M;
    uint64_t Written = 0, ReadBack = 0, ReadUs = 0, ReadOps = 0;
    std::vector<const FileFigures *> Both;
    for (const FileFigures &FF : R.FilesByTime) {
      auto It = Job.Files.find(FF.Path);
      if (It == Job.Files.end())
        continue;
      const JobFileStat &J = It->second;
      unsigned Mask = bottomLayers(FF.S->Layers);
      uint64_t W = 0, Rd = 0;
      for (size_t L = 0; L < NumIoLayers; ++L)
        if (Mask & (1u << L)) {
          W += J.Layers[L].BytesWritten;
          Rd += J.Layers[L].BytesRead;
        }
      Written += W;
      if (W && Rd) {
        ReadBack += Rd;
        for (size_t Slot = 0; Slot < NumIoLayers; ++Slot)
          if (Bottom >> Slot & 1u) {
            ReadUs += J.ReadTimeUs[Slot];
            ReadOps += J.ReadOps[Slot];
          }
        Both.push_back(&FF);
      }
    }
    double Share = ratio(Written, Memory);
    Finding F;
    if (!Memory || !ReadBack ||
        !below(Rule, F, "data_over_node_memory", Share, "max_memory_share") ||
        !supported(Rule, F, ReadOps, ReadBack, ReadUs))
      continue;
    F.RecoverableUs = 0;
    F.Method = "not a cost: the read bandwidth of this run (" +
               fmt("%.1f", mebibytesPerSecond(ReadBack, ReadUs)) +
               " MiB/s per call) is the page cache's, not the file system's";
    for (const FileFigures *FF : Both)
      listFile(F, *FF);
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return atBottom(S) && S.O() == Op::Read && siteOfJob(S, Job);
        },
        byBytes);
    std::string Of = Job.Program.empty() ? "" : " (" + Job.Program + ")";
    F.Summary = std::to_string(ReadBack) +
                " B read back after being written "
                "in the same job" + Of + ", whose " +
                std::to_string(Written) + " B written are " + pct(Share) +
                " of the nodes' memory";
    if (!Job.Program.empty())
      F.Ranks = jobRanks(Job, F);
    add(Rule, std::move(F));
  }
}

} // namespace diagnosis
} // namespace dftanalyze
