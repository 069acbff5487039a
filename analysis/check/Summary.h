//===- Summary.h - Per-function and per-process totals ----------*- C++ -*-===//
//
// \code
//   function            calls     total_us      self_us
//   main                    1         1520          120
//   write_data             16         1400         1400
// \endcode
//
// Total time adds up each call's duration; self time subtracts the time of
// the calls nested directly in it, so recursion is not counted twice in the
// self column. Per process: spans, threads, wall time from the first start
// to the last end, and the MPI rank when the trace recorded one. Per layer
// (application spans, POSIX, STDIO, MPI-IO, HDF5; see IoTaxonomy.h):
// operations, bytes read and written, and the sum of durations:
//
// \code
//   layer           ops   bytes_read  bytes_written      time_us
//   APP              18            0              0         1520
//   POSIX            32        65536          65536          210
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_SUMMARY_H
#define DFTRACER_CHECK_SUMMARY_H

#include "Trace.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <set>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace dftcheck {

struct FunctionStats {
  std::string Name;
  uint64_t Calls = 0;
  double TotalUs = 0;
  double SelfUs = 0;
  /// Of Calls and TotalUs, what the runtime's throttled records counted
  /// (spans not written), and their reasons ("throttle", "size_limit", ...).
  uint64_t ThrottledCalls = 0;
  uint64_t ThrottledUs = 0;
  std::set<std::string> ThrottledReasons;
  /// Of Calls, the events of the traced I/O layers, per layer ("POSIX"):
  /// an annotated C++ method `write` and POSIX `write` share a name, and
  /// --expect-counts tells them apart (callCounts).
  std::map<std::string, uint64_t> IoCalls;
};

struct ProcessStats {
  std::string File;
  int64_t Pid = 0;
  uint64_t Spans = 0;
  size_t Threads = 0;
  double WallUs = 0;
  std::map<std::string, std::string> Meta; // e.g. {"rank": "0"}
};

struct Summary {
  std::vector<FunctionStats> Functions; // by total time, descending
  std::vector<ProcessStats> Processes;  // in file order
  dftrace::IoTotals Layers[dftrace::NumLayers];
  size_t Spans = 0, Meta = 0; // of the files summarised
};

/// One file's summary, fed span by span as the file is read (no span is
/// kept): dftracer-check's memory does not follow the file's length.
class SummaryBuilder {
public:
  void addSpan(const Span &S, double SelfUs);
  /// Upstream's aggregated records: calls the trace counted without a span
  /// each. They are not nested, so their time is all self time.
  void addCalls(const std::string &Name, const dftrace::IoCall &Io,
                uint64_t Calls, uint64_t DurUs);
  /// The runtime's throttled records: counted as addCalls does, and marked
  /// throttled in the function table.
  void addThrottled(const dftrace::ThrottledRecord &T);
  /// The summary, with the processes' metadata from Set.Meta (this file's).
  Summary finish(const TraceSet &Set, size_t FileIndex);

private:
  struct ProcessAcc {
    uint64_t Spans = 0;
    std::set<int64_t> Tids;
    double Begin = std::numeric_limits<double>::max();
    double End = 0;
  };
  std::map<std::string, FunctionStats> ByName;
  std::map<int64_t, ProcessAcc> Processes;
  dftrace::IoTotals Layers[dftrace::NumLayers];
  size_t Spans = 0;
};
/// Adds the summary of later files to Into (dftracer-check summarises
/// file by file, so it holds one file's spans at a time).
void mergeSummary(Summary &Into, Summary &&Part);

/// Calls per span name, over all files.
std::map<std::string, uint64_t> callCounts(const Summary &S);

/// The function table has a `throttled` column ("N throttled (REASON)")
/// only when some function has throttled calls.
void printSummary(std::ostream &Os, const TraceSet &Set, const Summary &S);

/// The runtime's records (MetadataRecords.h), first in the report, one
/// line a record and process: "layer bypassed: ...", "trace stopped: ...",
/// "not traced: DIR: ..." (summed over processes), "throttled: FUNCTION
/// ...". The phrases are shared with dftracer-analyze, whose lines sum a
/// record over its processes (reader/RecordText.h).
void printRecords(std::ostream &Os, const TraceSet &Set);
/// Gives each record the rank of its process while the file's metadata is
/// still held (dftracer-check releases each file's metadata after it).
void nameRecordRanks(TraceSet &Set);
/// {"untraced": [...], "layer_bypassed": [...], "trace_stopped": [...],
///  "throttled": [...]}, the analyzer's keys.
nlohmann::json recordsToJson(const TraceSet &Set);
/// A function with throttled calls has "throttled": {"calls", "time_us",
/// "reason"}, the analyzer's key.
nlohmann::json summaryToJson(const Summary &S);

} // namespace dftcheck

#endif
