//===- DiagnoseCalls.cpp - Kinds of how the I/O calls are issued ----------===//
//
// small_requests, small_hdf5_access, stdio_bulk, sync_per_write,
// independent_mpiio, metadata_heavy, many_files and failed_calls: what the
// calls are (their size, layer, kind, outcome), from the call sites.
//
//===----------------------------------------------------------------------===//

#include "DiagnoseInternal.h"

namespace dftanalyze {
namespace diagnosis {

void Diagnoser::smallRequests(const DiagnosisRule &Rule) {
  SmallCalls C;
  uint64_t Us = 0, Bytes = 0, IoUs = 0;
  for (const SiteRef &S : Sites) {
    if (!atBottom(S))
      continue;
    IoUs += S.S->C.TimeUs;
    if (!dftrace::isDataOp(S.O()))
      continue;
    C.add(S.S->C);
    Us += S.S->C.TimeUs;
    Bytes += S.S->C.Bytes;
  }
  double Share = ratio(C.Small, C.Ops);
  Finding F;
  if (!C.Small ||
      !atLeast(Rule, F, "small_call_share", Share, "min_share", 0) ||
      !supported(Rule, F, C.Small, C.SmallBytes, C.SmallUs))
    return;
  uint64_t LargeUs = Us - C.SmallUs, LargeBytes = Bytes - C.SmallBytes;
  if (LargeBytes && LargeUs) {
    F.RecoverableUs =
        beyondBandwidth(C.SmallUs, C.SmallBytes, LargeBytes, LargeUs);
    F.Method = "the small calls' time minus the same bytes at the "
               "bandwidth the large calls of this run reached (" +
               fmt("%.1f", mebibytesPerSecond(LargeBytes, LargeUs)) +
               " MiB/s per call)";
  } else {
    double After;
    F.RecoverableUs =
        mergedSaving(C.Small, C.SmallBytes, C.SmallUs, Rules.SmallBytes, After);
    F.Method = "no large call in this run to compare with: the per-call "
               "cost kept, " +
               std::to_string(C.Small) + " calls become " + fmt("%.0f", After) +
               " of small_bytes each";
  }
  F.Sites =
      topSites([&](const SiteRef &S) { return atBottom(S) && S.S->C.SmallOps; },
               [](const SiteRef &S) { return S.S->C.SmallTimeUs; }, true);
  F.Files = busiestFiles(3);
  uint64_t Mean = C.meanBytes();
  F.Summary = std::to_string(C.Small) + " data calls under " +
              std::to_string(Rules.SmallBytes) + " B (mean " +
              std::to_string(Mean) + " B), " + pct(Share) +
              " of the data calls, " + pct(ratio(C.SmallUs, IoUs)) +
              " of the bottom layer's I/O time" + fromSite(F, "issued by");
  add(Rule, std::move(F), {{"size", std::to_string(Mean)}});
}

void Diagnoser::smallHdf5(const DiagnosisRule &Rule) {
  SmallCalls C;
  for (const SiteRef &S : Sites)
    if (S.L() == Layer::Hdf5 && dftrace::isDataOp(S.O()))
      C.add(S.S->C);
  double Share = ratio(C.Small, C.Ops);
  Finding F;
  if (!C.Small ||
      !atLeast(Rule, F, "small_hdf5_call_share", Share, "min_share") ||
      !supported(Rule, F, C.Small, C.SmallBytes, C.SmallUs))
    return;
  double After;
  F.RecoverableUs =
      mergedSaving(C.Small, C.SmallBytes, C.SmallUs, Rules.SmallBytes, After);
  F.Method = "the per-call cost kept: " + std::to_string(C.Small) +
             " H5Dwrite/H5Dread calls become " + fmt("%.0f", After) +
             " of small_bytes each";
  F.Sites = topSites(
      [](const SiteRef &S) { return S.L() == Layer::Hdf5 && S.S->C.SmallOps; },
      [](const SiteRef &S) { return S.S->C.SmallTimeUs; }, true);
  F.Files = busiestFiles(3);
  uint64_t Mean = C.meanBytes();
  F.Summary = std::to_string(C.Small) + " HDF5 data calls under " +
              std::to_string(Rules.SmallBytes) + " B (mean " +
              std::to_string(Mean) + " B), " + pct(Share) + " of them" +
              fromSite(F, "from", false);
  add(Rule, std::move(F), {{"size", std::to_string(Mean)}});
}

void Diagnoser::stdioBulk(const DiagnosisRule &Rule) {
  uint64_t Stdio = 0, StdioUs = 0, StdioOps = 0, All = 0;
  for (const SiteRef &S : Sites) {
    if (!atBottom(S) || !dftrace::isDataOp(S.O()))
      continue;
    All += S.S->C.Bytes;
    if (S.L() == Layer::Stdio) {
      Stdio += S.S->C.Bytes;
      StdioUs += S.S->C.TimeUs;
      StdioOps += S.S->C.Ops;
    }
  }
  double Share = ratio(Stdio, All);
  Finding F;
  if (!Stdio || !atLeast(Rule, F, "stdio_byte_share", Share, "min_share") ||
      !supported(Rule, F, StdioOps, Stdio, StdioUs))
    return;
  const auto &Posix = A.Layers[static_cast<size_t>(Layer::Posix)].ByOp;
  const OpStat &PR = Posix[static_cast<size_t>(Op::Read)];
  const OpStat &PW = Posix[static_cast<size_t>(Op::Write)];
  uint64_t PBytes = PR.Bytes + PW.Bytes, PUs = PR.TimeUs + PW.TimeUs;
  if (PBytes >= Stdio && PUs) {
    F.RecoverableUs = beyondBandwidth(StdioUs, Stdio, PBytes, PUs);
    F.Method = "the stdio calls' time minus their bytes at the bandwidth "
               "of this run's POSIX data calls";
  } else {
    notEstimated(F, "too few POSIX data calls in this run to compare with");
  }
  F.Sites = topSites(
      [](const SiteRef &S) {
        return S.L() == Layer::Stdio && dftrace::isDataOp(S.O());
      },
      byBytes);
  F.Files = busiestFiles(3);
  F.Summary = pct(Share) + " of the bytes (" + std::to_string(Stdio) +
              " B in " + std::to_string(StdioOps) + " calls) go through stdio" +
              fromSite(F, "from", false);
  add(Rule, std::move(F));
}

void Diagnoser::syncPerWrite(const DiagnosisRule &Rule) {
  // Per function: its sync calls and its write calls (any layer).
  std::map<std::string, std::pair<uint64_t, uint64_t>> Per; // sync, write
  std::map<std::string, uint64_t> SyncUs;
  for (const SiteRef &S : Sites) {
    if (S.O() == Op::Sync) {
      Per[*S.Function].first += S.S->C.Ops;
      SyncUs[*S.Function] += S.S->C.TimeUs;
    } else if (S.O() == Op::Write && S.L() == S.Top()) {
      Per[*S.Function].second += S.S->C.Ops;
    }
  }
  for (const auto &[Fn, C] : Per) {
    auto [Syncs, Writes] = C;
    double Ratio = ratio(Syncs, Writes);
    Finding F;
    if (!Syncs || !Writes ||
        !atLeast(Rule, F, "syncs_per_write", Ratio, "min_ratio") ||
        !supported(Rule, F, Syncs, 0, SyncUs[Fn]))
      continue;
    F.RecoverableUs = usOf(F.TimeUs / 1e6 * (1.0 - 1.0 / double(Syncs)));
    F.Method = "the sync calls' time but one";
    const std::string &Fun = Fn; // a lambda captures no structured binding
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return *S.Function == Fun && S.O() == Op::Sync;
        },
        byTime);
    F.Files = busiestFiles(1);
    F.Summary = Fn + " makes " + std::to_string(Syncs) + " sync calls for " +
                std::to_string(Writes) + " writes";
    add(Rule, std::move(F));
  }
}

void Diagnoser::independentMpiio(const DiagnosisRule &Rule) {
  uint64_t Indep = 0, IndepUs = 0, IndepBytes = 0, Coll = 0, CollUs = 0,
           CollBytes = 0;
  std::vector<const FileFigures *> Shared;
  for (const FileFigures &F : R.FilesByTime) {
    if (F.S->Processes < 2)
      continue;
    const OpStat &I = F.S->Mpi.Kinds[static_cast<size_t>(MpiKind::Independent)];
    const OpStat &NB =
        F.S->Mpi.Kinds[static_cast<size_t>(MpiKind::NonBlocking)];
    if (!I.Ops && !NB.Ops)
      continue;
    Indep += I.Ops + NB.Ops;
    IndepUs += I.TimeUs + NB.TimeUs;
    IndepBytes += I.Bytes + NB.Bytes;
    for (size_t K = 0; K < NumMpiKinds; ++K)
      if (dftrace::isCollective(static_cast<MpiKind>(K))) {
        Coll += F.S->Mpi.Kinds[K].Ops;
        CollUs += F.S->Mpi.Kinds[K].TimeUs;
        CollBytes += F.S->Mpi.Kinds[K].Bytes;
      }
    Shared.push_back(&F);
  }
  double Share = ratio(Indep, Indep + Coll);
  Finding F;
  if (!Indep ||
      !atLeast(Rule, F, "independent_share_on_shared_files", Share,
               "min_share") ||
      !supported(Rule, F, Indep, IndepBytes, IndepUs))
    return;
  if (CollBytes && CollUs) {
    F.RecoverableUs = beyondBandwidth(IndepUs, IndepBytes, CollBytes, CollUs);
    F.Method = "the independent calls' time minus their bytes at the "
               "bandwidth the collective calls of this run reached";
  } else {
    notEstimated(F, "no collective call in this run to compare with "
                    "(compare a run with collective calls: --compare)");
  }
  for (const FileFigures *S : Shared)
    listFile(F, *S);
  F.Sites = topSites(
      [](const SiteRef &S) {
        // Whatever the code called: HDF5's independent transfers reach
        // MPI-IO as independent calls too, under the function that
        // called H5Dwrite, and the advice follows the layer called.
        return S.L() == Layer::MpiIo &&
               (S.S->Mpi == uint8_t(MpiKind::Independent) ||
                S.S->Mpi == uint8_t(MpiKind::NonBlocking));
      },
      byTime);
  F.Summary = std::to_string(Indep) + " independent MPI-IO data calls (" +
              pct(Share) + ") on " + std::to_string(Shared.size()) +
              " shared files" + fromSite(F, "from");
  add(Rule, std::move(F));
}

void Diagnoser::metadataHeavy(const DiagnosisRule &Rule) {
  uint64_t MetaOps = 0, MetaUs = 0, IoUs = 0;
  for (const SiteRef &S : Sites) {
    if (!atBottom(S))
      continue;
    IoUs += S.S->C.TimeUs;
    if (dftrace::isMetadataOp(S.O())) {
      MetaOps += S.S->C.Ops;
      MetaUs += S.S->C.TimeUs;
    }
  }
  // Repeats: the same path opened and stat'ed again and again by each
  // process; Repeated: its metadata calls beyond one open, one stat and
  // one close per file and process. Seeks are neither: IOR's POSIX_Xfer
  // seeks before every transfer (8192 lseek per process on one file at
  // -t 4k), which is no reopening; their time stays in the share test.
  uint64_t Repeated = 0;
  const FileFigures *Worst = nullptr;
  double WorstPer = 0;
  for (const FileFigures &F : R.FilesByTime) {
    if (!F.S->Processes || mpiSharedMemory(F.Path))
      continue;
    uint64_t Meta = F.MetaOps - F.S->reachedCalls(Op::Seek);
    double Per =
        double(F.S->reachedCalls(Op::Open) + F.S->reachedCalls(Op::Stat)) /
        double(F.S->Processes);
    if (Per > WorstPer) {
      WorstPer = Per;
      Worst = &F;
    }
    if (Meta > 3 * F.S->Processes)
      Repeated += Meta - 3 * F.S->Processes;
  }
  double Share = ratio(MetaUs, IoUs);
  Finding F;
  // Either figure makes the finding; both are proof when both cross.
  bool ByShare = atLeast(Rule, F, "metadata_time_share", Share, "min_share", 1);
  bool ByRepeat = atLeast(Rule, F, "metadata_calls_per_file_and_process",
                          WorstPer, "min_repeats");
  if (!MetaOps || (!ByShare && !ByRepeat) ||
      !supported(Rule, F, MetaOps, 0, MetaUs))
    return;
  F.RecoverableUs = usOf(MetaUs / 1e6 * ratio(Repeated, MetaOps));
  F.Method = "the metadata time of the calls beyond one open, one stat and "
             "one close per file and process (" +
             std::to_string(Repeated) + " of " + std::to_string(MetaOps) +
             " calls)";
  F.Sites = topSites(
      [&](const SiteRef &S) {
        return atBottom(S) && dftrace::isMetadataOp(S.O());
      },
      byRepeatedTime);
  if (Worst)
    F.Files.push_back(file(*Worst));
  F.Summary = std::to_string(MetaOps) + " metadata calls, " + pct(Share) +
              " of the bottom layer's I/O time";
  if (Worst)
    F.Summary +=
        "; " + fmt("%.1f", WorstPer) + " per process on " + Worst->Path;
  F.Summary += fromSite(F, "most from");
  add(Rule, std::move(F), {{"ratio", pct(Share)}});
}

void Diagnoser::manyFiles(const DiagnosisRule &Rule) {
  uint64_t Files = 0, MetaUs = 0, MetaOps = 0;
  for (const FileFigures &F : R.FilesByTime)
    if (F.S->Processes == 1) {
      ++Files;
      MetaUs += F.MetaTimeUs;
      MetaOps += F.MetaOps;
    }
  uint64_t IoUs = 0;
  for (size_t Slot = 0; Slot < NumIoLayers; ++Slot)
    if (Bottom >> Slot & 1u)
      IoUs += A.Io.Layers[Slot].TimeUs;
  double Share = ratio(MetaUs, IoUs);
  Finding F;
  if (!atLeast(Rule, F, "files_used_by_one_process", double(Files),
               "min_files") ||
      !atLeast(Rule, F, "their_metadata_time_share", Share, "min_share", 0) ||
      !supported(Rule, F, MetaOps, 0, MetaUs))
    return;
  uint64_t Ranks = std::max<uint64_t>(1, R.Ranks.size());
  F.RecoverableUs =
      usOf(MetaUs / 1e6 * (1.0 - std::min(1.0, double(Ranks) / Files)));
  F.Method = "the metadata time of the files beyond one per process (" +
             std::to_string(Files) + " files become " + std::to_string(Ranks) +
             ")";
  F.Sites = topSites(
      [&](const SiteRef &S) { return atBottom(S) && S.O() == Op::Open; },
      byOps);
  for (const FileFigures &FF : R.FilesByTime)
    if (FF.S->Processes == 1)
      listFile(F, FF, 3);
  F.Summary = std::to_string(Files) + " files each used by one process, " +
              "their metadata " + pct(Share) + " of the I/O time";
  add(Rule, std::move(F), {{"ratio", std::to_string(Files)}});
}

void Diagnoser::failedCalls(const DiagnosisRule &Rule) {
  uint64_t Failed = 0, Calls = 0, FailedUs = 0;
  for (const SiteRef &S : Sites) {
    Calls += S.S->C.Ops;
    if (S.S->C.Failed) {
      Failed += S.S->C.Failed;
      // A failed call's own time is not kept apart: its site's share.
      FailedUs += S.S->C.TimeUs * S.S->C.Failed / S.S->C.Ops;
    }
  }
  double Share = ratio(Failed, Calls);
  Finding F;
  if (!Failed ||
      !atLeast(Rule, F, "failed_call_share", Share, "min_share", 0) ||
      !supported(Rule, F, Failed, 0, FailedUs))
    return;
  F.RecoverableUs = FailedUs;
  F.Method = "the failing calls' time (their sites' mean duration): none "
             "of it moved data";
  F.Sites = topSites([](const SiteRef &S) { return S.S->C.Failed != 0; },
                     [](const SiteRef &S) { return S.S->C.Failed; });
  for (FindingSite &S : F.Sites) {
    auto It = A.Diag.Sites.find({S.Function, S.Chain});
    S.Ops = It->second.C.Failed;
  }
  F.Summary = "this run measured an error path: " + std::to_string(Failed) +
              " of " + std::to_string(Calls) + " I/O calls failed (" +
              pct(Share) + ")" + fromSite(F, "first");
  add(Rule, std::move(F));
}

} // namespace diagnosis
} // namespace dftanalyze
