//===- ChromeTrace.h - --chrome-trace: Trace Event JSON ------------*- C++ -*-===//
//
// Perfetto opens .pfw files as they are; speedscope and older Chrome
// tracing UIs need the strict Trace Event Format. The export is a second
// pass over the files, after the analysis numbered the processes:
//
// \code
//   {"traceEvents":[
//   {"name":"process_name","ph":"M","pid":0,"tid":0,"ts":0,"args":{"name":"rank 0 (pid 41)"}},
//   {"name":"thread_name","ph":"M","pid":0,"tid":41,"ts":0,"args":{"name":"tid 41"}},
//   {"name":"write_phase","cat":"C_APP","ph":"X","ts":1718000000000123,"dur":52,"pid":0,"tid":41},
//   ...
//   ]}
// \endcode
//
// pid is the process's position in the report's rank order (so rank r is
// pid r in an MPI run), tid the thread id. Spans keep no args (speedscope
// would split a function into one frame per distinct args). Spans nest per
// thread as in the trace; filters only remove spans, which keeps them
// nested. Each file is converted on its own (in parallel, or on its MPI
// rank) into a part next to the output, and the parts are joined in file
// order into OUT.tmp, renamed to OUT at the end; OUT ending in .gz is
// gzip-compressed.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_CHROMETRACE_H
#define DFTRACER_ANALYZE_CHROMETRACE_H

#include "analyze/Archive.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dftanalyze {

struct Report;

struct ChromeFilter {
  std::vector<std::pair<int64_t, int64_t>> Ranks; // inclusive; empty: all
  bool HasWindow = false;
  double FromS = 0, ToS = 0; // seconds after the first event
  uint32_t Layers = ~0u;     // bit (1 << Layer)

  /// Parses "0,2-5" / "1.5:3" / "POSIX,MPIIO"; false and Error on mistakes.
  bool parseRanks(const std::string &Text, std::string &Error);
  bool parseWindow(const std::string &Text, std::string &Error);
  bool parseLayers(const std::string &Text, std::string &Error);
};

/// What every converter needs from the analysis: which processes to keep,
/// their numbers and names, and where time starts.
struct ChromePlan {
  struct Process {
    int64_t ChromePid = 0;
    std::string Name;
    bool Keep = true;
  };
  std::map<std::pair<uint32_t, int64_t>, Process> Processes; // (file, pid)
  int64_t FromUs = INT64_MIN, ToUs = INT64_MAX;
  uint32_t Layers = ~0u;

  static ChromePlan make(const Report &R, const ChromeFilter &F);
};

template <class A> void visit(A &Ar, ChromePlan::Process &P) {
  Ar(P.ChromePid, P.Name, P.Keep);
}
template <class A> void visit(A &Ar, ChromePlan &P) {
  Ar(P.Processes, P.FromUs, P.ToUs, P.Layers);
}

/// Writes the part of file Index (Files[Index]) for Output; returns false
/// and sets Error when the part cannot be written.
bool writeChromePart(const std::vector<std::string> &Files, uint32_t Index,
                     const ChromePlan &Plan, const std::string &Output,
                     std::string &Error);
/// Joins the parts of every file into Output and removes them. A missing
/// part is an error (its events would be lost), and Output is not written.
bool joinChromeParts(size_t NumFiles, const std::string &Output,
                     std::string &Error);
/// Removes the parts (after a failed conversion: nothing is joined).
void removeChromeParts(size_t NumFiles, const std::string &Output);

} // namespace dftanalyze

#endif
