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

#include "AccessPattern.h"
#include "Archive.h"
#include "CallSites.h"
#include "Timeline.h"
#include "reader/EventCheck.h"
#include "reader/IoTaxonomy.h"

#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <tuple>
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
using dftrace::MpiKind;
using dftrace::NumMpiKinds;
using dftrace::Op;

/// Slots of the I/O layers in per-layer arrays: POSIX, STDIO, MPIIO, HDF5.
constexpr size_t NumIoLayers = 4;
inline size_t ioSlot(Layer L) { return static_cast<size_t>(L) - 1; }
inline Layer ioLayer(size_t Slot) { return static_cast<Layer>(Slot + 1); }

/// Which layers' bytes reached the files: layers nest (an H5Dwrite holds
/// its MPI_File_write_at_all, which holds its pwrite64 calls), so a total
/// takes the lowest traced level that moved bytes, never a sum over levels.
/// POSIX and STDIO are one level: glibc's stdio reaches the file through
/// internal calls no wrapper sees, so they never hold each other.
/// Returns the mask of slots of that level (0 when no layer has calls).
unsigned bottomLayers(const IoTotals (&Layers)[NumIoLayers]);

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

/// One MPI-IO call as MpiStat counts it: a read or write of a kind, or an
/// open (with its communicator's size when the trace has it). Adding one
/// call this way touches 6 counters, not MpiStat's 21.
struct MpiCall {
  MpiKind Kind = MpiKind::None;
  bool Open = false, Sized = false;
  uint64_t DurUs = 0, Bytes = 0, CommSize = 0;
};

/// MPI-IO data calls by kind (IoTaxonomy.h's MpiKind), and the opens with
/// the size of their communicator.
struct MpiStat {
  OpStat Kinds[NumMpiKinds];
  uint64_t Opens = 0;       // MPI_File_open calls
  uint64_t SizedOpens = 0;  // of which with a "comm_size"
  uint64_t CommSizeSum = 0; // their comm_size, added up

  void add(MpiKind K, uint64_t DurUs, uint64_t Bytes) {
    if (K != MpiKind::None)
      Kinds[static_cast<size_t>(K)].merge({1, DurUs, Bytes});
  }
  void add(const MpiCall &C) {
    add(C.Kind, C.DurUs, C.Bytes);
    Opens += C.Open;
    SizedOpens += C.Sized;
    CommSizeSum += C.CommSize;
  }
  void merge(const MpiStat &O) {
    for (size_t K = 0; K < NumMpiKinds; ++K)
      Kinds[K].merge(O.Kinds[K]);
    Opens += O.Opens;
    SizedOpens += O.SizedOpens;
    CommSizeSum += O.CommSizeSum;
  }
  MpiStat minus(const MpiStat &O) const {
    MpiStat R = *this;
    for (size_t K = 0; K < NumMpiKinds; ++K)
      R.Kinds[K] = {Kinds[K].Ops - O.Kinds[K].Ops,
                    Kinds[K].TimeUs - O.Kinds[K].TimeUs,
                    Kinds[K].Bytes - O.Kinds[K].Bytes};
    R.Opens -= O.Opens;
    R.SizedOpens -= O.SizedOpens;
    R.CommSizeSum -= O.CommSizeSum;
    return R;
  }
  bool empty() const {
    for (const OpStat &S : Kinds)
      if (S.Ops)
        return false;
    return !Opens;
  }
};

/// The I/O of a rank or a function, each way the reports show it.
struct IoBreakdown {
  IoTotals Once; // each call once: one nested in another I/O call (a
                 // pwrite64 inside MPI_File_write_at_all) is part of it
  IoTotals Layers[NumIoLayers]; // every call of each layer
  MpiStat Mpi;
  // Which parts hold anything, so that merging the breakdown of a span
  // (done for every span) touches only those.
  uint8_t LayerMask = 0; // bit per slot of Layers
  bool HasMpi = false;

  /// One I/O call of layer slot Slot, with its MPI-IO kind and open (M).
  void addCall(size_t Slot, const IoTotals &Call, const MpiCall *M) {
    Once.merge(Call);
    Layers[Slot].merge(Call);
    LayerMask |= static_cast<uint8_t>(1u << Slot);
    if (M) {
      Mpi.add(*M);
      HasMpi = true;
    }
  }
  /// Adds O's per-layer and MPI-IO parts, not its calls counted once.
  void mergeLayers(const IoBreakdown &O) {
    for (unsigned Mask = O.LayerMask; Mask; Mask &= Mask - 1) {
      unsigned L = static_cast<unsigned>(__builtin_ctz(Mask));
      Layers[L].merge(O.Layers[L]);
    }
    LayerMask |= O.LayerMask;
    if (O.HasMpi) {
      Mpi.merge(O.Mpi);
      HasMpi = true;
    }
  }
  void merge(const IoBreakdown &O) {
    if (!O.Once.Ops) // nothing below (Layers hold only calls Once counts)
      return;
    Once.merge(O.Once);
    mergeLayers(O);
  }
  IoBreakdown minus(const IoBreakdown &O) const {
    IoBreakdown R = *this;
    R.Once = Once.minus(O.Once);
    for (size_t L = 0; L < NumIoLayers; ++L)
      R.Layers[L] = Layers[L].minus(O.Layers[L]);
    R.Mpi = Mpi.minus(O.Mpi);
    return R;
  }
  bool empty() const { return Once.empty(); }
  /// Back to IoBreakdown{}, touching only the parts that hold anything.
  void clear() {
    Once = {};
    for (unsigned Mask = LayerMask; Mask; Mask &= Mask - 1)
      Layers[__builtin_ctz(Mask)] = {};
    LayerMask = 0;
    if (HasMpi) {
      Mpi = {};
      HasMpi = false;
    }
  }
  /// Bytes that reached the files (bottomLayers); ops and time are Once's.
  IoTotals reached() const;
};

struct LayerStat {
  IoTotals Totals;     // every span of the layer (nested I/O calls included)
  uint64_t Failed = 0; // calls that returned an error
  OpStat ByOp[NumOps];
  uint64_t ReadBins[NumSizeBins] = {};
  uint64_t WriteBins[NumSizeBins] = {};
  MpiStat Mpi;       // MPIIO only
  OpStat Throttled;  // of Totals: calls the runtime counted, not written
  AccessStats Access; // I/O layers: the files' figures, summed by finish()

  void merge(const LayerStat &O);
};

/// Why spans of a function were not written (ThrottledRecord::Reason).
enum ThrottleReason : uint8_t {
  ThrottleBit = 1,     // "throttle": hot and short
  SizeLimitBit = 2,    // "size_limit": past the trace's size budget
  WriteErrorBit = 4,   // "write_error": the trace could not be written
  OtherReasonBit = 8,  // a reason this reader does not know
};

/// An annotated function (or region): its spans, and the I/O it issued.
struct FunctionStat {
  uint64_t Calls = 0;  // spans, plus the calls of throttled records
  uint64_t TimeUs = 0; // sum of their durations
  uint64_t ThrottledCalls = 0; // of Calls: counted by the runtime, not written
  uint64_t ThrottledUs = 0;    // of TimeUs
  uint8_t ThrottleReasons = 0; // ThrottleReason bits
  uint8_t SampledTime = 0; // 1: ThrottledUs is in part the runtime's estimate
  // I/O of the spans in the trace only: a throttled span is not there, so
  // the I/O it issued is its parent's (direct) and it has none.
  IoBreakdown Direct;    // I/O whose nearest enclosing annotated span is it
  IoBreakdown Inclusive; // I/O anywhere below it (recursion counted once)
  AccessStats Access; // Direct's POSIX and STDIO data calls (AccessCall)

  void merge(const FunctionStat &O) {
    Calls += O.Calls;
    TimeUs += O.TimeUs;
    ThrottledCalls += O.ThrottledCalls;
    ThrottledUs += O.ThrottledUs;
    ThrottleReasons |= O.ThrottleReasons;
    SampledTime |= O.SampledTime;
    Direct.merge(O.Direct);
    Inclusive.merge(O.Inclusive);
    Access.merge(O.Access);
  }
};

/// A throttled record's figures, summed over processes (by fcat, function).
struct ThrottleStat {
  uint64_t Calls = 0, DurUs = 0, Bytes = 0, Processes = 0;
  uint8_t Reasons = 0;
  uint8_t SampledTime = 0; // 1: DurUs is in part an estimate ("time":"sampled")

  void merge(const ThrottleStat &O) {
    Calls += O.Calls;
    DurUs += O.DurUs;
    Bytes += O.Bytes;
    Processes += O.Processes;
    Reasons |= O.Reasons;
    SampledTime |= O.SampledTime;
  }
};

/// One process's share of a file (for the per-file rank figures).
struct FileRank {
  uint32_t FileIndex = 0; // the process: Report::rankLabel names it
  int64_t Pid = 0;
  uint64_t Bytes = 0;  // bytes that reached the file (bottom layers)
  uint64_t TimeUs = 0; // time of its calls at those layers
  bool operator<(const FileRank &O) const {
    return std::tie(FileIndex, Pid, Bytes, TimeUs) <
           std::tie(O.FileIndex, O.Pid, O.Bytes, O.TimeUs);
  }
};

/// The byte ranges one process read and wrote on a file in one layer
/// (AccessStream::finish), kept until Aggregate::finish computes the bytes
/// different processes both covered.
struct ProcessRanges {
  RangeList Read, Write;
  uint32_t FileIndex = 0; // the process, which orders the lists
  int64_t Pid = 0;

  size_t size() const { return Read.size() + Write.size(); }
  bool operator<(const ProcessRanges &O) const {
    return std::tie(FileIndex, Pid) < std::tie(O.FileIndex, O.Pid);
  }
};

/// The ranges kept per file and layer for the cross-process figures
/// (16 bytes each, 16 MiB): the processes first in (file, pid) order whose lists
/// fit, so what is kept does not depend on the merge order. The others'
/// overlaps are not counted: the figures are "at least" (RangesCapped).
constexpr size_t MaxCrossRanges = size_t(1) << 20;

/// Keeps the processes of Ranges that MaxCrossRanges holds (see above);
/// returns how many were dropped.
uint64_t capRanges(std::vector<ProcessRanges> &Ranges);

/// The slowest single data call on a file in a layer.
struct SlowCall {
  uint64_t DurUs = 0, Bytes = 0;
  std::string Name;
  uint32_t FileIndex = 0; // its process
  int64_t Pid = 0;
  bool slowerThan(const SlowCall &O) const {
    return DurUs != O.DurUs ? DurUs > O.DurUs
                            : std::tie(FileIndex, Pid, Name, Bytes) <
                                  std::tie(O.FileIndex, O.Pid, O.Name, O.Bytes);
  }
};

/// Named values seen, with how many records had each: key -> value -> n.
using PropCounts = std::map<std::string, std::map<std::string, uint64_t>>;
inline void mergeProps(PropCounts &To, const PropCounts &From) {
  for (const auto &[K, Values] : From)
    for (const auto &[V, N] : Values)
      To[K][V] += N;
}

/// MPI-IO facts of a file: the hints in effect after each MPI_File_open
/// (MPIIO_HINTS record) and the views set (MPI_File_set_view events).
struct MpiFileInfo {
  uint64_t Opens = 0; // MPIIO_HINTS records
  PropCounts Hints; // key -> value -> opens
  std::map<uint64_t, uint64_t> CommSizes, Amodes; // value -> opens
  // {etype_size, filetype_size, filetype_extent, contiguous} -> calls
  std::map<std::vector<uint64_t>, uint64_t> Views;

  void merge(const MpiFileInfo &O) {
    Opens += O.Opens;
    mergeProps(Hints, O.Hints);
    for (const auto &[V, N] : O.CommSizes)
      CommSizes[V] += N;
    for (const auto &[V, N] : O.Amodes)
      Amodes[V] += N;
    for (const auto &[V, N] : O.Views)
      Views[V] += N;
  }
  bool empty() const { return !Opens && Views.empty(); }
};

/// One path, over every process that used it.
struct FileStat {
  IoTotals Layers[NumIoLayers]; // every I/O event on the file, per layer
  uint64_t MetaOps[NumIoLayers] = {}; // of which metadata operations
  uint64_t Calls[NumIoLayers][NumOps] = {}; // calls by operation (opens, ...)
  uint64_t MetaTimeUs[NumIoLayers] = {};
  uint64_t ReadTimeUs[NumIoLayers] = {}; // of its read calls
  uint64_t WriteTimeUs[NumIoLayers] = {};
  MpiStat Mpi;
  uint64_t Processes = 0; // processes that used it
  // Access patterns (AccessPattern.h), per layer: each process's streams,
  // summed; Cross* are filled in by Aggregate::finish from Ranges.
  AccessStats Access[NumIoLayers];
  std::vector<ProcessRanges> Ranges[NumIoLayers]; // cleared by finish()
  size_t RangeCount[NumIoLayers] = {}; // ranges held in Ranges[L]
  uint64_t RangesDropped[NumIoLayers] = {}; // processes capRanges dropped
  FsInfo Fs;               // the FS record (first that sorts first)
  std::vector<FileRank> Ranks; // one per process; sorted by finish()
  int64_t FirstOpenUs = std::numeric_limits<int64_t>::max(); // ts
  int64_t LastCloseUs = std::numeric_limits<int64_t>::min(); // ts + dur
  SlowCall Slowest[NumIoLayers]; // the slowest data call, per layer
  MpiFileInfo MpiInfo;
  PropCounts Hdf5Props; // HDF5_FILE records' properties
  uint64_t Hdf5Opens = 0; // HDF5_FILE records

  void merge(FileStat &&O) {
    for (size_t L = 0; L < NumIoLayers; ++L) {
      Layers[L].merge(O.Layers[L]);
      MetaOps[L] += O.MetaOps[L];
      for (size_t K = 0; K < NumOps; ++K)
        Calls[L][K] += O.Calls[L][K];
      MetaTimeUs[L] += O.MetaTimeUs[L];
      ReadTimeUs[L] += O.ReadTimeUs[L];
      WriteTimeUs[L] += O.WriteTimeUs[L];
      Access[L].merge(O.Access[L]);
      for (ProcessRanges &R : O.Ranges[L]) {
        RangeCount[L] += R.size();
        Ranges[L].push_back(std::move(R));
      }
      RangesDropped[L] += O.RangesDropped[L];
      if (RangeCount[L] > 2 * MaxCrossRanges) { // now and then: sorts
        RangesDropped[L] += capRanges(Ranges[L]);
        RangeCount[L] = 0;
        for (const ProcessRanges &R : Ranges[L])
          RangeCount[L] += R.size();
      }
      if (O.Slowest[L].slowerThan(Slowest[L]))
        Slowest[L] = O.Slowest[L];
    }
    Mpi.merge(O.Mpi);
    Processes += O.Processes;
    Fs.merge(O.Fs);
    Ranks.insert(Ranks.end(), O.Ranks.begin(), O.Ranks.end());
    FirstOpenUs = std::min(FirstOpenUs, O.FirstOpenUs);
    LastCloseUs = std::max(LastCloseUs, O.LastCloseUs);
    MpiInfo.merge(O.MpiInfo);
    mergeProps(Hdf5Props, O.Hdf5Props);
    Hdf5Opens += O.Hdf5Opens;
  }
  /// The access figures of the bottom layers (those reached() counts).
  AccessStats reachedAccess() const;
  /// The slowest data call of the bottom layers.
  SlowCall reachedSlowest() const;
  /// Cross-process bytes from Ranges, then drops them (Aggregate::finish).
  void finishAccess();
  /// What reached the file: the bottom layers' calls, time and bytes.
  IoTotals reached() const;
  uint64_t reachedMetaOps() const { return reachedSum(MetaOps); }
  /// Calls of operation O at the bottom layers.
  uint64_t reachedCalls(dftrace::Op O) const;
  uint64_t reachedMetaTimeUs() const { return reachedSum(MetaTimeUs); }
  /// A per-layer figure summed over the bottom layers (bottomLayers).
  uint64_t reachedSum(const uint64_t (&PerLayer)[NumIoLayers]) const;
};

/// One job's part of a file (issue 36). A job is a program and its launch
/// (jobKey): traces of several programs read together (a writer then a
/// reader, the demo's kernels) keep what each did on each file, so that
/// cache_bound and redundant_traffic judge a job's reads against its own
/// writes, never a reader's bytes against a writer's. Exact sums per
/// layer, merged like FileStat's; keyed by (job, path) in
/// Aggregate::JobFiles.
struct JobFileStat {
  IoTotals Layers[NumIoLayers];          // its processes' calls on the file
  uint64_t ReadTimeUs[NumIoLayers] = {}; // of their read calls
  uint64_t ReadOps[NumIoLayers] = {}, WriteOps[NumIoLayers] = {};
  // Data calls with an offset (AccessStats, POSIX and STDIO): their bytes,
  // the bytes a process moved again, and the bytes two of the job's
  // processes both covered (Cross*: set by Aggregate::finish).
  uint64_t AccessRead[NumIoLayers] = {}, AccessWritten[NumIoLayers] = {};
  uint64_t RedundantRead[NumIoLayers] = {};
  uint64_t RedundantWritten[NumIoLayers] = {};
  uint64_t CrossRead[NumIoLayers] = {}, CrossWritten[NumIoLayers] = {};
  uint64_t Processes = 0;

  /// Adds S, the file's figures of one process (or of all its processes).
  void add(const FileStat &S);
  void merge(const JobFileStat &O);
  /// The bytes moved again over a range already moved, at the layers of
  /// Mask (bottomLayers of the whole file), and the bytes moved there.
  uint64_t movedAgain(unsigned Mask) const;
  uint64_t accessBytes(unsigned Mask) const;
};

/// An HDF5 dataset (HDF5_DSET records, and the H5Dread/H5Dwrite calls
/// whose dhash names it), over every process that used it.
struct DatasetStat {
  uint64_t Opens = 0; // HDF5_DSET records
  PropCounts Props;   // layout, chunk, dims, type_size, fill_time
  OpStat Reads, Writes;
  uint64_t Collective = 0, Independent = 0; // calls by requested "xfer"
  std::map<std::string, uint64_t> IoModes; // "io_mode" after the call
  uint64_t Selection = 0;  // elements selected, summed
  ValueCounts Sizes;       // transfer sizes (bytes)

  void merge(const DatasetStat &O) {
    Opens += O.Opens;
    mergeProps(Props, O.Props);
    Reads.merge(O.Reads);
    Writes.merge(O.Writes);
    Collective += O.Collective;
    Independent += O.Independent;
    for (const auto &[M, N] : O.IoModes)
      IoModes[M] += N;
    Selection += O.Selection;
    Sizes.merge(O.Sizes);
  }
};

/// Calls left untraced by the runtime's data-dir filter, per directory.
struct UntracedStat {
  uint64_t Opens = 0, Reads = 0, Writes = 0, BytesRead = 0, BytesWritten = 0;
  uint64_t Processes = 0; // processes whose record names the directory

  void merge(const UntracedStat &O) {
    Opens += O.Opens;
    Reads += O.Reads;
    Writes += O.Writes;
    BytesRead += O.BytesRead;
    BytesWritten += O.BytesWritten;
    Processes += O.Processes;
  }
  uint64_t calls() const { return Opens + Reads + Writes; }
};

/// A process whose tracing stopped early ("trace_stopped").
struct StopRecord {
  uint32_t FileIndex = 0;
  int64_t Pid = 0;
  std::string Reason, Error;
  uint64_t Limit = 0, Written = 0;
  int64_t TsUs = -1;
};

/// A process in which a layer's calls bypass the runtime ("layer_bypassed").
struct BypassRecord {
  uint32_t FileIndex = 0;
  int64_t Pid = 0;
  std::string Layer, Symbol, Library, Fix;
};

/// A setting the runtime applied or judged ("tuning" record), with its
/// file's path ("" for a process-wide record: a malformed setting).
struct TuningStat {
  std::string Path, Setting, Key, Requested, Op, Source, Before, Effect,
      Status, Reason;

  auto tied() const {
    return std::tie(Path, Setting, Key, Requested, Op, Source, Before, Effect,
                    Status, Reason);
  }
  bool operator<(const TuningStat &O) const { return tied() < O.tied(); }
  bool operator==(const TuningStat &O) const { return tied() == O.tied(); }
};

/// A source that was not annotated: status "failed" or "excluded", why.
struct CoverageSource {
  std::string File, Status, Reason;
};

/// Which sources of the program were annotated, as the process's
/// "coverage" record says (issue 38; Has false without one): the counts
/// cover every source, Files those not annotated.
struct CoverageStat {
  bool Has = false;
  std::string Program;
  uint64_t Sources = 0, Annotated = 0, Failed = 0, Excluded = 0;
  bool Truncated = false;
  std::vector<CoverageSource> Files;
};

/// The run's configuration as one process recorded it (issue 35: CONFIG,
/// VERSION, MPI_JOB and tuning records). Empty for a trace without them.
struct ProcessConfig {
  bool HasConfig = false; // a CONFIG record: Exe, Argv, ... are set
  std::string Exe, Cwd, Glibc;
  // The launch (CONFIG's "launch": PMIx namespace, Slurm step, Hydra's
  // proxy or the process), which tells two runs of one command apart.
  std::string Launch;
  std::vector<std::string> Argv;
  uint64_t ArgvDropped = 0, EnvDropped = 0;
  std::vector<std::pair<std::string, std::string>> Env; // name -> value
  std::map<std::string, std::string> Versions;          // library -> version
  bool HasJob = false; // an MPI_JOB record: JobRank, JobSize are set
  uint64_t JobRank = 0, JobSize = 0;
  std::vector<TuningStat> Tuning; // in the trace's order
  // A trace_end record: the runtime finished this process's trace. Read
  // only by the file's own analysis (FileAnalyzer::finish), which turns a
  // CONFIG without it into an "unfinished" StopRecord.
  bool HasEnd = false;
  CoverageStat Coverage; // its "coverage" record (Configuration.h)

  bool empty() const {
    return !HasConfig && Versions.empty() && !HasJob && Tuning.empty();
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
  IoBreakdown Io;                   // its I/O calls
  // Its data calls' access patterns, every layer together, with only the
  // values the reports show (ValueCounts::keepTop): a rank keeps a few
  // hundred bytes, not its streams' value lists.
  AccessStats Access;
  std::string Host;                 // the NODE record; empty without
  uint64_t MemTotal = 0, Cpus = 0;
  Timeline Picture;                 // only with --html
  ProcessConfig Config;             // its CONFIG, VERSION, ... records

  int64_t wallUs() const { return Spans ? LastUs - FirstUs : 0; }
};

/// The job of a process: its CONFIG's executable, arguments and launch (as
/// Report names programs), else the program of its trace file TraceFile
/// (traceProgram).
std::string jobKey(const ProcessStat &P, const std::string &TraceFile);
/// A process's rank as the per-rank figures and call sites hold it: MPI's
/// rank, else "pid N" (the report's label without its program).
inline std::string processRank(const ProcessStat &P) {
  return P.Rank.empty() ? "pid " + std::to_string(P.Pid) : P.Rank;
}
/// The same, the trace file named by FileNames; "#" and the file's index
/// when FileNames does not reach it.
std::string jobKey(const ProcessStat &P,
                   const std::vector<std::string> &FileNames);
/// Whether jobKey(Y, FileNames) is sure to equal jobKey(*X, FileNames)
/// (no X: false), from what the key is made of, without making either:
/// a caller that goes through processes in order makes a key only where
/// the job may change (issue 41). Program: X's trace file's program on
/// entry (when X has no CONFIG and a named file), Y's on return; made only
/// when Y's file is another.
bool sameJobKey(const ProcessStat *X, const ProcessStat &Y,
                const std::vector<std::string> &FileNames,
                std::string &Program);

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
  IoBreakdown Io; // all I/O calls
  std::map<std::string, FunctionStat> Functions;
  // The runtime's records of what the trace does not hold.
  std::map<std::string, UntracedStat> Untraced; // by directory
  std::map<std::pair<std::string, std::string>, ThrottleStat>
      Throttled; // by (fcat, function)
  std::vector<StopRecord> Stopped;   // by file, pid (finish())
  std::vector<BypassRecord> Bypassed; // by file, pid, layer (finish())
  std::map<std::string, FileStat> Files; // by path
  // By (file path, dataset path).
  std::map<std::pair<std::string, std::string>, DatasetStat> Datasets;
  std::map<std::pair<uint8_t, std::string>, uint64_t> UnknownOps;
  std::vector<ProcessStat> Processes;
  uint64_t IssueCounts[NumIssues] = {};
  std::vector<IssueRecord> Issues; // the first MaxIssues, by file and line
  std::vector<CaveatRecord> Caveats; // by file (finish())
  DiagnosisFacts Diag; // call sites and per-file rank shares (CallSites.h)
  // By (jobKey, path): each job's part of each file (JobFileStat).
  std::map<std::pair<std::string, std::string>, JobFileStat> JobFiles;

  static constexpr size_t MaxIssues = 200;

  void merge(Aggregate &&O);
  /// Sorts processes (by file, pid) and keeps the first MaxIssues issues;
  /// computes each file's cross-process access figures (on Jobs threads)
  /// and the layers' access sums (LayerStat::Access), and each job's
  /// (JobFiles).
  void finish(unsigned Jobs = 1);
  uint64_t issueTotal() const;
  void addIssue(uint32_t FileIndex, uint64_t Line, Issue Kind,
                std::string Message);
};

// Serialisation (Archive.h).
template <class A> void visit(A &Ar, IoTotals &S) {
  Ar(S.Ops, S.BytesRead, S.BytesWritten, S.TimeUs);
}
template <class A> void visit(A &Ar, OpStat &S) { Ar(S.Ops, S.TimeUs, S.Bytes); }
template <class A> void visit(A &Ar, MpiStat &S) {
  Ar(S.Kinds, S.Opens, S.SizedOpens, S.CommSizeSum);
}
template <class A> void visit(A &Ar, IoBreakdown &S) {
  Ar(S.Once, S.Layers, S.Mpi, S.LayerMask, S.HasMpi);
}
template <class A> void visit(A &Ar, LayerStat &S) {
  Ar(S.Totals, S.Failed, S.ByOp, S.ReadBins, S.WriteBins, S.Mpi, S.Throttled,
     S.Access);
}
template <class A> void visit(A &Ar, FunctionStat &S) {
  Ar(S.Calls, S.TimeUs, S.ThrottledCalls, S.ThrottledUs, S.ThrottleReasons,
     S.SampledTime, S.Direct, S.Inclusive, S.Access);
}
template <class A> void visit(A &Ar, ThrottleStat &S) {
  Ar(S.Calls, S.DurUs, S.Bytes, S.Processes, S.Reasons, S.SampledTime);
}
template <class A> void visit(A &Ar, FileStat &S) {
  Ar(S.Layers, S.MetaOps, S.Calls, S.MetaTimeUs, S.ReadTimeUs, S.WriteTimeUs,
     S.Mpi, S.Processes, S.Access, S.Ranges, S.RangeCount, S.RangesDropped,
     S.Fs, S.Ranks, S.FirstOpenUs,
     S.LastCloseUs, S.Slowest, S.MpiInfo, S.Hdf5Props, S.Hdf5Opens);
}
template <class A> void visit(A &Ar, FileRank &S) {
  Ar(S.FileIndex, S.Pid, S.Bytes, S.TimeUs);
}
template <class A> void visit(A &Ar, JobFileStat &S) {
  Ar(S.Layers, S.ReadTimeUs, S.ReadOps, S.WriteOps, S.AccessRead,
     S.AccessWritten, S.RedundantRead, S.RedundantWritten, S.CrossRead,
     S.CrossWritten, S.Processes);
}
template <class A> void visit(A &Ar, DatasetStat &S) {
  Ar(S.Opens, S.Props, S.Reads, S.Writes, S.Collective, S.Independent,
     S.IoModes, S.Selection, S.Sizes);
}
template <class A> void visit(A &Ar, ProcessRanges &S) {
  Ar(S.Read, S.Write, S.FileIndex, S.Pid);
}
template <class A> void visit(A &Ar, SlowCall &S) {
  Ar(S.DurUs, S.Bytes, S.Name, S.FileIndex, S.Pid);
}
template <class A> void visit(A &Ar, MpiFileInfo &S) {
  Ar(S.Opens, S.Hints, S.CommSizes, S.Amodes, S.Views);
}
template <class A> void visit(A &Ar, UntracedStat &S) {
  Ar(S.Opens, S.Reads, S.Writes, S.BytesRead, S.BytesWritten, S.Processes);
}
template <class A> void visit(A &Ar, StopRecord &S) {
  Ar(S.FileIndex, S.Pid, S.Reason, S.Error, S.Limit, S.Written, S.TsUs);
}
template <class A> void visit(A &Ar, BypassRecord &S) {
  Ar(S.FileIndex, S.Pid, S.Layer, S.Symbol, S.Library, S.Fix);
}
template <class A> void visit(A &Ar, TuningStat &S) {
  Ar(S.Path, S.Setting, S.Key, S.Requested, S.Op, S.Source, S.Before,
     S.Effect, S.Status, S.Reason);
}
template <class A> void visit(A &Ar, CoverageSource &S) {
  Ar(S.File, S.Status, S.Reason);
}
template <class A> void visit(A &Ar, CoverageStat &S) {
  Ar(S.Has, S.Program, S.Sources, S.Annotated, S.Failed, S.Excluded,
     S.Truncated, S.Files);
}
template <class A> void visit(A &Ar, ProcessConfig &S) {
  Ar(S.HasConfig, S.Exe, S.Cwd, S.Glibc, S.Launch, S.Argv, S.ArgvDropped,
     S.EnvDropped, S.Env, S.Versions, S.HasJob, S.JobRank, S.JobSize, S.Tuning,
     S.Coverage);
}
template <class A> void visit(A &Ar, ProcessStat &S) {
  Ar(S.FileIndex, S.Pid, S.Rank, S.Events, S.Spans, S.Threads, S.FirstUs,
     S.LastUs, S.UnionUs, S.IoUnionUs, S.Io, S.Access, S.Host, S.MemTotal,
     S.Cpus, S.Picture, S.Config);
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
     S.Functions, S.Untraced, S.Throttled, S.Stopped, S.Bypassed, S.Files,
     S.UnknownOps, S.Processes, S.IssueCounts, S.Issues, S.TracerSpans,
     S.AggregatedRecords, S.Caveats, S.Datasets, S.Diag, S.JobFiles);
}

} // namespace dftanalyze

#endif
