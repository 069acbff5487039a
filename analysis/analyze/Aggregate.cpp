//===- Aggregate.cpp - What the analyzer counts ---------------------------===//

#include "Aggregate.h"
#include "Analysis.h" // forEachFile, largestFirst: the paths on -j threads
#include "Report.h" // traceProgram: a job is named as Report names programs

#include <algorithm>
#include <tuple>

namespace dftanalyze {

namespace {

bool issueBefore(const IssueRecord &A, const IssueRecord &B) {
  return std::tie(A.FileIndex, A.Line, A.Kind, A.Message) <
         std::tie(B.FileIndex, B.Line, B.Kind, B.Message);
}

/// Processes in (file, pid) order (one each: the key is unique), each
/// record moved once: std::sort moved the 1.5 KB records log n times each,
/// 4 % of the run on 3,000 small files (issue 41). The keys are read once
/// into a compact list and sorted there: compared in place, each compare
/// read two records 1.5 KB apart (~10 ms of 70 at 100,000 ranks).
void sortProcesses(std::vector<ProcessStat> &Ps) {
  struct Key {
    uint32_t FileIndex;
    int64_t Pid;
    size_t Index;
  };
  std::vector<Key> Keys(Ps.size());
  for (size_t I = 0; I < Ps.size(); ++I)
    Keys[I] = {Ps[I].FileIndex, Ps[I].Pid, I};
  std::sort(Keys.begin(), Keys.end(), [](const Key &A, const Key &B) {
    return std::tie(A.FileIndex, A.Pid) < std::tie(B.FileIndex, B.Pid);
  });
  // Keys[I].Index: the record that goes to I (set to I once it is there).
  for (size_t I = 0; I < Keys.size(); ++I) {
    if (Keys[I].Index == I)
      continue;
    ProcessStat Held = std::move(Ps[I]); // the cycle through I
    size_t J = I;
    while (Keys[J].Index != I) {
      size_t From = Keys[J].Index;
      Ps[J] = std::move(Ps[From]);
      Keys[J].Index = J;
      J = From;
    }
    Ps[J] = std::move(Held);
    Keys[J].Index = J;
  }
}

/// Keeps the first MaxIssues issues; sorted only when Sorted (finish()):
/// the trims while files are read only select them, which does not sort
/// the hundreds of records kept (a file's missing-path issue made these
/// sorts 2 % of a run on many small files; issue 41).
void trimIssues(std::vector<IssueRecord> &Issues, bool Sorted = false) {
  auto Keep = Issues.begin() + static_cast<ptrdiff_t>(
                                   std::min(Issues.size(), Aggregate::MaxIssues));
  if (!Sorted) {
    std::nth_element(Issues.begin(), Keep, Issues.end(), issueBefore);
    Issues.erase(Keep, Issues.end());
    return;
  }
  std::sort(Issues.begin(), Issues.end(), issueBefore);
  Issues.resize(Keep - Issues.begin());
}

} // namespace

unsigned bottomLayers(const IoTotals (&Layers)[NumIoLayers]) {
  const unsigned Levels[] = {1u << ioSlot(Layer::Posix) | 1u << ioSlot(Layer::Stdio),
                             1u << ioSlot(Layer::MpiIo), 1u << ioSlot(Layer::Hdf5)};
  auto Sum = [&](unsigned Mask, bool Bytes) {
    uint64_t N = 0;
    for (size_t L = 0; L < NumIoLayers; ++L)
      if (Mask & (1u << L))
        N += Bytes ? Layers[L].bytes() : Layers[L].Ops;
    return N;
  };
  // The lowest level that moved bytes; without bytes, the lowest with calls.
  for (bool Bytes : {true, false})
    for (unsigned Mask : Levels)
      if (Sum(Mask, Bytes))
        return Mask;
  return 0;
}

namespace {

IoTotals sumOf(const IoTotals (&Layers)[NumIoLayers], unsigned Mask) {
  IoTotals T;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      T.merge(Layers[L]);
  return T;
}

} // namespace

IoTotals IoBreakdown::reached() const {
  IoTotals T = Once;
  IoTotals Bottom = sumOf(Layers, bottomLayers(Layers));
  T.BytesRead = Bottom.BytesRead;
  T.BytesWritten = Bottom.BytesWritten;
  return T;
}

IoTotals FileStat::reached() const {
  return sumOf(Layers, bottomLayers(Layers));
}

uint64_t FileStat::reachedCalls(dftrace::Op O) const {
  uint64_t PerLayer[NumIoLayers];
  for (size_t L = 0; L < NumIoLayers; ++L)
    PerLayer[L] = Calls[L][static_cast<size_t>(O)];
  return reachedSum(PerLayer);
}

uint64_t FileStat::reachedSum(const uint64_t (&PerLayer)[NumIoLayers]) const {
  unsigned Mask = bottomLayers(Layers);
  uint64_t N = 0;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      N += PerLayer[L];
  return N;
}

AccessStats FileStat::reachedAccess() const {
  unsigned Mask = bottomLayers(Layers);
  AccessStats A;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      A.merge(Access[L]);
  return A;
}

SlowCall FileStat::reachedSlowest() const {
  unsigned Mask = bottomLayers(Layers);
  SlowCall S;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if ((Mask & (1u << L)) && Slowest[L].slowerThan(S))
      S = Slowest[L];
  return S;
}

uint64_t capRanges(std::vector<ProcessRanges> &Ranges) {
  // Under the cap all are kept, in any order (the cross-process bytes do
  // not depend on it): sorting thousands of ranks' records, each moved
  // with its two lists, was a seventh of Aggregate::finish (issue 41).
  size_t All = 0;
  for (const ProcessRanges &R : Ranges)
    All += R.size();
  if (All <= MaxCrossRanges)
    return 0;
  std::sort(Ranges.begin(), Ranges.end());
  size_t Held = 0, Keep = 0;
  while (Keep < Ranges.size() && Held + Ranges[Keep].size() <= MaxCrossRanges)
    Held += Ranges[Keep++].size();
  uint64_t Dropped = Ranges.size() - Keep;
  Ranges.resize(Keep);
  return Dropped;
}

void FileStat::finishAccess() {
  for (size_t L = 0; L < NumIoLayers; ++L) {
    RangesDropped[L] += capRanges(Ranges[L]);
    Access[L].RangesCapped += RangesDropped[L]; // "at least"
    std::vector<const RangeList *> Read, Write;
    Read.reserve(Ranges[L].size());
    Write.reserve(Ranges[L].size());
    for (const ProcessRanges &R : Ranges[L]) {
      if (!R.Read.empty())
        Read.push_back(&R.Read);
      if (!R.Write.empty())
        Write.push_back(&R.Write);
    }
    Access[L].CrossRead = crossBytes(Read);
    Access[L].CrossWritten = crossBytes(Write);
    Ranges[L].clear();
    Ranges[L].shrink_to_fit();
    RangeCount[L] = 0;
  }
  std::sort(Ranks.begin(), Ranks.end());
}

void JobFileStat::add(const FileStat &S) {
  for (size_t L = 0; L < NumIoLayers; ++L) {
    Layers[L].merge(S.Layers[L]);
    ReadTimeUs[L] += S.ReadTimeUs[L];
    ReadOps[L] += S.Calls[L][static_cast<size_t>(dftrace::Op::Read)];
    WriteOps[L] += S.Calls[L][static_cast<size_t>(dftrace::Op::Write)];
    AccessRead[L] += S.Access[L].BytesRead;
    AccessWritten[L] += S.Access[L].BytesWritten;
    RedundantRead[L] += S.Access[L].RedundantRead;
    RedundantWritten[L] += S.Access[L].RedundantWritten;
    CrossRead[L] += S.Access[L].CrossRead;
    CrossWritten[L] += S.Access[L].CrossWritten;
  }
  Processes += S.Processes;
}

void JobFileStat::merge(const JobFileStat &O) {
  for (size_t L = 0; L < NumIoLayers; ++L) {
    Layers[L].merge(O.Layers[L]);
    ReadTimeUs[L] += O.ReadTimeUs[L];
    ReadOps[L] += O.ReadOps[L];
    WriteOps[L] += O.WriteOps[L];
    AccessRead[L] += O.AccessRead[L];
    AccessWritten[L] += O.AccessWritten[L];
    RedundantRead[L] += O.RedundantRead[L];
    RedundantWritten[L] += O.RedundantWritten[L];
    CrossRead[L] += O.CrossRead[L];
    CrossWritten[L] += O.CrossWritten[L];
  }
  Processes += O.Processes;
}

uint64_t JobFileStat::movedAgain(unsigned Mask) const {
  uint64_t N = 0;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      N += RedundantRead[L] + RedundantWritten[L] + CrossRead[L] +
           CrossWritten[L];
  return N;
}

uint64_t JobFileStat::accessBytes(unsigned Mask) const {
  uint64_t N = 0;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      N += AccessRead[L] + AccessWritten[L];
  return N;
}

std::string jobKey(const ProcessStat &P, const std::string &TraceFile) {
  const ProcessConfig &C = P.Config;
  if (C.HasConfig) {
    std::string K = "c" + C.Exe;
    for (const std::string &Arg : C.Argv)
      K += '\0' + Arg;
    // Two launches of one command are two jobs (a trace without the
    // launch key groups them, as before it was recorded).
    if (!C.Launch.empty())
      K += std::string(1, '\0') + '\0' + C.Launch;
    return K;
  }
  return "t" + traceProgram(TraceFile);
}

std::string jobKey(const ProcessStat &P,
                   const std::vector<std::string> &FileNames) {
  if (P.Config.HasConfig || P.FileIndex < FileNames.size())
    return jobKey(P, P.FileIndex < FileNames.size() ? FileNames[P.FileIndex]
                                                    : std::string());
  return "#" + std::to_string(P.FileIndex);
}

bool sameJobKey(const ProcessStat *X, const ProcessStat &Y,
                const std::vector<std::string> &FileNames,
                std::string &Program) {
  // The parts of jobKey above, compared instead of spelled out.
  auto Named = [&](const ProcessStat &P) {
    return !P.Config.HasConfig && P.FileIndex < FileNames.size();
  };
  bool XNamed = X && Named(*X);
  if (Named(Y) && !(XNamed && X->FileIndex == Y.FileIndex)) {
    std::string YProgram = traceProgram(FileNames[Y.FileIndex]);
    bool Same = XNamed && YProgram == Program;
    Program = std::move(YProgram);
    return Same;
  }
  if (!X)
    return false;
  if (Named(Y)) // X's file
    return true;
  const ProcessConfig &CX = X->Config, &CY = Y.Config;
  if (CX.HasConfig != CY.HasConfig)
    return false;
  if (CY.HasConfig)
    return CX.Exe == CY.Exe && CX.Argv == CY.Argv && CX.Launch == CY.Launch;
  return !XNamed && X->FileIndex == Y.FileIndex; // "#" and the index
}

namespace {

/// Aggregate::finish's part for JobFiles, before the files' own figures
/// (which drop the ranges; the keys are final: FileAnalyzer keys each
/// process's part by its job at file end): on a file that several jobs
/// used, the bytes
/// two processes both covered are counted within each job, from the same
/// ranges (capped as FileStat::finishAccess caps them). A file one job
/// used keeps the file's figure (finishJobsAfter).
void finishJobsBefore(Aggregate &A) {
  std::map<std::string, std::vector<std::pair<std::string, JobFileStat *>>>
      ByPath;
  for (auto &[Key, J] : A.JobFiles)
    ByPath[Key.second].push_back({Key.first, &J});
  // Each process's job, only when a file has several (a key per process
  // was a tenth of a second at 100,000 ranks of one job, issue 41).
  std::map<std::pair<uint32_t, int64_t>, std::string> JobOf;
  for (auto &[Path, Jobs] : ByPath) {
    auto F = A.Files.find(Path);
    if (Jobs.size() < 2 || F == A.Files.end())
      continue;
    if (JobOf.empty())
      for (const ProcessStat &P : A.Processes)
        JobOf[{P.FileIndex, P.Pid}] = jobKey(P, A.FileNames);
    for (size_t L = 0; L < NumIoLayers; ++L) {
      F->second.RangesDropped[L] += capRanges(F->second.Ranges[L]);
      std::map<std::string, std::vector<const RangeList *>> Read, Write;
      for (const ProcessRanges &R : F->second.Ranges[L]) {
        auto It = JobOf.find({R.FileIndex, R.Pid});
        std::string Job = It == JobOf.end() ? std::string() : It->second;
        if (!R.Read.empty())
          Read[Job].push_back(&R.Read);
        if (!R.Write.empty())
          Write[Job].push_back(&R.Write);
      }
      for (auto &[Job, J] : Jobs) {
        J->CrossRead[L] = crossBytes(Read[Job]);
        J->CrossWritten[L] = crossBytes(Write[Job]);
      }
    }
  }
}

/// A file one job used: the job's cross-process bytes are the file's.
void finishJobsAfter(Aggregate &A) {
  std::map<std::string, size_t> Jobs; // path -> jobs that used it
  for (const auto &[Key, J] : A.JobFiles)
    ++Jobs[Key.second];
  for (auto &[Key, J] : A.JobFiles) {
    auto F = A.Files.find(Key.second);
    if (Jobs[Key.second] != 1 || F == A.Files.end())
      continue;
    for (size_t L = 0; L < NumIoLayers; ++L) {
      J.CrossRead[L] = F->second.Access[L].CrossRead;
      J.CrossWritten[L] = F->second.Access[L].CrossWritten;
    }
  }
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
  Mpi.merge(O.Mpi);
  Throttled.merge(O.Throttled);
  Access.merge(O.Access);
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
  Diag.merge(std::move(O.Diag));
  for (size_t L = 0; L < NumLayers; ++L)
    Layers[L].merge(O.Layers[L]);
  Io.merge(O.Io);
  for (auto &[Name, F] : O.Functions)
    Functions[Name].merge(F);
  for (auto &[Path, F] : O.Files)
    Files[Path].merge(std::move(F));
  for (auto &[Key, D] : O.Datasets)
    Datasets[Key].merge(D);
  for (auto &[Dir, U] : O.Untraced)
    Untraced[Dir].merge(U);
  for (auto &[Key, T] : O.Throttled)
    Throttled[Key].merge(T);
  for (StopRecord &S : O.Stopped)
    Stopped.push_back(std::move(S));
  for (BypassRecord &B : O.Bypassed)
    Bypassed.push_back(std::move(B));
  for (auto &[Key, N] : O.UnknownOps)
    UnknownOps[Key] += N;
  if (Processes.empty() && !O.Processes.empty()) {
    Processes = std::move(O.Processes);
  } else {
    // Workers' and ranks' parts, a few large merges: one allocation each.
    size_t Need = Processes.size() + O.Processes.size();
    if (Need > Processes.capacity())
      Processes.reserve(std::max(Need, 2 * Processes.capacity()));
    for (ProcessStat &P : O.Processes)
      Processes.push_back(std::move(P));
  }
  for (size_t I = 0; I < NumIssues; ++I)
    IssueCounts[I] += O.IssueCounts[I];
  for (IssueRecord &R : O.Issues)
    Issues.push_back(std::move(R));
  if (Issues.size() >= 4 * MaxIssues)
    trimIssues(Issues);
  for (auto &[Key, J] : O.JobFiles)
    JobFiles[Key].merge(J);
}

void Aggregate::finish(unsigned Jobs) {
  sortProcesses(Processes);
  std::sort(Stopped.begin(), Stopped.end(),
            [](const StopRecord &A, const StopRecord &B) {
              return std::tie(A.FileIndex, A.Pid, A.TsUs, A.Reason, A.Error,
                              A.Limit, A.Written) <
                     std::tie(B.FileIndex, B.Pid, B.TsUs, B.Reason, B.Error,
                              B.Limit, B.Written);
            });
  std::sort(Bypassed.begin(), Bypassed.end(),
            [](const BypassRecord &A, const BypassRecord &B) {
              return std::tie(A.FileIndex, A.Pid, A.Layer, A.Symbol,
                              A.Library, A.Fix) <
                     std::tie(B.FileIndex, B.Pid, B.Layer, B.Symbol,
                              B.Library, B.Fix);
            });
  trimIssues(Issues, /*Sorted=*/true);
  finishJobsBefore(*this);
  // Each path's cross-process figures are its own (its ranges, capped and
  // unioned, and its ranks sorted): on the -j threads, the paths with the
  // most ranges first (issue 41: at 100,000 ranks this was a third of the
  // time after the workers, on one thread). The layers' sums are then
  // taken in the paths' order.
  std::vector<FileStat *> Paths;
  std::vector<int64_t> Work;
  Paths.reserve(Files.size());
  Work.reserve(Files.size());
  for (auto &[Path, F] : Files) {
    size_t Ranges = F.Ranks.size();
    for (size_t L = 0; L < NumIoLayers; ++L)
      Ranges += F.RangeCount[L];
    Paths.push_back(&F);
    Work.push_back(static_cast<int64_t>(Ranges));
  }
  std::vector<uint32_t> Order(Paths.size());
  for (uint32_t I = 0; I < Order.size(); ++I)
    Order[I] = I;
  forEachFile(largestFirst(Work, std::move(Order)), Jobs,
              [&](uint32_t I, unsigned) { Paths[I]->finishAccess(); });
  for (FileStat *F : Paths)
    for (size_t L = 0; L < NumIoLayers; ++L)
      Layers[static_cast<size_t>(ioLayer(L))].Access.merge(F->Access[L]);
  finishJobsAfter(*this);
  std::stable_sort(Caveats.begin(), Caveats.end(),
                   [](const CaveatRecord &A, const CaveatRecord &B) {
                     return A.FileIndex < B.FileIndex;
                   });
}

} // namespace dftanalyze
