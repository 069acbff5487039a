//===- EventTable.h - Every span of a set of traces, as columns ---*- C++ -*-===//
//
// What annotate_traces.events() returns (docs/python.md), filled in C++ so
// that Python never holds an object per event: one array per column
// (PodColumn.h, handed to numpy without a copy), a string column as codes
// into its own list of values (a pandas Categorical without a copy), an
// optional integer as values and a missing mask.
//
// The files are read by the analysis' reader (reader/TraceScanner.h: .pfw,
// .pfw.gz, .pfc, upstream shapes, units). With one thread every file is
// read in order straight into the table; with Jobs threads, like
// dftracer-analyze -j, runs of consecutive files of similar sizes are read
// in parallel and joined in file order, so the table does not depend on the
// number of threads. Columns live in pages made ready in bulk (PodColumn.h:
// first writes are most of the cost otherwise). Spans find their parents as
// the analyzer's do (reader/SpanNesting.h: by p_idx, or by time on their
// thread without it), which gives each span its nearest annotated function,
// its parent and its depth.
//
// \code
//   EventFilter F;
//   F.Layers = 1u << unsigned(dftrace::Layer::Posix);
//   EventTable T = readEvents({"run/trace-1-app.pfc"}, F, {});
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef ANNOTATE_TRACES_EVENTTABLE_H
#define ANNOTATE_TRACES_EVENTTABLE_H

#include "PodColumn.h"
#include "reader/Upstream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace annotate_traces {

/// Which spans are kept. Time, layer and name are judged as each span is
/// read; rank and file when its file is done (a trace may name a process's
/// rank and a file's path after the spans that need them).
struct EventFilter {
  bool ByRank = false;
  std::vector<int64_t> Ranks;   // processes whose CM "rank" is one of these
  unsigned Layers = 0x3f;       // a bit per dftrace::Layer
  bool ByName = false;
  std::vector<std::string> Names;
  bool HasT0 = false, HasT1 = false; // spans overlapping [T0Us, T1Us]
  int64_t T0Us = 0, T1Us = 0;
  std::vector<std::string> FileGlobs; // fnmatch(3) on the span's file path
};

struct ReadOptions {
  unsigned Jobs = 1;
  // The unit of traces that do not record theirs (--time-unit).
  dftrace::TimeUnit Unit = dftrace::TimeUnit::Us;
  bool UnitGiven = false;
};

/// A pandas Categorical without a copy: codes into Values (-1: no value),
/// as wide as pandas keeps them for that many values (int8 below 127,
/// int16 below 32767, else int32: Categorical.from_codes narrows wider
/// codes by copying them). Only the column of Width holds the codes.
struct StringColumn {
  unsigned Width = 1; // bytes per code
  PodColumn<int8_t> Codes8;
  PodColumn<int16_t> Codes16;
  PodColumn<int32_t> Codes32;
  std::vector<std::string> Values;
};

/// Values[I] is meaningful when Missing[I] is 0.
struct OptionalColumn {
  PodColumn<int64_t> Values;
  PodColumn<uint8_t> Missing;
};

/// A problem of the input, as dftracer-analyze counts it (docs/analysis.md):
/// Kind is its issue name ("truncated_line", ...); Line 0: the whole file.
struct TraceProblem {
  uint32_t File = 0; // index into the files read
  uint64_t Line = 0;
  std::string Kind, Message;
};

struct EventTable {
  PodColumn<int64_t> Pid, Tid, TsUs, DurUs, Bytes;
  PodColumn<double> Start, Dur; // seconds: TsUs / 1e6, DurUs / 1e6
  PodColumn<int32_t> Depth;
  PodColumn<int8_t> Layer; // dftrace::Layer
  PodColumn<int8_t> Op;    // dftrace::Op of an I/O span; -1 otherwise
  OptionalColumn Rank, Offset, Ret;
  StringColumn Name, Cat, File, Function, Parent;
  StringColumn Trace; // the trace file each came from; Values: every file

  // Per file read: whether it could be opened; its problems (the first
  // MaxProblemsPerFile of them, then only counted).
  std::vector<uint8_t> Opened;
  std::vector<TraceProblem> Problems;
  uint64_t ProblemCount = 0;
  uint64_t TextBytes = 0; // uncompressed text read (.pfc: its spans' text)

  size_t size() const { return Pid.size(); }
};

inline constexpr size_t MaxProblemsPerFile = 1000;
/// The pseudo-functions of the analyzer (analyze/FileAnalyzer.h).
inline constexpr const char *NoFunctionName = "(no function)";
inline constexpr const char *UnknownParentName = "(unknown parent)";

/// Reads Files (already expanded: no directories) with Options.Jobs threads.
EventTable readEvents(const std::vector<std::string> &Files,
                      const EventFilter &Filter, const ReadOptions &Options);

} // namespace annotate_traces

#endif
