//===- Aggregate.cpp - What the analyzer counts ---------------------------===//

#include "Aggregate.h"

#include <algorithm>
#include <tuple>

namespace dftanalyze {

namespace {

bool issueBefore(const IssueRecord &A, const IssueRecord &B) {
  return std::tie(A.FileIndex, A.Line, A.Kind, A.Message) <
         std::tie(B.FileIndex, B.Line, B.Kind, B.Message);
}

void trimIssues(std::vector<IssueRecord> &Issues) {
  std::sort(Issues.begin(), Issues.end(), issueBefore);
  if (Issues.size() > Aggregate::MaxIssues)
    Issues.resize(Aggregate::MaxIssues);
}

} // namespace

void LayerStat::merge(const LayerStat &O) {
  Totals.merge(O.Totals);
  Failed += O.Failed;
  for (size_t I = 0; I < NumOps; ++I)
    ByOp[I].merge(O.ByOp[I]);
  for (size_t I = 0; I < NumSizeBins; ++I) {
    ReadBins[I] += O.ReadBins[I];
    WriteBins[I] += O.WriteBins[I];
  }
}

void Aggregate::addIssue(uint32_t FileIndex, uint64_t Line, Issue Kind,
                         std::string Message) {
  ++IssueCounts[static_cast<size_t>(Kind)];
  Issues.push_back({FileIndex, Line, Kind, std::move(Message)});
  if (Issues.size() >= 4 * MaxIssues)
    trimIssues(Issues);
}

uint64_t Aggregate::issueTotal() const {
  uint64_t N = 0;
  for (uint64_t C : IssueCounts)
    N += C;
  return N;
}

void Aggregate::merge(Aggregate &&O) {
  FilesUnreadable += O.FilesUnreadable;
  Events += O.Events;
  Lines += O.Lines;
  TextBytes += O.TextBytes;
  Spans += O.Spans;
  MetadataEvents += O.MetadataEvents;
  OtherPhases += O.OtherPhases;
  Unattributed += O.Unattributed;
  TracerSpans += O.TracerSpans;
  AggregatedRecords += O.AggregatedRecords;
  for (CaveatRecord &C : O.Caveats)
    Caveats.push_back(std::move(C));
  for (size_t L = 0; L < NumLayers; ++L)
    Layers[L].merge(O.Layers[L]);
  Io.merge(O.Io);
  for (auto &[Name, F] : O.Functions)
    Functions[Name].merge(F);
  for (auto &[Path, F] : O.Files)
    Files[Path].merge(F);
  for (auto &[Key, N] : O.UnknownOps)
    UnknownOps[Key] += N;
  for (ProcessStat &P : O.Processes)
    Processes.push_back(std::move(P));
  for (size_t I = 0; I < NumIssues; ++I)
    IssueCounts[I] += O.IssueCounts[I];
  for (IssueRecord &R : O.Issues)
    Issues.push_back(std::move(R));
  if (Issues.size() >= 4 * MaxIssues)
    trimIssues(Issues);
}

void Aggregate::finish() {
  std::sort(Processes.begin(), Processes.end(),
            [](const ProcessStat &A, const ProcessStat &B) {
              return std::tie(A.FileIndex, A.Pid) < std::tie(B.FileIndex, B.Pid);
            });
  trimIssues(Issues);
  std::stable_sort(Caveats.begin(), Caveats.end(),
                   [](const CaveatRecord &A, const CaveatRecord &B) {
                     return A.FileIndex < B.FileIndex;
                   });
}

} // namespace dftanalyze
