//===- Summary.cpp - Per-function and per-process totals ------------------===//

#include "Summary.h"

#include "reader/RecordText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <tuple>

namespace dftcheck {

static bool byTotalTime(const FunctionStats &A, const FunctionStats &B) {
  return std::make_tuple(-A.TotalUs, A.Name) <
         std::make_tuple(-B.TotalUs, B.Name);
}

void mergeSummary(Summary &Into, Summary &&Part) {
  std::map<std::string, FunctionStats> ByName;
  for (FunctionStats &F : Into.Functions)
    ByName[F.Name] = std::move(F);
  for (FunctionStats &F : Part.Functions) {
    FunctionStats &G = ByName[F.Name];
    G.Name = F.Name;
    G.Calls += F.Calls;
    G.TotalUs += F.TotalUs;
    G.SelfUs += F.SelfUs;
    G.ThrottledCalls += F.ThrottledCalls;
    G.ThrottledUs += F.ThrottledUs;
    G.ThrottledReasons.insert(F.ThrottledReasons.begin(),
                              F.ThrottledReasons.end());
    for (const auto &[Layer, N] : F.IoCalls)
      G.IoCalls[Layer] += N;
  }
  Into.Functions.clear();
  for (auto &Entry : ByName)
    Into.Functions.push_back(std::move(Entry.second));
  std::sort(Into.Functions.begin(), Into.Functions.end(), byTotalTime);
  for (ProcessStats &P : Part.Processes)
    Into.Processes.push_back(std::move(P));
  for (size_t L = 0; L < dftrace::NumLayers; ++L)
    Into.Layers[L].merge(Part.Layers[L]);
  Into.Spans += Part.Spans;
  Into.Meta += Part.Meta;
}

void SummaryBuilder::addSpan(const Span &S, double SelfUs) {
  FunctionStats &F = ByName[S.Name];
  if (F.Name.empty())
    F.Name = S.Name;
  ++F.Calls;
  F.TotalUs += S.Dur;
  F.SelfUs += SelfUs;
  if (dftrace::isIoLayer(S.Io.L))
    ++F.IoCalls[dftrace::layerName(S.Io.L)];
  Layers[static_cast<size_t>(S.Io.L)].add(
      S.Io, static_cast<uint64_t>(std::llround(S.Dur)));
  ProcessAcc &P = Processes[S.Pid];
  ++P.Spans;
  P.Tids.insert(S.Tid);
  P.Begin = std::min(P.Begin, S.Ts);
  P.End = std::max(P.End, S.end());
  ++Spans;
}

void SummaryBuilder::addCalls(const std::string &Name,
                              const dftrace::IoCall &Io, uint64_t Calls,
                              uint64_t DurUs) {
  FunctionStats &F = ByName[Name];
  F.Name = Name;
  F.Calls += Calls;
  F.TotalUs += static_cast<double>(DurUs);
  F.SelfUs += static_cast<double>(DurUs);
  if (dftrace::isIoLayer(Io.L))
    F.IoCalls[dftrace::layerName(Io.L)] += Calls;
  Layers[static_cast<size_t>(Io.L)].merge(
      {Calls, Io.O == dftrace::Op::Read ? Io.Bytes : 0,
       Io.O == dftrace::Op::Write ? Io.Bytes : 0, DurUs});
}

void SummaryBuilder::addThrottled(const dftrace::ThrottledRecord &T) {
  dftrace::IoCall Io;
  Io.L = dftrace::layerOfCategory(T.FCat);
  if (dftrace::isIoLayer(Io.L))
    Io.O = dftrace::opOf(Io.L, T.Function);
  Io.Bytes = T.Bytes;
  addCalls(T.Function, Io, T.Calls, T.DurUs);
  FunctionStats &F = ByName[T.Function];
  F.ThrottledCalls += T.Calls;
  F.ThrottledUs += T.DurUs;
  F.ThrottledReasons.insert(T.Reason);
}

Summary SummaryBuilder::finish(const TraceSet &Set, size_t FileIndex) {
  Summary Out;
  std::map<int64_t, std::map<std::string, std::string>> Meta;
  for (const Metadata &M : Set.Meta)
    if (M.FileIndex == FileIndex) {
      Meta[M.Pid][M.Key] = M.Value;
      Processes[M.Pid]; // a process with metadata only is still listed
      ++Out.Meta;
    }
  for (auto &Entry : ByName)
    Out.Functions.push_back(std::move(Entry.second));
  std::sort(Out.Functions.begin(), Out.Functions.end(), byTotalTime);
  for (size_t L = 0; L < dftrace::NumLayers; ++L)
    Out.Layers[L] = Layers[L];
  Out.Spans = Spans;
  for (auto &[Pid, Acc] : Processes) {
    ProcessStats P;
    P.File = Set.Files[FileIndex];
    P.Pid = Pid;
    P.Spans = Acc.Spans;
    P.Threads = Acc.Tids.size();
    P.WallUs = Acc.Spans ? Acc.End - Acc.Begin : 0;
    P.Meta = std::move(Meta[Pid]);
    Out.Processes.push_back(std::move(P));
  }
  return Out;
}

std::map<std::string, uint64_t> callCounts(const Summary &S) {
  std::map<std::string, uint64_t> Counts;
  for (const FunctionStats &F : S.Functions) {
    uint64_t Io = 0;
    for (const auto &[Layer, N] : F.IoCalls) {
      Counts[Layer + ":" + F.Name] = N;
      Io += N;
    }
    Counts[F.Name] = F.Calls - Io;
  }
  return Counts;
}

void printSummary(std::ostream &Os, const TraceSet &Set, const Summary &S) {
  char Line[512];
  size_t Width = 8;
  for (const FunctionStats &F : S.Functions)
    Width = std::max(Width, F.Name.size());
  Os << Set.Files.size() << " file(s), " << Set.Events << " events, "
     << S.Spans << " spans, " << S.Meta << " metadata\n\n";
  bool AnyThrottled = false;
  for (const FunctionStats &F : S.Functions)
    AnyThrottled |= F.ThrottledCalls > 0;
  std::snprintf(Line, sizeof(Line), "%-*s %10s %14s %14s%s\n", (int)Width,
                "function", "calls", "total_us", "self_us",
                AnyThrottled ? "  throttled" : "");
  Os << Line;
  for (const FunctionStats &F : S.Functions) {
    std::snprintf(Line, sizeof(Line), "%-*s %10llu %14.0f %14.0f", (int)Width,
                  F.Name.c_str(), (unsigned long long)F.Calls, F.TotalUs,
                  F.SelfUs);
    Os << Line;
    if (F.ThrottledCalls)
      Os << "  " << F.ThrottledCalls << " throttled ("
         << dftrace::reasonsText(F.ThrottledReasons, ", ") << ")";
    Os << "\n";
  }
  if (AnyThrottled)
    Os << "  (throttled: calls the runtime counted but did not write, "
          "included in calls and time)\n";
  Os << "\n";
  std::snprintf(Line, sizeof(Line), "%-8s %10s %14s %14s %14s\n", "layer",
                "ops", "bytes_read", "bytes_written", "time_us");
  Os << Line;
  for (size_t L = 0; L < dftrace::NumLayers; ++L) {
    const dftrace::IoTotals &T = S.Layers[L];
    if (!T.Ops)
      continue;
    std::snprintf(Line, sizeof(Line), "%-8s %10llu %14llu %14llu %14llu\n",
                  dftrace::layerName(static_cast<dftrace::Layer>(L)),
                  (unsigned long long)T.Ops, (unsigned long long)T.BytesRead,
                  (unsigned long long)T.BytesWritten,
                  (unsigned long long)T.TimeUs);
    Os << Line;
  }
  Os << "\n";
  std::snprintf(Line, sizeof(Line), "%10s %6s %8s %10s %14s  %s\n", "pid",
                "rank", "threads", "spans", "wall_us", "file");
  Os << Line;
  for (const ProcessStats &P : S.Processes) {
    auto Rank = P.Meta.find("rank");
    std::snprintf(Line, sizeof(Line), "%10lld %6s %8zu %10llu %14.0f  ",
                  (long long)P.Pid,
                  Rank == P.Meta.end() ? "-" : Rank->second.c_str(), P.Threads,
                  (unsigned long long)P.Spans, P.WallUs);
    Os << Line << P.File << "\n";
  }
}

namespace {

/// The process a record came from, as the summary names it.
std::string processText(const TraceSet &Set, const Record &R) {
  if (!R.Rank.empty())
    return "rank " + R.Rank + " (pid " + std::to_string(R.Pid) + ")";
  return "pid " + std::to_string(R.Pid) + " of " + Set.Files[R.FileIndex];
}

std::map<std::string, std::pair<dftrace::UntracedDir, uint64_t>>
untracedByDir(const TraceSet &Set) {
  std::map<std::string, std::pair<dftrace::UntracedDir, uint64_t>> Dirs;
  for (const Record &R : Set.Records)
    if (R.R.Kind == dftrace::RecordKind::Untraced)
      for (const dftrace::UntracedDir &D : R.R.Dirs) {
        auto &[Sum, Processes] = Dirs[D.Dir];
        Sum.Dir = D.Dir;
        Sum.Opens += D.Opens;
        Sum.Reads += D.Reads;
        Sum.Writes += D.Writes;
        Sum.BytesRead += D.BytesRead;
        Sum.BytesWritten += D.BytesWritten;
        ++Processes;
      }
  return Dirs;
}

} // namespace

void nameRecordRanks(TraceSet &Set) {
  for (Record &R : Set.Records)
    if (R.Rank.empty())
      for (const Metadata &M : Set.Meta)
        if (M.FileIndex == R.FileIndex && M.Pid == R.Pid && M.Key == "rank")
          R.Rank = M.Value;
}

void printRecords(std::ostream &Os, const TraceSet &Set) {
  using dftrace::RecordKind;
  for (const Record &R : Set.Records)
    if (R.R.Kind == RecordKind::LayerBypassed) {
      const dftrace::BypassedRecord &B = R.R.Bypassed;
      Os << "layer bypassed: " << processText(Set, R) << ": "
         << dftrace::bypassedText(B.Layer, B.Symbol, B.Library)
         << dftrace::fixText(B.Fix) << "\n";
    }
  for (const Record &R : Set.Records)
    if (R.R.Kind == RecordKind::TraceStopped) {
      const dftrace::StoppedRecord &S = R.R.Stopped;
      if (S.Reason == "unfinished") {
        Os << "trace unfinished: " << processText(Set, R)
           << ": the trace ends without its trace_end record (killed?); I/O "
              "after its last event";
        if (S.TsUs >= 0)
          Os << " (ts " << S.TsUs << ")";
        Os << " is missing\n";
        continue;
      }
      Os << "trace stopped: " << processText(Set, R) << ": "
         << dftrace::stoppedText(S.Reason, S.Error)
         << dftrace::budgetText(S.Written, S.Limit)
         << "; later spans are only counted\n";
    }
  for (const auto &[Dir, Entry] : untracedByDir(Set))
    dftrace::printUntraced(Os, Entry.first, Entry.second);
  for (const Record &R : Set.Records)
    if (R.R.Kind == RecordKind::Throttled) {
      const dftrace::ThrottledRecord &T = R.R.Throttled;
      Os << "throttled: " << processText(Set, R) << ": " << T.Function << " ("
         << T.FCat << "): " << T.Calls << " calls, " << T.DurUs
         << " us not written (" << T.Reason
         << "); counted in the function table and the layers\n";
    }
}

nlohmann::json recordsToJson(const TraceSet &Set) {
  using dftrace::RecordKind;
  nlohmann::json Untraced = nlohmann::json::array();
  for (const auto &[Dir, Entry] : untracedByDir(Set)) {
    const dftrace::UntracedDir &D = Entry.first;
    Untraced.push_back({{"dir", Dir},
                        {"opens", D.Opens},
                        {"reads", D.Reads},
                        {"writes", D.Writes},
                        {"bytes_read", D.BytesRead},
                        {"bytes_written", D.BytesWritten},
                        {"processes", Entry.second}});
  }
  nlohmann::json Bypassed = nlohmann::json::array(),
                 Stopped = nlohmann::json::array(),
                 Throttled = nlohmann::json::array();
  for (const Record &R : Set.Records) {
    nlohmann::json Where{{"file", Set.Files[R.FileIndex]}, {"pid", R.Pid}};
    if (R.R.Kind == RecordKind::LayerBypassed) {
      const dftrace::BypassedRecord &B = R.R.Bypassed;
      Where.update({{"layer", B.Layer},
                    {"symbol", B.Symbol},
                    {"library", B.Library},
                    {"fix", B.Fix}});
      Bypassed.push_back(Where);
    } else if (R.R.Kind == RecordKind::TraceStopped) {
      const dftrace::StoppedRecord &S = R.R.Stopped;
      Where.update({{"reason", S.Reason},
                    {"limit", S.Limit},
                    {"written", S.Written}});
      if (!S.Error.empty())
        Where["error"] = S.Error;
      if (S.TsUs >= 0)
        Where["ts"] = S.TsUs;
      Stopped.push_back(Where);
    } else if (R.R.Kind == RecordKind::Throttled) {
      const dftrace::ThrottledRecord &T = R.R.Throttled;
      Where.update({{"function", T.Function},
                    {"fcat", T.FCat},
                    {"calls", T.Calls},
                    {"dur", T.DurUs},
                    {"bytes", T.Bytes},
                    {"reason", T.Reason}});
      Throttled.push_back(Where);
    }
  }
  return {{"untraced", Untraced},
          {"layer_bypassed", Bypassed},
          {"trace_stopped", Stopped},
          {"throttled", Throttled}};
}

nlohmann::json summaryToJson(const Summary &S) {
  nlohmann::json Functions = nlohmann::json::array();
  for (const FunctionStats &F : S.Functions) {
    nlohmann::json J{{"name", F.Name},
                     {"calls", F.Calls},
                     {"total_us", F.TotalUs},
                     {"self_us", F.SelfUs}};
    if (F.ThrottledCalls)
      J["throttled"] = {
          {"calls", F.ThrottledCalls},
          {"time_us", F.ThrottledUs},
          {"reason", dftrace::reasonsText(F.ThrottledReasons, ", ")}};
    Functions.push_back(std::move(J));
  }
  nlohmann::json Processes = nlohmann::json::array();
  for (const ProcessStats &P : S.Processes)
    Processes.push_back({{"file", P.File},
                         {"pid", P.Pid},
                         {"spans", P.Spans},
                         {"threads", P.Threads},
                         {"wall_us", P.WallUs},
                         {"metadata", P.Meta}});
  nlohmann::json Layers = nlohmann::json::object();
  for (size_t L = 0; L < dftrace::NumLayers; ++L) {
    const dftrace::IoTotals &T = S.Layers[L];
    if (T.Ops)
      Layers[dftrace::layerName(static_cast<dftrace::Layer>(L))] = {
          {"ops", T.Ops},
          {"bytes_read", T.BytesRead},
          {"bytes_written", T.BytesWritten},
          {"time_us", T.TimeUs}};
  }
  return {{"functions", Functions},
          {"processes", Processes},
          {"layers", Layers}};
}

} // namespace dftcheck
