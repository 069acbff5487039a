//===- TraceReader.cpp - Read and validate .pfw / .pfw.gz files -----------===//

#include "TraceReader.h"

#include "EventCheck.h"
#include "TraceScanner.h"

#include <map>
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
      : Set(Set), FileIndex(FileIndex) {}

  void finish();

protected:
  void onEvent(const Event &E, uint64_t Line) override;
  void onProblem(Issue, uint64_t Line, std::string Message) override {
    Set.problem(FileIndex, Line, std::move(Message));
  }
  void onCaveat(std::string Message) override {
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
  std::map<std::pair<int64_t, uint64_t>, size_t> IdLines; // (pid, id) -> line
  std::map<std::pair<int64_t, uint64_t>, size_t> FHashUses; // -> first line
  std::map<std::pair<int64_t, uint64_t>, std::string> FHashPaths;
  dftrace::RecordDecoder Records;
};

void CheckScanner::onEvent(const Event &E, uint64_t Line) {
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
  Set.Aggregates.push_back(
      {std::string(E.Name.S), A.Io, A.Calls, A.DurUs, E.Pid.I, FileIndex});
}

void CheckScanner::span(const Event &E, size_t Line) {
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
  if (dftrace::isIoLayer(L)) {
    S.Io = dftrace::classifyIo(L, E);
    if (E.FHash.present())
      FHashUses.emplace(std::make_pair(S.Pid, E.FHash.U), Line);
  }
  // Ids name parents only through p_idx. Without it (upstream without
  // DFTRACER_INC_METADATA) an id is upstream's event counter when the span
  // ended, which a parent shares with its last child: spans are nested by
  // time instead, and ids need not be unique.
  if (!S.ParentId) {
    Set.Spans.push_back(std::move(S));
    return;
  }
  auto [It, Inserted] = IdLines.emplace(std::make_pair(S.Pid, *S.Id), Line);
  if (!Inserted) {
    Set.problem(FileIndex, Line,
                "id " + std::to_string(*S.Id) + " of pid " +
                    std::to_string(S.Pid) + " already used on line " +
                    std::to_string(It->second));
    return;
  }
  Set.Spans.push_back(std::move(S));
}

void CheckScanner::metadata(const Event &E, size_t Line) {
  if (dftrace::RecordKind K = dftrace::recordKind(E);
      K != dftrace::RecordKind::None) {
    Record R{FileIndex, E.Pid.I, {}};
    if (Records.decode(K, lineText(), R.R))
      Set.Records.push_back(std::move(R));
    else
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
  Set.Spans.push_back(std::move(S));
}

void CheckScanner::finish() {
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
}

} // namespace

void readTraceFile(const std::string &Path, TraceSet &Set,
                   dftrace::TimeUnit Unit, bool Given) {
  size_t FileIndex = Set.Files.size();
  Set.Files.push_back(Path);
  size_t Spans = Set.Spans.size(), Meta = Set.Meta.size(),
         Problems = Set.Problems.size(), Caveats = Set.Caveats.size(),
         Aggregates = Set.Aggregates.size(), Events = Set.Events,
         Tracer = Set.TracerSpans;
  for (int Pass = 0; Pass < 2; ++Pass) {
    CheckScanner Scanner(Set, FileIndex);
    Scanner.setTimeUnit(Unit, Given);
    Scanner.scan(Path);
    Scanner.finish();
    dftrace::TimeUnit Recorded = Scanner.recordedUnit();
    if (Recorded == dftrace::TimeUnit::Unknown || Recorded == Unit)
      return;
    // The unit is recorded at the end of the file: read it again in it.
    Unit = Recorded;
    Set.Spans.resize(Spans);
    Set.Meta.resize(Meta);
    Set.Problems.resize(Problems);
    Set.Caveats.resize(Caveats);
    Set.Aggregates.resize(Aggregates);
    Set.Events = Events;
    Set.TracerSpans = Tracer;
  }
}

} // namespace dftcheck
