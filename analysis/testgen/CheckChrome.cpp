//===- CheckChrome.cpp - dftracer_trace_gen check-chrome ------------------===//
//
// A --chrome-trace file against the Trace Event Format: {"traceEvents":[...]},
// every event with ph, ts, pid, tid, X events with dur, process_name and
// thread_name metadata for every pid and tid used, and X events nested per
// thread.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tracegen {

using Json = nlohmann::json;

int checkChrome(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  gzFile Z = gzopen(Argv[2], "rb"); // reads plain files too
  if (!Z) {
    std::cerr << "check-chrome: cannot open " << Argv[2] << "\n";
    return 1;
  }
  std::string Text;
  char Buf[1 << 16];
  int N;
  while ((N = gzread(Z, Buf, sizeof Buf)) > 0)
    Text.append(Buf, static_cast<size_t>(N));
  gzclose(Z);
  Json J = Json::parse(Text, nullptr, false);
  auto Fail = [](const std::string &Why) {
    std::cerr << "check-chrome: " << Why << "\n";
    return 1;
  };
  if (J.is_discarded())
    return Fail("not valid JSON (strict: commas, closed)");
  if (!J.is_object() || !J.contains("traceEvents") || !J["traceEvents"].is_array())
    return Fail("not {\"traceEvents\":[...]}");
  std::set<int64_t> NamedPids, UsedPids;
  std::set<std::pair<int64_t, int64_t>> NamedTids, UsedTids;
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> Spans;
  size_t X = 0;
  for (const Json &E : J["traceEvents"]) {
    for (const char *K : {"ph", "ts", "pid", "tid"})
      if (!E.contains(K))
        return Fail(std::string("event without \"") + K + "\": " + E.dump());
    std::string Ph = E["ph"];
    int64_t Pid = E["pid"], Tid = E["tid"];
    if (Ph == "M") {
      if (E["name"] == "process_name")
        NamedPids.insert(Pid);
      if (E["name"] == "thread_name")
        NamedTids.insert({Pid, Tid});
      continue;
    }
    if (Ph != "X")
      return Fail("unexpected phase " + Ph);
    if (!E.contains("dur") || !E["dur"].is_number() || E["dur"] < 0 ||
        !E.contains("name") || !E["ts"].is_number())
      return Fail("X event without a name, a number ts or a dur >= 0: " + E.dump());
    ++X;
    UsedPids.insert(Pid);
    UsedTids.insert({Pid, Tid});
    int64_t Ts = E["ts"], Dur = E["dur"];
    Spans[{Pid, Tid}].emplace_back(Ts, -(Ts + Dur));
  }
  for (int64_t P : UsedPids)
    if (!NamedPids.count(P))
      return Fail("pid " + std::to_string(P) + " has no process_name");
  for (auto &T : UsedTids)
    if (!NamedTids.count(T))
      return Fail("pid " + std::to_string(T.first) + " tid " +
                  std::to_string(T.second) + " has no thread_name");
  for (auto &[Key, List] : Spans) {
    std::sort(List.begin(), List.end());
    std::vector<int64_t> Ends;
    for (auto [Ts, NegEnd] : List) {
      int64_t End = -NegEnd;
      while (!Ends.empty() && Ends.back() <= Ts && !(Ends.back() == Ts && End == Ts))
        Ends.pop_back();
      if (!Ends.empty() && End > Ends.back())
        return Fail("X events overlap without nesting on pid " +
                    std::to_string(Key.first) + " tid " + std::to_string(Key.second) +
                    " at ts " + std::to_string(Ts));
      Ends.push_back(End);
    }
  }
  std::cout << "check-chrome: " << X << " X events in " << UsedPids.size()
            << " processes, valid\n";
  return 0;
}

} // namespace tracegen
