//===- Report.cpp - The figures printed from an Aggregate -----------------===//

#include "Report.h"

#include <algorithm>
#include <map>
#include <cstdlib>
#include <limits>
#include <tuple>

namespace dftanalyze {

double mebibytesPerSecond(uint64_t Bytes, uint64_t Us) {
  if (Us == 0)
    return 0;
  return (static_cast<double>(Bytes) / 1048576.0) /
         (static_cast<double>(Us) / 1e6);
}

namespace {

bool isNumber(const std::string &S) {
  if (S.empty() || S.size() > 18)
    return false;
  return std::all_of(S.begin(), S.end(),
                     [](char C) { return C >= '0' && C <= '9'; });
}

} // namespace

Report::Report(const Aggregate &A) : A(A) {
  // Ranks first: the layers name their slowest one. Traces of several
  // programs (the demo's kernels) repeat rank numbers: then the label also
  // names the program, from the file name's prefix ("mpiio_shared-...").
  std::map<std::string, int> Seen;
  for (const ProcessStat &P : A.Processes)
    ++Seen[P.Rank];
  bool Repeated = std::any_of(Seen.begin(), Seen.end(), [](const auto &E) {
    return !E.first.empty() && E.second > 1;
  });
  for (const ProcessStat &P : A.Processes) {
    std::string Label = P.Rank.empty() ? "pid " + std::to_string(P.Pid) : P.Rank;
    std::string Program;
    if (Repeated && !A.FileNames.empty()) {
      const std::string &File = A.FileNames[P.FileIndex];
      size_t Slash = File.find_last_of('/');
      Program = File.substr(Slash == std::string::npos ? 0 : Slash + 1);
      Program = Program.substr(0, Program.find('-'));
      Label = Program + ":" + Label;
    }
    Ranks.push_back({&P, Label, Program});
  }
  std::stable_sort(Ranks.begin(), Ranks.end(),
                   [](const RankFigures &X, const RankFigures &Y) {
                     if (X.Program != Y.Program)
                       return X.Program < Y.Program;
                     bool NX = isNumber(X.P->Rank), NY = isNumber(Y.P->Rank);
                     if (NX != NY)
                       return NX; // numbered ranks first
                     if (NX)
                       return std::strtoull(X.P->Rank.c_str(), nullptr, 10) <
                              std::strtoull(Y.P->Rank.c_str(), nullptr, 10);
                     return false; // keep (file, pid) order
                   });
  FirstUs = std::numeric_limits<int64_t>::max();
  LastUs = std::numeric_limits<int64_t>::min();
  uint64_t IoSum = 0;
  for (const RankFigures &R : Ranks) {
    if (R.P->Spans) {
      FirstUs = std::min(FirstUs, R.P->FirstUs);
      LastUs = std::max(LastUs, R.P->LastUs);
    }
    IoSum += R.P->IoUnionUs;
    if (!Slowest || R.P->IoUnionUs > Slowest->P->IoUnionUs)
      Slowest = &R;
  }
  if (FirstUs > LastUs)
    FirstUs = LastUs = 0;
  if (!Ranks.empty()) {
    MeanIoUs = static_cast<double>(IoSum) / static_cast<double>(Ranks.size());
    Imbalance = MeanIoUs > 0
                    ? static_cast<double>(Slowest->P->IoUnionUs) / MeanIoUs
                    : 0;
  }

  for (size_t I = 0; I < NumLayers; ++I) {
    const LayerStat &S = A.Layers[I];
    if (!S.Totals.Ops)
      continue;
    LayerFigures F;
    F.L = static_cast<Layer>(I);
    F.S = &S;
    for (const RankFigures &R : Ranks) {
      uint64_t Us = R.P->UnionUs[I];
      F.UnionSumUs += Us;
      if (F.UnionMaxRank.empty() || Us > F.UnionMaxUs) {
        F.UnionMaxUs = Us;
        F.UnionMaxRank = R.Label;
      }
    }
    uint64_t Bytes = S.Totals.BytesRead + S.Totals.BytesWritten;
    F.BandwidthSlowestMiBs = mebibytesPerSecond(Bytes, F.UnionMaxUs);
    F.BandwidthPerCallMiBs = mebibytesPerSecond(Bytes, S.Totals.TimeUs);
    for (size_t O = 0; O < NumOps; ++O) {
      Op Kind = static_cast<Op>(O);
      OpStat &To = dftrace::isDataOp(Kind)       ? F.Data
                   : dftrace::isMetadataOp(Kind) ? F.Metadata
                                                 : F.Other;
      To.merge(S.ByOp[O]);
    }
    if (S.Totals.TimeUs) {
      F.MetadataFraction = static_cast<double>(F.Metadata.TimeUs) /
                           static_cast<double>(S.Totals.TimeUs);
      F.DataFraction = static_cast<double>(F.Data.TimeUs) /
                       static_cast<double>(S.Totals.TimeUs);
    }
    Layers.push_back(F);
  }

  for (const auto &[Name, S] : A.Functions)
    Functions.push_back({Name, &S});
  std::stable_sort(Functions.begin(), Functions.end(),
                   [](const FunctionFigures &X, const FunctionFigures &Y) {
                     return std::make_tuple(Y.S->Inclusive.TimeUs,
                                            Y.S->Direct.TimeUs, Y.S->TimeUs) <
                            std::make_tuple(X.S->Inclusive.TimeUs,
                                            X.S->Direct.TimeUs, X.S->TimeUs);
                   });
  for (const auto &[Path, S] : A.Files)
    FilesByTime.push_back({Path, &S});
  FilesByBytes = FilesByTime;
  std::stable_sort(FilesByTime.begin(), FilesByTime.end(),
                   [](const FileFigures &X, const FileFigures &Y) {
                     return X.S->Io.TimeUs > Y.S->Io.TimeUs;
                   });
  std::stable_sort(FilesByBytes.begin(), FilesByBytes.end(),
                   [](const FileFigures &X, const FileFigures &Y) {
                     return X.S->Io.bytes() > Y.S->Io.bytes();
                   });
}

} // namespace dftanalyze
