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

private:
  void span(const Event &E, size_t Line);
  void metadata(const Event &E, size_t Line);
  void beginEnd(const Event &E, size_t Line);

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
  if (E.isComplete())
    span(E, Line);
  else if (E.isMetadata())
    metadata(E, Line);
  else if (E.Ph.S == "B" || E.Ph.S == "E")
    beginEnd(E, Line);
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
  dftrace::Layer L = dftrace::layerOfCategory(E.Cat.S);
  S.Io.L = L;
  if (dftrace::isIoLayer(L)) {
    S.Io = dftrace::classifyIo(L, E);
    if (E.FHash.present())
      FHashUses.emplace(std::make_pair(S.Pid, E.FHash.U), Line);
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

void readTraceFile(const std::string &Path, TraceSet &Set) {
  size_t FileIndex = Set.Files.size();
  Set.Files.push_back(Path);
  CheckScanner Scanner(Set, FileIndex);
  Scanner.scan(Path);
  Scanner.finish();
}

} // namespace dftcheck
