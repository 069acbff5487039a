//===- TraceReader.cpp - Read and validate .pfw / .pfw.gz files -----------===//

#include "TraceReader.h"

#include "Nesting.h"
#include "reader/EventCheck.h"
#include "reader/TraceScanner.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace dftcheck {

using dftrace::Event;
using dftrace::Issue;

namespace {

struct Opener {
  std::string Name;
  double Ts;
  size_t Line;
};

/// Validates each event of one file and stores what it describes.
class CheckScanner : public dftrace::TraceScanner {
public:
  CheckScanner(TraceSet &Set, size_t FileIndex)
      : Set(Set), FileIndex(FileIndex), Nester(FileIndex) {}

  /// Ends the file: what is still open, missing FH lines, and the
  /// nesting's problems and caveats after the reader's.
  void finish(const std::string &Path);
  Summary summary() { return Builder.finish(Set, FileIndex); }
  /// The span of an X event, as the checks see it.
  Span spanOf(const Event &E, size_t Line) const;

protected:
  void onEvent(const Event &E, uint64_t Line) override;
  void onProblem(Issue Kind, uint64_t Line, std::string Message) override {
    if (Rechecking) // the first reading reported them
      return;
    // The file's end cut mid-line, mid-block or mid-stream: judged in
    // finish(), once it is known whether the process was killed.
    if (Kind == Issue::TruncatedLine ||
        (Kind == Issue::BadStream &&
         Message.find("truncated") != std::string::npos))
      CutLast = Problem{FileIndex, Line, std::move(Message)};
    else
      Set.problem(FileIndex, Line, std::move(Message));
  }
  void onCaveat(std::string Message) override {
    if (!Rechecking)
      Set.Caveats.push_back({FileIndex, 0, std::move(Message)});
  }

private:
  void span(const Event &E, size_t Line);
  void metadata(const Event &E, size_t Line);
  void beginEnd(const Event &E, size_t Line);
  void aggregated(const Event &E);

  TraceSet &Set;
  size_t FileIndex;
  std::map<std::pair<int64_t, int64_t>, std::vector<Opener>> OpenBegins;
  std::map<std::pair<int64_t, uint64_t>, size_t> FHashUses; // -> first line
  std::map<std::pair<int64_t, uint64_t>, std::string> FHashPaths;
  std::map<int64_t, double> Stopped; // trace_stopped: pid -> when (-1: unsaid)
  // open_at_exit: (pid, span id) -> the span another thread had open
  dftrace::OpenAtExitSpans OpenAtExit;
  // Issue 37: pids with a CONFIG record (this runtime's traces, which end
  // with trace_end), pids with trace_end, and each pid's last span end.
  std::set<int64_t> Configured, Ended;
  std::map<int64_t, double> LastEnd;
  dftrace::RecordDecoder Records;
  NestingChecker Nester;
  SummaryBuilder Builder;
  bool Rechecking = false; // the second reading (Nesting.h): spans only
  // The end of the file cut short: a problem, unless the process was
  // killed (no trace_end): SIGKILL can stop the writer's write() between
  // two pages, as the kernel ends a write early on a fatal signal.
  std::optional<Problem> CutLast;
};

void CheckScanner::onEvent(const Event &E, uint64_t Line) {
  if (Rechecking) {
    if (E.isComplete() && !E.isTracerSpan() && checkedEvent(E, Line))
      Nester.recheck(spanOf(E, Line));
    return;
  }
  ++Set.Events;
  if (!checkedEvent(E, Line))
    return;
  if (E.isComplete() && E.isTracerSpan())
    ++Set.TracerSpans; // upstream's start/end: checked by UpstreamFacts
  else if (E.isComplete())
    span(E, Line);
  else if (E.isMetadata())
    metadata(E, Line);
  else if (E.isAggregated())
    aggregated(E);
  else if (E.Ph2 == dftrace::Phase::Begin || E.Ph2 == dftrace::Phase::End)
    beginEnd(E, Line);
}

void CheckScanner::aggregated(const Event &E) {
  dftrace::AggregatedCalls A =
      dftrace::aggregatedOf(dftrace::layerOf(E), E);
  Builder.addCalls(std::string(E.Name.S), A.Io, A.Calls, A.DurUs);
}

Span CheckScanner::spanOf(const Event &E, size_t Line) const {
  Span S;
  S.FileIndex = FileIndex;
  S.Line = Line;
  S.Id = E.Id.U;
  S.Name = std::string(E.Name.S);
  S.Cat = std::string(E.Cat.S);
  S.Pid = E.Pid.I;
  S.Tid = E.Tid.I;
  S.Ts = E.Ts.D;
  S.Dur = E.Dur.D;
  if (E.Level.present())
    S.Level = E.Level.I;
  if (E.ParentIdx.present())
    S.ParentId = E.ParentIdx.U;
  dftrace::Layer L = dftrace::layerOf(E);
  S.Io.L = L;
  if (dftrace::isIoLayer(L))
    S.Io = dftrace::classifyIo(L, E);
  return S;
}

void CheckScanner::span(const Event &E, size_t Line) {
  Span S = spanOf(E, Line);
  double &Last = LastEnd.try_emplace(S.Pid, S.Ts + S.Dur).first->second;
  Last = std::max(Last, S.Ts + S.Dur);
  if (dftrace::isIoLayer(S.Io.L) && E.FHash.present())
    FHashUses.emplace(std::make_pair(S.Pid, E.FHash.U), Line);
  double Self = 0;
  if (Nester.add(S, Self))
    Builder.addSpan(S, Self);
}

void CheckScanner::metadata(const Event &E, size_t Line) {
  if (dftrace::RecordKind K = dftrace::recordKind(E);
      K != dftrace::RecordKind::None) {
    Record R;
    R.FileIndex = FileIndex;
    R.Pid = E.Pid.I;
    if (Records.decode(K, lineText(), R.R)) {
      if (K == dftrace::RecordKind::TraceStopped)
        Stopped.emplace(R.Pid, static_cast<double>(R.R.Stopped.TsUs));
      if (K == dftrace::RecordKind::Config)
        Configured.insert(R.Pid);
      if (K == dftrace::RecordKind::TraceEnd)
        Ended.insert(R.Pid);
      if (K == dftrace::RecordKind::OpenAtExit)
        OpenAtExit.emplace(std::make_pair(R.Pid, R.R.OpenAtExit.SpanId),
                           R.R.OpenAtExit);
      if (K == dftrace::RecordKind::Throttled)
        // Counted, not written: the calls count in the function table (marked
        // throttled) and --expect-counts, their bytes and time in the layers.
        Builder.addThrottled(R.R.Throttled);
      Set.Records.push_back(std::move(R));
    } else
      Set.problem(FileIndex, Line, Records.error());
    return;
  }
  // Chrome's own metadata (process_name, thread_name, ...) carries other
  // args; DFTracer's "CM" events carry {"name": key, "value": value} and
  // its "FH" events {"name": path, "value": fhash}.
  if (E.Name.S == "FH") {
    FHashPaths.emplace(std::make_pair(E.Pid.I, E.ArgValue.U),
                       std::string(E.ArgName.S));
    return;
  }
  if (!E.ArgName.isString())
    return;
  Metadata M;
  M.FileIndex = FileIndex;
  M.Pid = E.Pid.I;
  M.Key = std::string(E.ArgName.S);
  M.Value = dftrace::fieldText(E.ArgValue);
  Set.Meta.push_back(std::move(M));
}

void CheckScanner::beginEnd(const Event &E, size_t Line) {
  std::vector<Opener> &Stack = OpenBegins[{E.Pid.I, E.Tid.I}];
  if (E.Ph.S == "B") {
    if (E.Name.isString())
      Stack.push_back({std::string(E.Name.S), E.Ts.D, Line});
    else
      Set.problem(FileIndex, Line, "\"name\" is missing");
    return;
  }
  if (Stack.empty()) {
    Set.problem(FileIndex, Line,
                "\"E\" event with no open \"B\" on pid " +
                    std::to_string(E.Pid.I) + " tid " +
                    std::to_string(E.Tid.I));
    return;
  }
  Opener Open = Stack.back();
  Stack.pop_back();
  if (E.Name.isString() && E.Name.S != Open.Name) {
    Set.problem(FileIndex, Line,
                "\"E\" of '" + std::string(E.Name.S) + "' closes '" +
                    Open.Name + "' opened on line " +
                    std::to_string(Open.Line) + ": spans do not nest");
    return;
  }
  if (E.Ts.D < Open.Ts) {
    Set.problem(FileIndex, Line, "span '" + Open.Name + "' ends before it begins");
    return;
  }
  Span S;
  S.Name = Open.Name;
  S.Pid = E.Pid.I;
  S.Tid = E.Tid.I;
  S.Ts = Open.Ts;
  S.Dur = E.Ts.D - Open.Ts;
  S.FileIndex = FileIndex;
  S.Line = Open.Line;
  double Self = 0;
  if (Nester.add(S, Self))
    Builder.addSpan(S, Self);
}

void CheckScanner::finish(const std::string &Path) {
  if (CutLast) {
    bool Killed = std::any_of(
        Configured.begin(), Configured.end(), [&](int64_t Pid) {
          return !Ended.count(Pid) && !Stopped.count(Pid);
        });
    if (Killed) {
      CutLast->Message = "the file ends cut short in a trace without "
                         "trace_end (killed while its writer wrote?); what "
                         "the cut held is lost: " +
                         CutLast->Message;
      Set.Caveats.push_back(std::move(*CutLast));
    } else {
      Set.Problems.push_back(std::move(*CutLast));
    }
    CutLast.reset();
  }
  for (const auto &[Key, Stack] : OpenBegins)
    for (const Opener &Open : Stack)
      Set.problem(FileIndex, Open.Line,
                  "span '" + Open.Name + "' is never closed (missing END)");
  for (const auto &[Key, Line] : FHashUses)
    if (!FHashPaths.count(Key))
      Set.problem(FileIndex, Line,
                  "fhash " + std::to_string(Key.second) + " of pid " +
                      std::to_string(Key.first) +
                      " has no \"FH\" line naming its path");
  // A trace of this runtime without its trace_end record was not finished
  // (SIGKILL, OOM, a lost node): said as a trace_stopped record of reason
  // "unfinished" at its last span's end, unless tracing had stopped on a
  // write error already. Spans it left open are then not problems.
  if (!Rechecking)
    for (int64_t Pid : Configured) {
      if (Ended.count(Pid) || Stopped.count(Pid))
        continue;
      auto Last = LastEnd.find(Pid);
      double When = Last == LastEnd.end() ? -1 : Last->second;
      Record R;
      R.FileIndex = FileIndex;
      R.Pid = Pid;
      R.R.Kind = dftrace::RecordKind::TraceStopped;
      R.R.Stopped.Reason = "unfinished";
      R.R.Stopped.TsUs = static_cast<int64_t>(When);
      Stopped.emplace(Pid, When);
      Set.Records.push_back(std::move(R));
    }
  if (Nester.finish(Stopped, OpenAtExit)) {
    Rechecking = true;
    scan(Path);
    Rechecking = false;
    Nester.finishRecheck();
  }
  std::vector<Problem> Nesting = Nester.takeProblems();
  for (Problem &P : Nesting)
    Set.Problems.push_back(std::move(P));
  for (Problem &C : Nester.caveats())
    Set.Caveats.push_back(std::move(C));
}

} // namespace

Summary readTraceFile(const std::string &Path, TraceSet &Set,
                      dftrace::TimeUnit Unit, bool Given) {
  size_t FileIndex = Set.Files.size();
  Set.Files.push_back(Path);
  size_t Meta = Set.Meta.size(), Problems = Set.Problems.size(),
         Caveats = Set.Caveats.size(), Records = Set.Records.size(),
         Events = Set.Events, Tracer = Set.TracerSpans;
  for (int Pass = 0;; ++Pass) {
    CheckScanner Scanner(Set, FileIndex);
    Scanner.setTimeUnit(Unit, Given);
    Scanner.scan(Path);
    Scanner.finish(Path);
    dftrace::TimeUnit Recorded = Scanner.recordedUnit();
    if (Pass == 1 || Recorded == dftrace::TimeUnit::Unknown ||
        Recorded == Unit)
      return Scanner.summary();
    // The unit is recorded at the end of the file: read it again in it.
    Unit = Recorded;
    Set.Meta.resize(Meta);
    Set.Problems.resize(Problems);
    Set.Caveats.resize(Caveats);
    Set.Records.resize(Records);
    Set.Events = Events;
    Set.TracerSpans = Tracer;
  }
}

} // namespace dftcheck
