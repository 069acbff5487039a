//===- JsonReport.cpp - The report as JSON (schema 2) ---------------------===//

#include "ConfigurationOutput.h"
#include "Output.h"
#include "analyze/Caveats.h"
#include "analyze/Configuration.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace dftanalyze {

using Json = nlohmann::ordered_json;

namespace {

/// Three decimals: enough for MiB/s and fractions, and the same text on
/// every machine.
double rounded(double V) { return std::round(V * 1000.0) / 1000.0; }

Json opStat(const OpStat &S) {
  return Json{{"ops", S.Ops}, {"time_us", S.TimeUs}, {"bytes", S.Bytes}};
}

Json totals(const IoTotals &S) {
  return Json{{"ops", S.Ops},
              {"time_us", S.TimeUs},
              {"bytes_read", S.BytesRead},
              {"bytes_written", S.BytesWritten}};
}

/// {"independent": {"ops", "time_us", "bytes"}, ..., "opens": N,
///  "opens_with_comm_size": N, "comm_size_sum": N}: the kinds with calls.
Json mpiJson(const MpiStat &M) {
  Json J = Json::object();
  for (size_t K = 0; K < NumMpiKinds; ++K)
    if (M.Kinds[K].Ops)
      J[dftrace::mpiKindName(static_cast<MpiKind>(K))] = opStat(M.Kinds[K]);
  J["opens"] = M.Opens;
  J["opens_with_comm_size"] = M.SizedOpens;
  J["comm_size_sum"] = M.CommSizeSum;
  return J;
}

/// {"POSIX": {"ops", "time_us", "bytes_read", "bytes_written"}, ...}: the
/// I/O layers with calls; MPIIO also holds "mpiio" (its kinds).
Json layersJson(const IoTotals (&Layers)[NumIoLayers], const MpiStat &Mpi,
                const uint64_t *MetaOps = nullptr,
                const uint64_t *MetaTimeUs = nullptr) {
  Json J = Json::object();
  for (size_t L = 0; L < NumIoLayers; ++L) {
    if (!Layers[L].Ops)
      continue;
    Json T = totals(Layers[L]);
    if (MetaOps) {
      T["metadata_ops"] = MetaOps[L];
      T["metadata_time_us"] = MetaTimeUs[L];
    }
    if (ioLayer(L) == Layer::MpiIo)
      T["mpiio"] = mpiJson(Mpi);
    J[dftrace::layerName(ioLayer(L))] = std::move(T);
  }
  return J;
}

Json io(const IoBreakdown &S) {
  IoTotals R = S.reached();
  return Json{{"io_ops", R.Ops},
              {"io_time_us", R.TimeUs},
              {"io_bytes", R.bytes()},
              {"io_bytes_read", R.BytesRead},
              {"io_bytes_written", R.BytesWritten},
              {"layers", layersJson(S.Layers, S.Mpi)}};
}

Json valuesJson(const ValueCounts &V, size_t N) {
  Json J = Json::array();
  for (const auto &[Value, Count] : V.top(N))
    J.push_back({Value, Count});
  return J;
}

Json propsJson(const PropCounts &P) {
  Json J = Json::object();
  for (const auto &[Key, Values] : P) {
    if (Values.size() == 1) {
      J[Key] = Values.begin()->first; // one value: as the record said it
      continue;
    }
    Json All = Json::object(); // several: each with how many records
    for (const auto &[V, N] : Values)
      All[V] = N;
    J[Key] = std::move(All);
  }
  return J;
}

} // namespace

/// docs/analysis.md, "Access patterns": Darshan's counters and the rest.
/// A function's calls come from streams it shares with other functions, so
/// the figures over a stream's byte ranges (distinct bytes, bytes another
/// process covered) are not in its object.
Json accessJson(const AccessStats &S, bool OfFunction) {
  Json J{{"reads", S.Reads},
         {"writes", S.Writes},
         {"reads_without_offset", S.ReadsNoOffset},
         {"writes_without_offset", S.WritesNoOffset},
         {"seq_reads", S.SeqReads},
         {"seq_writes", S.SeqWrites},
         {"consec_reads", S.ConsecReads},
         {"consec_writes", S.ConsecWrites},
         {"rw_switches", S.RwSwitches},
         {"common_access", valuesJson(S.Sizes, 4)},
         {"strides", valuesJson(S.Strides, 4)},
         {"values_not_kept", {{"sizes", S.Sizes.Other},
                              {"strides", S.Strides.Other}}},
         {"not_aligned", S.NotAligned},
         {"not_aligned_bytes", S.NotAlignedBytes},
         {"alignment", S.alignment()},
         {"alignment_assumed", S.AlignAssumed}};
  if (S.alignment() == 0 && S.AlignMax)
    J["alignment_range"] = {S.AlignMin, S.AlignMax};
  if (S.calls()) {
    // Only processes that recorded their alignment are judged: an older
    // trace has no figure, never a 0.
    if (S.MemJudged) {
      J["mem_not_aligned"] = S.MemNotAligned;
      J["mem_alignment"] = S.memAlignment();
      if (!S.memAlignment())
        J["mem_alignment_range"] = {S.MemAlignMin, S.MemAlignMax};
      if (S.MemJudged < S.calls())
        J["mem_not_recorded"] = S.calls() - S.MemJudged;
    } else {
      J["mem_alignment"] = "unknown, not recorded";
    }
  }
  J["max_byte_read"] = S.MaxByteRead;
  J["max_byte_written"] = S.MaxByteWritten;
  if (!OfFunction) {
    J["redundant_bytes_read"] = S.RedundantRead + S.CrossRead;
    J["redundant_bytes_written"] = S.RedundantWritten + S.CrossWritten;
  }
  J["redundant_read_same_process"] = S.RedundantRead;
  J["redundant_written_same_process"] = S.RedundantWritten;
  if (!OfFunction) {
    J["redundant_read_other_processes"] = S.CrossRead;
    J["redundant_written_other_processes"] = S.CrossWritten;
    J["distinct_bytes_read"] = S.DistinctRead;
    J["distinct_bytes_written"] = S.DistinctWritten;
  }
  J["redundant_at_least"] = S.RangesCapped != 0;
  return J;
}

namespace {

Json fileJson(const Report &R, const FileFigures &F) {
  const FileStat &S = *F.S;
  Json J{{"path", F.Path},
         {"ops", F.Reached.Ops},
         {"time_us", F.Reached.TimeUs},
         {"bytes_read", F.Reached.BytesRead},
         {"bytes_written", F.Reached.BytesWritten},
         {"metadata_ops", F.MetaOps},
         {"metadata_time_us", F.MetaTimeUs},
         {"opens", S.reachedCalls(dftrace::Op::Open)},
         {"seeks", S.reachedCalls(dftrace::Op::Seek)},
         {"processes", S.Processes},
         {"layers", layersJson(S.Layers, S.Mpi, S.MetaOps, S.MetaTimeUs)}};
  J["fs_type"] = S.Fs.Type.empty() ? "unknown" : S.Fs.Type;
  if (mpiSharedMemory(F.Path)) // MPI's transport, not the program's data
    J["mpi_shared_memory"] = true;
  if (!S.Fs.Type.empty()) {
    Json Fs{{"mount", S.Fs.Mount}, {"block_size", S.Fs.BlockSize}};
    if (S.Fs.StripeSize || S.Fs.StripeCount) {
      Fs["stripe_size"] = S.Fs.StripeSize;
      Fs["stripe_count"] = S.Fs.StripeCount;
    }
    if (!S.Fs.Magic.empty())
      Fs["magic"] = S.Fs.Magic;
    J["fs"] = std::move(Fs);
  }
  J["access"] = accessJson(S.reachedAccess());
  Json Access = Json::object();
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (!S.Access[L].empty())
      Access[dftrace::layerName(ioLayer(L))] = accessJson(S.Access[L]);
  J["access_by_layer"] = std::move(Access);
  FileRankFigures Rk = R.fileRanks(S);
  J["ranks"] = {{"count", Rk.Ranks},
                {"shared", Rk.Ranks > 1},
                {"fewest_bytes", {{"rank", Rk.MinBytesRank}, {"bytes", Rk.MinBytes}}},
                {"most_bytes", {{"rank", Rk.MaxBytesRank}, {"bytes", Rk.MaxBytes}}},
                {"fastest", {{"rank", Rk.MinTimeRank}, {"time_us", Rk.MinTimeUs}}},
                {"slowest", {{"rank", Rk.MaxTimeRank}, {"time_us", Rk.MaxTimeUs}}},
                {"bytes_variance", rounded(Rk.BytesVariance)},
                {"time_variance_us2", rounded(Rk.TimeVariance)}};
  unsigned Mask = bottomLayers(S.Layers);
  uint64_t ReadUs = 0, WriteUs = 0;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L)) {
      ReadUs += S.ReadTimeUs[L];
      WriteUs += S.WriteTimeUs[L];
    }
  J["time_split_us"] = {{"read", ReadUs}, {"write", WriteUs},
                        {"metadata", F.MetaTimeUs}};
  if (S.FirstOpenUs != std::numeric_limits<int64_t>::max())
    J["first_open_us"] = S.FirstOpenUs;
  if (S.LastCloseUs != std::numeric_limits<int64_t>::min())
    J["last_close_us"] = S.LastCloseUs;
  SlowCall Slow = S.reachedSlowest();
  if (!Slow.Name.empty())
    J["slowest_call"] = {{"name", Slow.Name},
                         {"dur_us", Slow.DurUs},
                         {"bytes", Slow.Bytes},
                         {"rank", R.rankLabel(Slow.FileIndex, Slow.Pid)}};
  const MpiFileInfo &M = S.MpiInfo;
  if (!M.empty()) {
    Json Mj{{"opens_with_hints", M.Opens}, {"hints", propsJson(M.Hints)}};
    Json Sizes = Json::object(), Modes = Json::object();
    for (const auto &[V, N] : M.CommSizes)
      Sizes[std::to_string(V)] = N;
    for (const auto &[V, N] : M.Amodes)
      Modes[std::to_string(V)] = N;
    Mj["comm_sizes"] = std::move(Sizes);
    Mj["amodes"] = std::move(Modes);
    Json Views = Json::array();
    for (const auto &[V, N] : M.Views)
      Views.push_back({{"etype_size", V[0]},
                       {"filetype_size", V[1]},
                       {"filetype_extent", V[2]},
                       {"contiguous", V[3]},
                       {"calls", N}});
    Mj["views"] = std::move(Views);
    J["mpiio"] = std::move(Mj);
  }
  if (S.Hdf5Opens)
    J["hdf5"] = {{"opens", S.Hdf5Opens}, {"properties", propsJson(S.Hdf5Props)}};
  return J;
}

Json datasetJson(const std::pair<std::string, std::string> &Key,
                 const DatasetStat &D) {
  uint64_t Calls = D.Reads.Ops + D.Writes.Ops;
  Json J{{"file", Key.first},
         {"dset", Key.second},
         {"records", D.Opens},
         {"properties", propsJson(D.Props)},
         {"reads", opStat(D.Reads)},
         {"writes", opStat(D.Writes)},
         {"collective", D.Collective},
         {"independent", D.Independent},
         {"collective_share",
          rounded(Calls ? static_cast<double>(D.Collective) /
                              static_cast<double>(Calls)
                        : 0)},
         {"selection_elements", D.Selection},
         {"transfer_sizes", valuesJson(D.Sizes, 4)}};
  Json Modes = Json::object();
  for (const auto &[M, N] : D.IoModes)
    Modes[M] = N;
  J["io_mode"] = std::move(Modes);
  return J;
}

/// The runtime's records of what the traces do not hold.
/// Per program, its coverage record (issue 38): the counts and every
/// source not annotated that the record lists.
Json coverageJson(const Report &R) {
  Json Out = Json::array();
  for (const ProgramCoverage &G : programCoverage(R)) {
    const CoverageStat &C = *G.C;
    Json Files = Json::array();
    for (const CoverageSource &F : C.Files)
      Files.push_back(
          {{"file", F.File}, {"status", F.Status}, {"reason", F.Reason}});
    Out.push_back({{"program", C.Program},
                   {"sources", C.Sources},
                   {"annotated", C.Annotated},
                   {"failed", C.Failed},
                   {"excluded", C.Excluded},
                   {"not_annotated", G.notAnnotated()},
                   {"truncated", C.Truncated},
                   {"processes", G.Ranks.size()},
                   {"ranks", G.Ranks},
                   {"files", std::move(Files)}});
  }
  return Out;
}

void recordsJson(Json &J, const Report &R) {
  const Aggregate &A = R.A;
  Json Untraced = Json::array();
  for (const auto &[Dir, U] : A.Untraced)
    Untraced.push_back({{"dir", Dir},
                        {"opens", U.Opens},
                        {"reads", U.Reads},
                        {"writes", U.Writes},
                        {"bytes_read", U.BytesRead},
                        {"bytes_written", U.BytesWritten},
                        {"processes", U.Processes}});
  J["untraced"] = std::move(Untraced);
  Json Bypassed = Json::array();
  for (const BypassFigures &B : R.Bypassed)
    Bypassed.push_back({{"layer", B.B->Layer},
                        {"symbol", B.B->Symbol},
                        {"library", B.B->Library},
                        {"fix", B.B->Fix},
                        {"processes", B.Ranks.size()},
                        {"ranks", B.Ranks}});
  J["layer_bypassed"] = std::move(Bypassed);
  Json Stopped = Json::array();
  for (const StopFigures &F : R.Stopped) {
    const StopRecord &S = *F.S;
    Json E{{"rank", F.Rank},
           {"pid", S.Pid},
           {"file", A.FileNames[S.FileIndex]},
           {"reason", S.Reason}};
    if (!S.Error.empty())
      E["error"] = S.Error;
    E["limit"] = S.Limit;
    E["written"] = S.Written;
    if (S.TsUs >= 0)
      E["ts"] = S.TsUs;
    Stopped.push_back(std::move(E));
  }
  J["trace_stopped"] = std::move(Stopped);
  Json Throttled = Json::array();
  for (const ThrottleFigures &F : R.Throttled) {
    Throttled.push_back({{"function", F.Function},
                         {"fcat", F.FCat},
                         {"calls", F.S->Calls},
                         {"time_us", F.S->DurUs},
                         {"bytes", F.S->Bytes},
                         {"processes", F.S->Processes},
                         {"reason", reasonsText(F.S->Reasons)}});
    if (F.S->SampledTime)
      Throttled.back()["time"] = "sampled"; // time_us is an estimate
  }
  J["throttled"] = std::move(Throttled);
}

Json layerJson(const LayerFigures &F) {
  const LayerStat &S = *F.S;
  Json J{{"ops", S.Totals.Ops},
         {"bytes_read", S.Totals.BytesRead},
         {"bytes_written", S.Totals.BytesWritten},
         {"time_us", S.Totals.TimeUs},
         {"union_us", F.UnionSumUs},
         {"union_max_us", F.UnionMaxUs},
         {"union_max_rank", F.UnionMaxRank},
         {"bandwidth_mib_s", rounded(F.BandwidthSlowestMiBs)},
         {"bandwidth_per_call_mib_s", rounded(F.BandwidthPerCallMiBs)}};
  if (S.Throttled.Ops)
    J["throttled"] = opStat(S.Throttled);
  if (!dftrace::isIoLayer(F.L))
    return J;
  J["failed"] = S.Failed;
  J["data"] = {{"ops", F.Data.Ops},
               {"time_us", F.Data.TimeUs},
               {"fraction", rounded(F.DataFraction)}};
  J["metadata"] = {{"ops", F.Metadata.Ops},
                   {"time_us", F.Metadata.TimeUs},
                   {"fraction", rounded(F.MetadataFraction)}};
  J["other"] = {{"ops", F.Other.Ops}, {"time_us", F.Other.TimeUs}};
  if (F.L == Layer::MpiIo)
    J["mpiio"] = mpiJson(S.Mpi);
  if (!S.Access.empty())
    J["access"] = accessJson(S.Access);
  Json Ops = Json::object();
  for (size_t O = 0; O < NumOps; ++O)
    if (S.ByOp[O].Ops)
      Ops[dftrace::opName(static_cast<Op>(O))] = opStat(S.ByOp[O]);
  J["operations"] = std::move(Ops);
  return J;
}

} // namespace

std::string jsonText(const Json &J, int Indent) {
  return J.dump(Indent, ' ', false, Json::error_handler_t::replace);
}

Json reportJson(const Report &R, const OutputOptions &O) {
  const Aggregate &A = R.A;
  Json J;
  J["schema"] = JsonSchema;
  J["tool"] = "dftracer-analyze";
  // Settings that never took effect first, and the run's configuration;
  // both absent for a trace without the records (issue 35).
  if (std::vector<std::string> Tc = tuningCaveats(R); !Tc.empty())
    J["tuning_caveats"] = std::move(Tc);
  if (Json Config = configurationJson(R); !Config.empty())
    J["configuration"] = std::move(Config);
  if (Json Coverage = coverageJson(R); !Coverage.empty())
    J["coverage"] = std::move(Coverage);
  recordsJson(J, R);
  if (O.Findings)
    J["findings"] = findingsJson(*O.Findings);
  J["files"] = A.FileNames.size();
  J["events"] = A.Events;
  J["lines"] = A.Lines;
  J["text_bytes"] = A.TextBytes;
  J["spans"] = A.Spans;
  J["metadata_events"] = A.MetadataEvents;
  J["other_phase_events"] = A.OtherPhases;
  J["unattributed_spans"] = A.Unattributed;
  J["time"] = {{"first_us", R.FirstUs},
               {"last_us", R.LastUs},
               {"span_us", R.LastUs - R.FirstUs}};

  Json Counts = Json::object();
  for (size_t I = 0; I < NumIssues; ++I)
    Counts[dftrace::issueName(static_cast<Issue>(I))] = A.IssueCounts[I];
  Json First = Json::array();
  for (const IssueRecord &I : A.Issues)
    First.push_back({{"file", A.FileNames[I.FileIndex]},
                     {"line", I.Line},
                     {"kind", dftrace::issueName(I.Kind)},
                     {"message", I.Message}});
  J["issues"] = {{"total", A.issueTotal()},
                 {"counts", std::move(Counts)},
                 {"first", std::move(First)}};
  Json Caveats = Json::array();
  for (const CaveatRecord &C : A.Caveats)
    Caveats.push_back(
        {{"file", A.FileNames[C.FileIndex]}, {"message", C.Message}});
  // The run's own (issue 38), "file" "": sources not annotated, per
  // program, in programCoverage's order; how to get function names.
  std::vector<ProgramCoverage> Programs = programCoverage(R);
  std::vector<std::string> Coverage = coverageCaveats(R);
  for (size_t I = 0, C = 0; I < Programs.size(); ++I)
    if (Programs[I].notAnnotated())
      Caveats.push_back({{"file", ""},
                         {"program", Programs[I].C->Program},
                         {"message", Coverage[C++]}});
  if (std::string H = functionNamesHint(R); !H.empty())
    Caveats.push_back({{"file", ""}, {"message", H}});
  J["caveats"] = std::move(Caveats);
  J["tracer_spans"] = A.TracerSpans;
  J["aggregated_records"] = A.AggregatedRecords;

  Json Layers = Json::object();
  for (const LayerFigures &F : R.Layers)
    Layers[dftrace::layerName(F.L)] = layerJson(F);
  J["layers"] = std::move(Layers);
  IoTotals Reached = A.Io.reached();
  J["io"] = {{"ops", A.Io.Once.Ops},
             {"time_us", A.Io.Once.TimeUs},
             {"bytes_read", A.Io.Once.BytesRead},
             {"bytes_written", A.Io.Once.BytesWritten},
             {"reached", {{"bytes_read", Reached.BytesRead},
                          {"bytes_written", Reached.BytesWritten}}},
             {"layers", layersJson(A.Io.Layers, A.Io.Mpi)}};
  if (SharedMemoryFigures M = sharedMemoryFigures(R); M.Files)
    J["mpi_shared_memory"] = {{"files", M.Files},
                              {"layers", layersJson(M.Layers, MpiStat())},
                              {"message", sharedMemoryCaveat(R)}};

  Json Sizes;
  Json Bins = Json::array();
  for (size_t B = 0; B < NumSizeBins; ++B)
    Bins.push_back(dftrace::sizeBinName(B));
  Sizes["bins"] = std::move(Bins);
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L))
      continue;
    Json Read = Json::array(), Write = Json::array();
    for (size_t B = 0; B < NumSizeBins; ++B) {
      Read.push_back(F.S->ReadBins[B]);
      Write.push_back(F.S->WriteBins[B]);
    }
    Sizes[dftrace::layerName(F.L)] = {{"read", std::move(Read)},
                                      {"write", std::move(Write)}};
  }
  J["sizes"] = std::move(Sizes);

  // A file of both lists (the top files by time and by bytes are mostly
  // the same) is made once: a file's object reads every process that used
  // it (Report::fileRanks), twice was most of the report at 100,000 ranks
  // (issue 41).
  std::map<const FileStat *, Json> Made;
  auto Object = [&](const FileFigures &F) -> const Json & {
    auto It = Made.find(F.S);
    if (It == Made.end())
      It = Made.emplace(F.S, fileJson(R, F)).first;
    return It->second;
  };
  Json ByTime = Json::array(), ByBytes = Json::array();
  for (size_t I = 0; I < R.FilesByTime.size() && I < O.Top; ++I) {
    ByTime.push_back(Object(R.FilesByTime[I]));
    ByBytes.push_back(Object(R.FilesByBytes[I]));
  }
  J["file_count"] = A.Files.size();
  J["file_classes"] = {{"read_only", R.FileClasses.ReadOnly},
                       {"write_only", R.FileClasses.WriteOnly},
                       {"read_write", R.FileClasses.ReadWrite},
                       {"no_data", R.FileClasses.NoData}};
  J["files_top"] = {{"by_time", std::move(ByTime)},
                    {"by_bytes", std::move(ByBytes)}};
  if (O.AllFiles) {
    // "files" keeps schema 1's meaning (trace files given): the list of
    // every file is "files_all", by path.
    Json All = Json::array();
    std::vector<const FileFigures *> ByPath;
    for (const FileFigures &F : R.FilesByTime)
      ByPath.push_back(&F);
    std::sort(ByPath.begin(), ByPath.end(),
              [](const FileFigures *X, const FileFigures *Y) {
                return X->Path < Y->Path;
              });
    for (const FileFigures *F : ByPath) {
      auto It = Made.find(F->S);
      All.push_back(It == Made.end() ? fileJson(R, *F) : It->second);
    }
    J["files_all"] = std::move(All);
  }
  Json Datasets = Json::array();
  for (const auto &[Key, D] : A.Datasets)
    Datasets.push_back(datasetJson(Key, D));
  J["datasets"] = std::move(Datasets);

  auto RankRow = [&](const RankFigures &Rk) {
    const ProcessStat &P = *Rk.P;
    Json Union = Json::object();
    for (size_t L = 0; L < NumLayers; ++L)
      if (A.Layers[L].Totals.Ops)
        Union[dftrace::layerName(static_cast<Layer>(L))] = P.UnionUs[L];
    Json Row({{"rank", Rk.Label},
              {"pid", P.Pid},
              {"file", A.FileNames[P.FileIndex]},
              {"events", P.Events},
              {"threads", P.Threads},
              {"wall_us", P.wallUs()},
              {"io_time_us", P.IoUnionUs},
              {"io_ops", P.Io.Once.Ops},
              {"io_bytes_read", P.Io.reached().BytesRead},
              {"io_bytes_written", P.Io.reached().BytesWritten},
              {"union_us", Union},
              {"layers", layersJson(P.Io.Layers, P.Io.Mpi)}});
    if (!P.Access.empty())
      Row["access"] = accessJson(P.Access);
    if (!P.Host.empty())
      Row["node"] = {
          {"hostname", P.Host}, {"mem_total", P.MemTotal}, {"cpus", P.Cpus}};
    return Row;
  };
  Json Ranks{{"count", R.Ranks.size()},
             {"mean_io_time_us", rounded(R.MeanIoUs)},
             {"imbalance", rounded(R.Imbalance)}};
  if (R.Slowest)
    Ranks["slowest"] = {{"rank", R.Slowest->Label},
                        {"io_time_us", R.Slowest->P->IoUnionUs}};
  if (summarizeRanks(R, O)) {
    // Past the threshold: the slowest and fastest O.Top, and quantiles;
    // --all-ranks brings back "list" (docs/analysis.md "At scale").
    std::vector<const RankFigures *> Order = ranksBySlowest(R);
    size_t Top = std::min(O.Top, Order.size());
    size_t Bottom = std::min(O.Top, Order.size() - Top);
    Json Slow = Json::array(), Fast = Json::array(), Quantiles = Json::array();
    for (size_t I = 0; I < Top; ++I)
      Slow.push_back(RankRow(*Order[I]));
    for (size_t I = 0; I < Bottom; ++I)
      Fast.push_back(RankRow(*Order[Order.size() - 1 - I]));
    for (const RankQuantile &Q : rankQuantiles(Order))
      Quantiles.push_back({{"quantile", quantileName(Q.Q)},
                           {"rank", Q.Rank->Label},
                           {"io_time_us", Q.Rank->P->IoUnionUs}});
    Ranks["summarized_above"] = O.SummarizeRanksAbove;
    Ranks["quantiles"] = std::move(Quantiles);
    Ranks["top"] = std::move(Slow);
    Ranks["bottom"] = std::move(Fast);
  } else {
    Json List = Json::array();
    for (const RankFigures &Rk : R.Ranks)
      List.push_back(RankRow(Rk));
    Ranks["list"] = std::move(List);
  }
  J["ranks"] = std::move(Ranks);

  Json Functions = Json::array();
  for (const FunctionFigures &F : R.Functions) {
    Json Fn{{"name", F.Name}, {"calls", F.S->Calls}, {"time_us", F.S->TimeUs}};
    Fn.update(io(F.S->Direct));
    Fn["inclusive"] = io(F.S->Inclusive);
    if (!F.S->Access.empty())
      Fn["access"] = accessJson(F.S->Access, true);
    if (F.S->ThrottledCalls)
      Fn["throttled"] = {{"calls", F.S->ThrottledCalls},
                         {"time_us", F.S->ThrottledUs},
                         {"reason", reasonsText(F.S->ThrottleReasons)}};
    if (F.S->SampledTime) // time_us (and throttled.time_us) partly estimated
      Fn["throttled"]["time"] = "sampled";
    Functions.push_back(std::move(Fn));
  }
  J["functions"] = std::move(Functions);

  Json Unknown = Json::array();
  for (const auto &[Key, N] : A.UnknownOps)
    Unknown.push_back({{"layer", dftrace::layerName(static_cast<Layer>(Key.first))},
                       {"name", Key.second},
                       {"ops", N}});
  J["unknown_operations"] = std::move(Unknown);
  return J;
}

} // namespace dftanalyze
