//===- JsonReport.cpp - The report as JSON (schema 1) ---------------------===//

#include "Output.h"

#include <cmath>

namespace dftanalyze {

using Json = nlohmann::ordered_json;

namespace {

/// Three decimals: enough for MiB/s and fractions, and the same text on
/// every machine.
double rounded(double V) { return std::round(V * 1000.0) / 1000.0; }

Json io(const IoTotals &S) {
  return Json{{"io_ops", S.Ops},
              {"io_time_us", S.TimeUs},
              {"io_bytes", S.bytes()},
              {"io_bytes_read", S.BytesRead},
              {"io_bytes_written", S.BytesWritten}};
}

Json opStat(const OpStat &S) {
  return Json{{"ops", S.Ops}, {"time_us", S.TimeUs}, {"bytes", S.Bytes}};
}

Json fileJson(const FileFigures &F) {
  const FileStat &S = *F.S;
  return Json{{"path", F.Path},
              {"ops", S.Io.Ops},
              {"time_us", S.Io.TimeUs},
              {"bytes_read", S.Io.BytesRead},
              {"bytes_written", S.Io.BytesWritten},
              {"metadata_ops", S.MetaOps},
              {"metadata_time_us", S.MetaTimeUs},
              {"processes", S.Processes}};
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
  J["io"] = {{"ops", A.Io.Ops},
             {"time_us", A.Io.TimeUs},
             {"bytes_read", A.Io.BytesRead},
             {"bytes_written", A.Io.BytesWritten}};

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
                    {"io_ops", P.Io.Ops},
                    {"io_bytes_read", P.Io.BytesRead},
                    {"io_bytes_written", P.Io.BytesWritten},
                    {"union_us", Union}});
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
