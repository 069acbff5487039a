//===- Sustained.h - What ten million traced calls cost, start to end ----===//
//
// A microbenchmark measures the steady state of one loop; a user runs a
// program. This part runs the program: a child process calls the annotated
// empty function (or, for the baseline, a bare clock_gettime pair) a fixed
// number of times on 1 and on 2 threads, then finishes the trace (FINI waits
// for the writer thread to write everything), and reports per pair:
//
//   (a) thread CPU   the traced threads' own CPU time: what the annotated
//                    code executes;
//   (b) process CPU  every thread's CPU time, the writer's included: what
//                    tracing costs the machine;
//   (c) wall         elapsed time from the first call to the closed file,
//                    per call of one thread: what the user waits for.
//
// Each round runs the clock-pair child and the traced child back to back
// with the same thread count, so every ratio compares runs that saw the same
// load. Each traced child writes a fresh trace file, deleted afterwards.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_BENCH_SUSTAINED_H
#define DFTRACER_BENCH_SUSTAINED_H

#include <string>

struct SustainedOptions {
  long Calls = 10000000; ///< START+END pairs per run, split over the threads
  int Rounds = 3;        ///< 0: skip the sustained runs
  /// Seconds of sleep before each run: on a virtual machine whose free
  /// memory goes back to the host after a few idle seconds, this is what a
  /// program started on an idle machine meets (docs/performance.md).
  int PauseSeconds = 0;
};

/// Reads and removes --sustained_calls=N, --sustained_rounds=N and
/// --sustained_pause=SECONDS from argv.
SustainedOptions parseSustainedOptions(int &Argc, char **Argv);

/// When argv names a child run (--sustained_child=...), performs it, prints
/// its figures on stdout and returns true; the caller then exits.
bool runSustainedChild(int Argc, char **Argv);

/// Runs the rounds (children write their traces under TraceDir, deleted as
/// they go) and returns the report.
std::string runSustained(const SustainedOptions &Options,
                         const std::string &TraceDir);

#endif
