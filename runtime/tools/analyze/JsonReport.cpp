//===- JsonReport.cpp - The report as JSON (schema 1) ---------------------===//

#include "Output.h"

#include <cmath>

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
    J[dftrace::layerName(ioLayer(L))] = T;
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

Json fileJson(const FileFigures &F) {
  const FileStat &S = *F.S;
  return Json{{"path", F.Path},
              {"ops", F.Reached.Ops},
              {"time_us", F.Reached.TimeUs},
              {"bytes_read", F.Reached.BytesRead},
              {"bytes_written", F.Reached.BytesWritten},
              {"metadata_ops", F.MetaOps},
              {"metadata_time_us", F.MetaTimeUs},
              {"processes", S.Processes},
              {"layers", layersJson(S.Layers, S.Mpi, S.MetaOps, S.MetaTimeUs)}};
}

/// The runtime's records of what the traces do not hold.
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
  J["untraced"] = Untraced;
  Json Bypassed = Json::array();
  for (const BypassFigures &B : R.Bypassed)
    Bypassed.push_back({{"layer", B.B->Layer},
                        {"symbol", B.B->Symbol},
                        {"library", B.B->Library},
                        {"fix", B.B->Fix},
                        {"processes", B.Ranks.size()},
                        {"ranks", B.Ranks}});
  J["layer_bypassed"] = Bypassed;
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
    Stopped.push_back(E);
  }
  J["trace_stopped"] = Stopped;
  Json Throttled = Json::array();
  for (const ThrottleFigures &F : R.Throttled)
    Throttled.push_back({{"function", F.Function},
                         {"fcat", F.FCat},
                         {"calls", F.S->Calls},
                         {"time_us", F.S->DurUs},
                         {"bytes", F.S->Bytes},
                         {"processes", F.S->Processes},
                         {"reason", reasonsText(F.S->Reasons)}});
  J["throttled"] = Throttled;
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
  Json Ops = Json::object();
  for (size_t O = 0; O < NumOps; ++O)
    if (S.ByOp[O].Ops)
      Ops[dftrace::opName(static_cast<Op>(O))] = opStat(S.ByOp[O]);
  J["operations"] = Ops;
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
  J["issues"] = {{"total", A.issueTotal()}, {"counts", Counts}, {"first", First}};
  Json Caveats = Json::array();
  for (const CaveatRecord &C : A.Caveats)
    Caveats.push_back(
        {{"file", A.FileNames[C.FileIndex]}, {"message", C.Message}});
  J["caveats"] = Caveats;
  J["tracer_spans"] = A.TracerSpans;
  J["aggregated_records"] = A.AggregatedRecords;

  Json Layers = Json::object();
  for (const LayerFigures &F : R.Layers)
    Layers[dftrace::layerName(F.L)] = layerJson(F);
  J["layers"] = Layers;
  IoTotals Reached = A.Io.reached();
  J["io"] = {{"ops", A.Io.Once.Ops},
             {"time_us", A.Io.Once.TimeUs},
             {"bytes_read", A.Io.Once.BytesRead},
             {"bytes_written", A.Io.Once.BytesWritten},
             {"reached", {{"bytes_read", Reached.BytesRead},
                          {"bytes_written", Reached.BytesWritten}}},
             {"layers", layersJson(A.Io.Layers, A.Io.Mpi)}};

  Json Sizes;
  Json Bins = Json::array();
  for (size_t B = 0; B < NumSizeBins; ++B)
    Bins.push_back(dftrace::sizeBinName(B));
  Sizes["bins"] = Bins;
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L))
      continue;
    Json Read = Json::array(), Write = Json::array();
    for (size_t B = 0; B < NumSizeBins; ++B) {
      Read.push_back(F.S->ReadBins[B]);
      Write.push_back(F.S->WriteBins[B]);
    }
    Sizes[dftrace::layerName(F.L)] = {{"read", Read}, {"write", Write}};
  }
  J["sizes"] = Sizes;

  Json ByTime = Json::array(), ByBytes = Json::array();
  for (size_t I = 0; I < R.FilesByTime.size() && I < O.Top; ++I) {
    ByTime.push_back(fileJson(R.FilesByTime[I]));
    ByBytes.push_back(fileJson(R.FilesByBytes[I]));
  }
  J["file_count"] = A.Files.size();
  J["files_top"] = {{"by_time", ByTime}, {"by_bytes", ByBytes}};

  Json List = Json::array();
  for (const RankFigures &Rk : R.Ranks) {
    const ProcessStat &P = *Rk.P;
    Json Union = Json::object();
    for (size_t L = 0; L < NumLayers; ++L)
      if (A.Layers[L].Totals.Ops)
        Union[dftrace::layerName(static_cast<Layer>(L))] = P.UnionUs[L];
    List.push_back({{"rank", Rk.Label},
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
  }
  Json Ranks{{"count", R.Ranks.size()},
             {"mean_io_time_us", rounded(R.MeanIoUs)},
             {"imbalance", rounded(R.Imbalance)}};
  if (R.Slowest)
    Ranks["slowest"] = {{"rank", R.Slowest->Label},
                        {"io_time_us", R.Slowest->P->IoUnionUs}};
  Ranks["list"] = List;
  J["ranks"] = Ranks;

  Json Functions = Json::array();
  for (const FunctionFigures &F : R.Functions) {
    Json Fn{{"name", F.Name}, {"calls", F.S->Calls}, {"time_us", F.S->TimeUs}};
    Fn.update(io(F.S->Direct));
    Fn["inclusive"] = io(F.S->Inclusive);
    if (F.S->ThrottledCalls)
      Fn["throttled"] = {{"calls", F.S->ThrottledCalls},
                         {"time_us", F.S->ThrottledUs},
                         {"reason", reasonsText(F.S->ThrottleReasons)}};
    Functions.push_back(Fn);
  }
  J["functions"] = Functions;

  Json Unknown = Json::array();
  for (const auto &[Key, N] : A.UnknownOps)
    Unknown.push_back({{"layer", dftrace::layerName(static_cast<Layer>(Key.first))},
                       {"name", Key.second},
                       {"ops", N}});
  J["unknown_operations"] = Unknown;
  return J;
}

} // namespace dftanalyze
