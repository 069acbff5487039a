//===- TraceGen.cpp - Trace sets with known totals, for tests and benchmarks ===//
//
//   dftracer_trace_gen generate --dir D [--files N] [--spans N] [--threads T]
//       [--total-spans N]
//       [--gzip] [--members K] [--seed S] [--truncate] [--invalid]
//       [--compute N] [--no-parent all|odd] [--start-order]
//       [--upstream v1|dev] [--real-shape]
//       [--expected FILE]
//   dftracer_trace_gen access --dir D --pattern sequential|strided|random|
//       overlap [--ranks N] [--calls K] [--size S] [--expected E.json]
//   dftracer_trace_gen compare EXPECTED.json ACTUAL.json [--partial]
//   dftracer_trace_gen check-chrome TRACE.json[.gz]
//   dftracer_trace_gen check-png SCREENSHOT.png
//
// generate builds, per file, one process (rank = file number) whose threads
// each run a tree of annotated functions issuing POSIX, STDIO, MPI-IO and
// HDF5 calls (MPI-IO and HDF5 calls hold the calls they make, as the
// runtime nests them), and writes it as the runtime does: spans in the
// order they end, threads interleaved in blocks, ids in order of start.
// --expected writes the totals the analyzer must report, computed from the
// tree, top down, with none of the analyzer's code: the function that
// issued each call is the nearest annotated span on the generator's own
// stack, and a call counts once for every distinct function on that stack.
// --no-parent writes spans without level/p_idx (upstream DFTracer's dev
// branch; `odd`: half of them), for the same totals; --start-order writes
// each thread in order of start instead (the analyzer reports it);
// --upstream v1|dev writes the same trees in upstream DFTracer's shapes.
// --real-shape writes lines shaped like a real run's (bench/analysis):
// 16-digit times and path hashes, 5-digit pids, six files per rank, and
// the args the runtime writes (fd, flags, mode, whence, moving offsets).
// --total-spans N puts N spans in the whole set instead of --spans in
// each file (within one file's excess: a file ends on a whole phase), so
// that sets of more or fewer files hold the same events (bench/analysis).
//
//   Tree.h      the generated call tree of a process
//   Builder.h   how a random tree is grown
//   Expected.h  the totals it implies
//   Generate.cpp, Compare.cpp, CheckChrome.cpp, CheckPng.cpp: the commands
//
// compare checks that every key of EXPECTED has the same value in ACTUAL
// (objects: keys of EXPECTED only; arrays: same length, element by
// element; arrays of objects with "name": matched by name, and with
// --partial ACTUAL may hold more of them).
//
// check-chrome validates a --chrome-trace file against the Trace Event
// Format: {"traceEvents":[...]}, every event with ph, ts, pid, tid, X events
// with dur, process_name and thread_name metadata for every pid and tid
// used, and X events nested per thread.
//
// check-png passes a screenshot that is not blank: at least 16 colours and
// 2% of pixels that are not white.
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include <iostream>
#include <string>

int main(int Argc, char **Argv) {
  std::string Cmd = Argc > 1 ? Argv[1] : "";
  if (Cmd == "generate")
    return tracegen::generate(Argc, Argv);
  if (Cmd == "access")
    return tracegen::access(Argc, Argv);
  if (Cmd == "compare")
    return tracegen::compare(Argc, Argv);
  if (Cmd == "check-chrome")
    return tracegen::checkChrome(Argc, Argv);
  if (Cmd == "check-png")
    return tracegen::checkPng(Argc, Argv);
  std::cerr << "usage: dftracer_trace_gen generate|access|compare|check-chrome|"
               "check-png ...\n";
  return 2;
}
