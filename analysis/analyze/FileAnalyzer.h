//===- FileAnalyzer.h - One trace file into an Aggregate ----------*- C++ -*-===//
//
// Reads one .pfw/.pfw.gz file, event by event, into the figures of
// Aggregate.h. Nothing is kept per event except what the figures need while
// the file is open:
//
//  - Attribution. Spans are written when they end, so a span's children
//    come before it. Each span hands what it knows to its parent's entry in
//    a table keyed by (pid, p_idx): the I/O calls below it (each once), the
//    part of them no annotated span has claimed yet, and the inclusive I/O
//    already credited to each function below (so recursion counts once).
//    An annotated span takes the unclaimed I/O as its direct I/O. The table
//    holds only spans that are still open, so it stays small. Spans
//    without p_idx hand themselves up by time instead: per thread, a stack
//    of unclaimed subtrees that the span containing them takes. The tree
//    is dftracer-check's (reader/SpanNesting.h builds it for both).
//
//      main            inclusive: both pwrites    direct: -
//        write_phase   inclusive: both pwrites    direct: the MPI call
//          MPI_File_write_at_all   (holds the two pwrite64 calls)
//            pwrite64, pwrite64
//
//  - Per-rank union time, per layer (IntervalUnion). Intervals that end
//    before any span still to come can start are folded (FoldWatermark:
//    the runtime writes each thread's spans in order of their end, and a
//    parent after its children). A file that breaks this (an unusual
//    writer, a parent with many spans below it) is read a second time
//    without folding, which is exact whatever the order.
//
//  - Cost per file (issue 41: 100,000 ranks are 100,000 files). A worker
//    (WorkerAnalyzer) reads its files one after another with one reader,
//    whose tables are cleared between files rather than rebuilt, and each
//    file's figures are merged straight into the worker's Aggregate: no
//    Aggregate per file is built, merged and destroyed. The worker's
//    entries for a file's call sites, phases, functions and paths are
//    found by ids it caches (function, chain, job, path), not by building
//    and comparing their text keys per file, and a file's per-path records
//    are reused from file to file. What a file leaves behind keeps its
//    memory for the next: the per-process maps' nodes (paths, files, call
//    sites), the interval unions' vectors, the functions' value tallies;
//    records are made again in place; a stream without data calls is not
//    finished or merged. Spares are bounded (256 nodes a map, 256
//    intervals a union), so a large file leaves no large pool behind.
//    A stream's or function's kept sizes and strides go from its tally
//    into one reused vector and from there straight into the worker's
//    lists (no list per stream and file to build, copy and free); a
//    long list takes them unsearched, summed when they fold in
//    (ValueCounts::mergeValues).
//
// \code
//   Aggregate A = analyzeFile("trace-1a2b-app.pfw.gz", 3, Options);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_FILEANALYZER_H
#define DFTRACER_ANALYZE_FILEANALYZER_H

#include "Aggregate.h"
#include "reader/Upstream.h"

#include <memory>
#include <string>

namespace dftanalyze {

struct AnalyzeOptions {
  bool Timeline = false; // keep the per-process picture (for --html)
  // Units of traces that do not record theirs (--time-unit).
  dftrace::TimeUnit Unit = dftrace::TimeUnit::Us;
  bool UnitGiven = false;
  // Call sites for the diagnosis (CallSites.h): off with --no-diagnose.
  bool Sites = true;
  uint64_t SmallBytes = 1048576; // data calls below it are small (rules)
};

class FileAnalyzer;

/// One worker's files, read one after another into its Aggregate: the
/// reader's tables (open spans, processes, span names and their ids) are
/// cleared between files, not rebuilt.
///
/// \code
///   WorkerAnalyzer W(Options);
///   for (uint32_t I : MyFiles)
///     W.analyze(Files[I], I, MyAggregate);
/// \endcode
class WorkerAnalyzer {
public:
  explicit WorkerAnalyzer(const AnalyzeOptions &Options);
  ~WorkerAnalyzer();
  WorkerAnalyzer(const WorkerAnalyzer &) = delete;
  WorkerAnalyzer &operator=(const WorkerAnalyzer &) = delete;
  /// Reads Path (its issues name FileIndex), merged into Into.
  void analyze(const std::string &Path, uint32_t FileIndex, Aggregate &Into);

private:
  const AnalyzeOptions &Options;
  std::unique_ptr<FileAnalyzer> A;
};

/// Reads Path; its issues name FileIndex.
Aggregate analyzeFile(const std::string &Path, uint32_t FileIndex,
                      const AnalyzeOptions &Options);
/// The same, merged into Into (a worker's files so far): the figures go
/// straight into Into's tables, without an Aggregate per file to build,
/// merge and destroy (issue 41: a sixth of a small file's instructions).
void analyzeFile(const std::string &Path, uint32_t FileIndex,
                 const AnalyzeOptions &Options, Aggregate &Into);

/// Names of the pseudo-functions that collect I/O outside annotated code.
inline constexpr const char *NoFunction = "(no function)";
inline constexpr const char *UnknownParent = "(unknown parent)";

} // namespace dftanalyze

#endif
