//===- Upstream.h - What upstream DFTracer's traces mean ----------*- C++ -*-===//
//
// The shapes upstream DFTracer writes that this runtime does not, read the
// way upstream means them (docs/trace-format.md, "Upstream DFTracer"), for
// dftracer-check and dftracer-analyze alike:
//
// \code
//   {"id":9,"name":"end","cat":"dftracer",...,"args":{"num_events":8}}
//     -> the tracer's own span: not a function; num_events is checked
//        against the events of its pid (UpstreamFacts)
//   {"name":"read","cat":"POSIX","type":3,"ts":..,"ph":3,
//    "args":{"dft_cnt":4,"dur_sum":40,"ret_sum":16384,...}}
//     -> aggregatedOf(): 4 calls, 40 us, 16384 bytes read
//   "ts" in nanoseconds ("time_metric":"NS" in "end"'s cfg)
//     -> rescaleTimes() divides by 1000 before any rule sees it
// \endcode
//
// What a trace cannot say (no args, so no bytes; no "[" because the writer
// never finished) is collected per file and reported once, as a caveat.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_UPSTREAM_H
#define DFTRACER_READER_UPSTREAM_H

#include "Event.h"
#include "IoTaxonomy.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dftrace {

/// Units of "ts" and "dur": upstream dev's DFTRACER_TIME_METRIC.
enum class TimeUnit : uint8_t { Unknown, Us, Ns, Ms, Sec };

/// "US"/"us", "NS", "MS", "SEC"/"S" -> the unit; anything else Unknown.
TimeUnit parseTimeUnit(std::string_view Text);
const char *timeUnitName(TimeUnit U); // "US", "NS", "MS", "SEC"

/// Converts E's times (ts, dur, dur_sum) from Unit to microseconds.
void rescaleTimes(Event &E, TimeUnit Unit);

/// The layer of a span: its category, or, when that is not one this
/// project knows, upstream dev's "type" (2 C_APP, 6 PYTHON, 8 FINSTRUMENT,
/// 9 CPP_APP: application; 5: HDF5).
Layer layerOf(const Event &E);

/// What an aggregated record folds: its calls, their summed duration, and,
/// for I/O, the bytes of the read or write calls (POSIX ret_sum, STDIO
/// size x ret_sum when every call had the same size, MPI-IO and HDF5
/// bytes_sum; a field seen once is written without "_sum").
struct AggregatedCalls {
  uint64_t Calls = 0;
  uint64_t DurUs = 0;
  IoCall Io; // operation and bytes (Failed is not known)
};
AggregatedCalls aggregatedOf(Layer L, const Event &E);

/// Per-file facts about upstream shapes, gathered event by event.
class UpstreamFacts {
public:
  /// Every parsed event, in file order (before the field rules).
  void observe(const Event &E, uint64_t Line);
  /// What observe does for N events of Pid that are spans with an id, not
  /// upstream's own ("cat":"dftracer") and without a time metric: it
  /// counts them (the compact reader counts such spans itself).
  void counted(int64_t Pid, uint64_t N) { pid(Pid).Counted += N; }
  /// Every event the field rules accepted.
  void usable(const Event &E, uint64_t Line);
  /// Line 1 was an event: no "[" ("  {" when Indented: upstream v1's
  /// unfinished file, whose "[" is written over its first two bytes at
  /// finalize).
  void noHeader(bool Indented) {
    NoHeader = true;
    IndentedFirst = Indented;
  }
  void concatenated() { ++Concatenations; }
  /// The unit the trace records ("end"'s cfg.time_metric), or Unknown.
  TimeUnit recordedUnit() const { return Recorded; }
  /// The caveats of the file, once each; Used is the unit that was applied.
  std::vector<std::string> caveats(TimeUnit Used, bool UnitGiven) const;

private:
  struct PidFacts {
    uint64_t Counted = 0; // events with an id, but CM and "end"
    uint64_t Ends = 0;
    uint64_t NumEvents = 0; // the last "end"'s
    uint64_t EndLine = 0;
    bool HasNumEvents = false;
  };
  PidFacts &pid(int64_t Pid);

  std::unordered_map<int64_t, PidFacts> Pids;
  int64_t LastPid = 0;
  PidFacts *Last = nullptr;
  TimeUnit Recorded = TimeUnit::Unknown;
  uint64_t IoWithoutArgs = 0, SpansWithoutArgs = 0, Aggregated = 0;
  uint64_t FirstIoWithoutArgs = 0;
  uint64_t Concatenations = 0;
  bool NoHeader = false, IndentedFirst = false;
};

} // namespace dftrace

#endif
