//===- Report.h - The figures printed from an Aggregate ------------*- C++ -*-===//
//
// Everything the text, JSON and HTML reports show beyond the raw sums is
// computed here once, so the three never disagree. docs/analysis.md defines
// each figure:
//
// \code
//   bandwidth (by slowest rank) = (bytes read + written) / union time of the
//                                 slowest rank in that layer
//   bandwidth (per call)        = (bytes read + written) / sum of durations
//   metadata fraction           = metadata time / time of the layer's calls
//   imbalance                   = slowest rank's I/O time / mean I/O time
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_REPORT_H
#define DFTRACER_ANALYZE_REPORT_H

#include "Aggregate.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dftanalyze {

struct LayerFigures {
  Layer L = Layer::App;
  const LayerStat *S = nullptr;
  uint64_t UnionSumUs = 0; // per-rank unions added up
  uint64_t UnionMaxUs = 0; // the slowest rank's union
  std::string UnionMaxRank;
  double BandwidthSlowestMiBs = 0;
  double BandwidthPerCallMiBs = 0;
  OpStat Data, Metadata, Other; // Other includes unknown names
  double MetadataFraction = 0;  // of the layer's time
  double DataFraction = 0;
};

struct RankFigures {
  const ProcessStat *P = nullptr;
  std::string Label;   // "3", "pid 4242" when no rank was recorded, or
                       // "mpiio_shared:3" when traces of several programs
                       // are read together
  std::string Program; // its program when several are read together:
                       // CONFIG's executable name, else traceProgram
};

/// The program a trace file's name gives: "my-run" of the runtime's
/// ".../my-run-0ba65c4e25273b46-app.pfw", else the name up to its first
/// '-'. Used only for processes without a CONFIG record.
std::string traceProgram(const std::string &File);

struct FunctionFigures {
  std::string Name;
  const FunctionStat *S = nullptr;
};

struct FileFigures {
  std::string Path;
  const FileStat *S = nullptr;
  IoTotals Reached; // the bottom layers' calls, time and bytes (bottomLayers)
  uint64_t MetaOps = 0, MetaTimeUs = 0; // of the same layers
};

/// A file's processes, by bytes and by time (FileStat::Ranks).
struct FileRankFigures {
  size_t Ranks = 0; // processes that used the file
  std::string MinBytesRank, MaxBytesRank, MinTimeRank, MaxTimeRank;
  uint64_t MinBytes = 0, MaxBytes = 0, MinTimeUs = 0, MaxTimeUs = 0;
  double BytesVariance = 0, TimeVariance = 0; // population, over Ranks
};

/// Files by what their data calls did (bottom layers' bytes).
struct FileClassCounts {
  uint64_t ReadOnly = 0, WriteOnly = 0, ReadWrite = 0, NoData = 0;
};

/// A layer bypassed the same way in one or more processes.
struct BypassFigures {
  const BypassRecord *B = nullptr; // the first one
  std::vector<std::string> Ranks;  // labels of the processes, rank order
};

struct StopFigures {
  const StopRecord *S = nullptr;
  std::string Rank; // label of the process
};

struct ThrottleFigures {
  std::string FCat, Function;
  const ThrottleStat *S = nullptr;
};

struct Report {
  const Aggregate &A;
  std::vector<LayerFigures> Layers; // layers with operations, in enum order
  std::vector<RankFigures> Ranks;   // by rank (numeric when possible)
  const RankFigures *Slowest = nullptr; // the largest I/O union time
  double MeanIoUs = 0;
  double Imbalance = 0; // slowest / mean; 0 without I/O
  int64_t FirstUs = 0, LastUs = 0;
  std::vector<FunctionFigures> Functions; // by inclusive I/O time, then name
  // Of Functions, in order, those with POSIX or STDIO data calls (access
  // figures: the per-function access tables).
  std::vector<const FunctionFigures *> FunctionsWithAccess;
  std::vector<FileFigures> FilesByTime;   // all files, by I/O time
  std::vector<FileFigures> FilesByBytes;  // all files, by bytes
  std::vector<BypassFigures> Bypassed;    // by layer, symbol, library, fix
  std::vector<StopFigures> Stopped;       // in rank order
  std::vector<ThrottleFigures> Throttled; // by time not written, then name
  uint64_t UntracedCalls = 0, UntracedBytes = 0;

  FileClassCounts FileClasses;

  /// The label of the process (FileIndex, Pid), or "pid P".
  std::string rankLabel(uint32_t FileIndex, int64_t Pid) const;
  /// The rank figures of a file: the fewest and most bytes and time (ties:
  /// the first in rank order), and their variance across its processes.
  FileRankFigures fileRanks(const FileStat &S) const;

  explicit Report(const Aggregate &A);
  Report(const Report &) = delete;
  Report &operator=(const Report &) = delete;

private:
  /// The position in Ranks of the process (FileIndex, Pid), Ranks.size()
  /// when not there.
  size_t rankPosition(uint32_t FileIndex, int64_t Pid) const;
  // (file, pid) -> position in Ranks, sorted by (file, pid); a file's
  // processes are RankIndex[FileStart[F], FileStart[F + 1]) (one, as a
  // rule: a lookup is not a search through every rank, issue 41).
  std::vector<std::pair<std::pair<uint32_t, int64_t>, size_t>> RankIndex;
  std::vector<size_t> FileStart;
};

/// Ranks by I/O time (union), slowest first; ties in rank order.
std::vector<const RankFigures *> ranksBySlowest(const Report &R);

/// One quantile of the ranks' I/O time: the rank at nearest rank
/// ceil(Q * n) of the ascending order (Q = 0: the fastest).
struct RankQuantile {
  double Q = 0;
  const RankFigures *Rank = nullptr;
};
/// Min, p10, p25, median, p75, p90, p99 and max of BySlowest (as
/// ranksBySlowest gives it); empty without ranks.
std::vector<RankQuantile>
rankQuantiles(const std::vector<const RankFigures *> &BySlowest);

/// "min", "p10", ..., "p99", "max".
std::string quantileName(double Q);

double mebibytesPerSecond(uint64_t Bytes, uint64_t Us);
/// "independent 2, collective 4, opens 2 (comm_size mean 2.0)".
std::string mpiText(const MpiStat &M);
/// Each I/O layer's calls and bytes, top layer first, with MPI-IO kinds:
/// "HDF5 2 w 1048576; MPIIO 2 w 1048576 (collective 2); POSIX 4 w 1048576".
std::string layersText(const IoTotals (&Layers)[NumIoLayers],
                       const MpiStat &Mpi);
/// "rank 3" for a rank label that is a number, else the label ("pid 42").
std::string processName(const std::string &Label);
/// "throttle", "throttle+size_limit", ... (ThrottleReason bits, in bit
/// order), joined as dftracer-check's reasons are (reader/RecordText.h).
std::string reasonsText(uint8_t Reasons);
/// The memory buffer figure of an access object: "3 of 96 (unit 8)",
/// "unknown, not recorded" (no process recorded its alignment), "-" (no
/// calls); the calls of processes without the record are said.
std::string memAlignText(const AccessCounts &A);

} // namespace dftanalyze

#endif
