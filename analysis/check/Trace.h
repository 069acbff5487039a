//===- Trace.h - In-memory model of .pfw traces -----------------*- C++ -*-===//
//
// What dftracer-check reads from trace files: spans (complete "X" events,
// and "B"/"E" pairs folded into spans; each is checked and summarised as it
// is read, and not kept), process metadata ("M" events), and the problems
// found on the way. Every item remembers its file and line so
// that a report says where the trace is wrong.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_TRACE_H
#define DFTRACER_CHECK_TRACE_H

#include "reader/IoTaxonomy.h"
#include "reader/MetadataRecords.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dftcheck {

struct Span {
  std::optional<uint64_t> Id; // absent for B/E pairs
  std::string Name;           // e.g. "write_data"
  std::string Cat;            // e.g. "C_APP"
  int64_t Pid = 0;
  int64_t Tid = 0;
  double Ts = 0;                    // microseconds
  double Dur = 0;                   // microseconds
  std::optional<int64_t> Level;     // args.level: 1 = outermost
  std::optional<uint64_t> ParentId; // args.p_idx: 0 = none
  dftrace::IoCall Io;               // layer from cat; op and bytes for I/O
  size_t FileIndex = 0;
  size_t Line = 0;

  double end() const { return Ts + Dur; }
};

struct Metadata {
  int64_t Pid = 0;
  std::string Key;   // args.name, e.g. "rank"
  std::string Value; // args.value as text, e.g. "0"
  size_t FileIndex = 0;
};

/// One of the runtime's records of what the trace does not hold.
struct Record {
  size_t FileIndex = 0;
  int64_t Pid = 0;
  std::string Rank; // the process's CM/PR rank, kept when its file is released
  dftrace::MetadataRecord R;
};

struct Problem {
  size_t FileIndex = 0;
  size_t Line = 0; // 0 when the problem concerns the whole file
  std::string Message;
};

struct TraceSet {
  std::vector<std::string> Files;
  std::vector<Metadata> Meta; // of the file being read

  std::vector<Problem> Problems;
  std::vector<Problem> Caveats; // what a file cannot say, once per file
  size_t TracerSpans = 0; // upstream's "start"/"end": not functions
  std::vector<Record> Records; // in file order
  size_t Events = 0;      // JSON lines read

  void problem(size_t FileIndex, size_t Line, std::string Message) {
    Problems.push_back({FileIndex, Line, std::move(Message)});
  }
};

} // namespace dftcheck

#endif
