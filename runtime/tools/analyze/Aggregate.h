//===- Aggregate.h - What the analyzer counts ----------------------*- C++ -*-===//
//
// One Aggregate holds everything a report is made of. Each trace file is
// read into its own Aggregate, and those are merged: every member is an
// integer sum, a minimum or maximum, a map merged key by key, or a list
// that merge() sorts by a total order. So the merged result is the same
// whatever the order of the merges (threads, -j, MPI ranks), and the report
// printed from it is byte-identical.
//
// \code
//   Aggregate Total;
//   for (Aggregate &Part : PerFile)  // any order
//     Total.merge(std::move(Part));
//   Total.finish();                  // sorts processes and issues
// \endcode
//
// Sizes are bounded by the report, not the events: layers and bins are
// fixed arrays, functions and files are keyed by name, and there is one
// ProcessStat per process, whose timeline keeps a fixed number of spans.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_AGGREGATE_H
#define DFTRACER_ANALYZE_AGGREGATE_H

#include "Archive.h"
#include "EventCheck.h"
#include "IoTaxonomy.h"
#include "Timeline.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dftanalyze {

using dftrace::IoTotals;
using dftrace::Issue;
using dftrace::Layer;
using dftrace::NumIssues;
using dftrace::NumLayers;
using dftrace::NumOps;
using dftrace::NumSizeBins;
using dftrace::Op;

struct OpStat {
  uint64_t Ops = 0;
  uint64_t TimeUs = 0;
  uint64_t Bytes = 0;

  void merge(const OpStat &O) {
    Ops += O.Ops;
    TimeUs += O.TimeUs;
    Bytes += O.Bytes;
  }
};

struct LayerStat {
  IoTotals Totals;     // every span of the layer (nested I/O calls included)
  uint64_t Failed = 0; // calls that returned an error
  OpStat ByOp[NumOps];
  uint64_t ReadBins[NumSizeBins] = {};
  uint64_t WriteBins[NumSizeBins] = {};

  void merge(const LayerStat &O);
};

/// An annotated function (or region): its spans, and the I/O it issued.
struct FunctionStat {
  uint64_t Calls = 0;
  uint64_t TimeUs = 0; // sum of its spans' durations
  // I/O calls counted once each, as in ProcessStat::Io: one nested in
  // another (a pwrite64 inside MPI_File_write_at_all) is part of it.
  IoTotals Direct;    // I/O whose nearest enclosing annotated span is it
  IoTotals Inclusive; // I/O anywhere below it (recursion counted once)

  void merge(const FunctionStat &O) {
    Calls += O.Calls;
    TimeUs += O.TimeUs;
    Direct.merge(O.Direct);
    Inclusive.merge(O.Inclusive);
  }
};

/// One path, over every process that used it.
struct FileStat {
  IoTotals Io;          // every I/O event on the file, nested ones included
  uint64_t MetaOps = 0; // of which metadata operations
  uint64_t MetaTimeUs = 0;
  uint64_t Processes = 0; // processes that used it

  void merge(const FileStat &O) {
    Io.merge(O.Io);
    MetaOps += O.MetaOps;
    MetaTimeUs += O.MetaTimeUs;
    Processes += O.Processes;
  }
};

struct ProcessStat {
  uint32_t FileIndex = 0; // into Aggregate::FileNames
  int64_t Pid = 0;
  std::string Rank;       // CM "rank" metadata; empty when not recorded
  uint64_t Events = 0;    // every line of this pid
  uint64_t Spans = 0;
  uint64_t Threads = 0;
  int64_t FirstUs = std::numeric_limits<int64_t>::max(); // first ts
  int64_t LastUs = std::numeric_limits<int64_t>::min();  // last ts + dur
  uint64_t UnionUs[NumLayers] = {}; // time covered, per layer
  uint64_t IoUnionUs = 0;           // time covered by any I/O call
  IoTotals Io;                      // I/O calls counted once
  Timeline Picture;                 // only with --html

  int64_t wallUs() const { return Spans ? LastUs - FirstUs : 0; }
};

struct IssueRecord {
  uint32_t FileIndex = 0;
  uint64_t Line = 0;
  Issue Kind = Issue::InvalidLine;
  std::string Message;
};

/// What a file cannot say (dftrace::UpstreamFacts), once per file.
struct CaveatRecord {
  uint32_t FileIndex = 0;
  std::string Message;
};

struct Aggregate {
  /// Every file given, in argument order (not merged: set by the driver).
  std::vector<std::string> FileNames;

  uint64_t FilesUnreadable = 0; // could not be opened
  uint64_t Events = 0;    // JSON object lines, valid or not
  uint64_t Lines = 0;     // all lines, "[" and blank ones included
  uint64_t TextBytes = 0; // uncompressed bytes read
  uint64_t Spans = 0;     // usable X events
  uint64_t MetadataEvents = 0;
  uint64_t OtherPhases = 0; // B, E, i events: counted, not analysed
  uint64_t Unattributed = 0; // spans without p_idx not placed (unnested)
  uint64_t TracerSpans = 0;  // upstream's "start"/"end": not functions
  uint64_t AggregatedRecords = 0; // upstream's aggregates (many calls each)
  LayerStat Layers[NumLayers];
  IoTotals Io; // all I/O calls, each once
  std::map<std::string, FunctionStat> Functions;
  std::map<std::string, FileStat> Files; // by path
  std::map<std::pair<uint8_t, std::string>, uint64_t> UnknownOps;
  std::vector<ProcessStat> Processes;
  uint64_t IssueCounts[NumIssues] = {};
  std::vector<IssueRecord> Issues; // the first MaxIssues, by file and line
  std::vector<CaveatRecord> Caveats; // by file (finish())

  static constexpr size_t MaxIssues = 200;

  void merge(Aggregate &&O);
  /// Sorts processes (by file, pid) and keeps the first MaxIssues issues.
  void finish();
  uint64_t issueTotal() const;
  void addIssue(uint32_t FileIndex, uint64_t Line, Issue Kind,
                std::string Message);
};

// Serialisation (Archive.h).
template <class A> void visit(A &Ar, IoTotals &S) {
  Ar(S.Ops, S.BytesRead, S.BytesWritten, S.TimeUs);
}
template <class A> void visit(A &Ar, OpStat &S) { Ar(S.Ops, S.TimeUs, S.Bytes); }
template <class A> void visit(A &Ar, LayerStat &S) {
  Ar(S.Totals, S.Failed, S.ByOp, S.ReadBins, S.WriteBins);
}
template <class A> void visit(A &Ar, FunctionStat &S) {
  Ar(S.Calls, S.TimeUs, S.Direct, S.Inclusive);
}
template <class A> void visit(A &Ar, FileStat &S) {
  Ar(S.Io, S.MetaOps, S.MetaTimeUs, S.Processes);
}
template <class A> void visit(A &Ar, ProcessStat &S) {
  Ar(S.FileIndex, S.Pid, S.Rank, S.Events, S.Spans, S.Threads, S.FirstUs,
     S.LastUs, S.UnionUs, S.IoUnionUs, S.Io, S.Picture);
}
template <class A> void visit(A &Ar, IssueRecord &S) {
  Ar(S.FileIndex, S.Line, S.Kind, S.Message);
}
template <class A> void visit(A &Ar, CaveatRecord &S) {
  Ar(S.FileIndex, S.Message);
}
template <class A> void visit(A &Ar, Aggregate &S) {
  Ar(S.FilesUnreadable, S.Events, S.Lines, S.TextBytes, S.Spans,
     S.MetadataEvents, S.OtherPhases, S.Unattributed, S.Layers, S.Io,
     S.Functions, S.Files, S.UnknownOps, S.Processes, S.IssueCounts,
     S.Issues, S.TracerSpans, S.AggregatedRecords, S.Caveats);
}

} // namespace dftanalyze

#endif
