//===- AccessPattern.h - How a file was accessed, from the offsets -*- C++ -*-===//
//
// Darshan's access counters (POSIX_SEQ_*, POSIX_CONSEC_*, POSIX_RW_SWITCHES,
// POSIX_ACCESS1-4, POSIX_STRIDE1-4, POSIX_MAX_BYTE_*, POSIX_FILE_NOT_ALIGNED),
// computed exactly from the `offset` of every data call, plus the bytes read
// or written more than once (docs/analysis.md, "Access patterns").
//
// One AccessStream follows the data calls of one process on one file in one
// layer, in trace order, and classifies each call against the previous one
// (its state is per stream, as Darshan's per file record). What it counts
// goes into an AccessStats, which is a sum: merging the stats of streams,
// processes or files in any order gives the same result (-j, mpiexec).
// Each call's classification (AccessCall) is also handed to the function
// the call is attributed to, whose AccessStats sums its calls' (an
// AccessTally holds them until the function's span is read).
//
// \code
//   AccessStream S;
//   S.data(false, 0, 4096, Unit);       // a read of 4 KiB at 0
//   S.data(false, 4096, 4096, Unit);    // consecutive and sequential
//   S.data(false, 65536, 4096, Unit);   // sequential, stride 57344
//   AccessStats Stats = S.finish();     // SeqReads 2, ConsecReads 1
// \endcode
//
// Memory: a stream keeps its read and written byte ranges as a sorted
// vector of disjoint intervals, at most MaxRanges of each (16 bytes each; a
// larger cap makes random traffic slow to analyse, as a range that lands
// between kept ones moves those after it); past that a call's bytes that
// overlap kept ranges still count as redundant, but new ranges are not kept, so
// the figures are lower bounds ("at least", RangesCapped). Common sizes and
// strides keep MaxValues distinct values per stream, then the top KeepValues at
// the end of the stream; calls whose value was not kept are in Other.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_ACCESSPATTERN_H
#define DFTRACER_ANALYZE_ACCESSPATTERN_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dftanalyze {

/// Values (access sizes, strides) with how many calls had each. Merged
/// over streams the lists are exact sums: at most KeepValues per stream,
/// so a figure over many processes grows with the distinct values their
/// streams kept (docs/analysis.md, "At scale"). Sorted pairs, 16 bytes a
/// value (a tree node took 48 and a malloc). A merge into a short list
/// adds a value already there in place (a binary search from the previous
/// one's place) and appends others to Pending; into a list of
/// SearchedValues or more it appends them all. Pending is folded in when
/// it is as long as Counts; a list at least an eighth as long as Counts is
/// merged in one pass.
struct ValueCounts {
  using Value = std::pair<int64_t, uint64_t>; // value, calls
  std::vector<Value> Counts; // by value, each once (after fold())
  uint64_t Other = 0; // calls whose value was not kept (caps above)

  static constexpr size_t MaxValues = 1024; // distinct values per stream
  static constexpr size_t KeepValues = 32;  // kept when a stream ends
  static constexpr size_t ReportedValues = 4; // the reports' top values
  // Lists shorter than this are searched by a merge (mergeValues).
  static constexpr size_t SearchedValues = 64;

  ValueCounts() = default;
  ValueCounts(const ValueCounts &O) : Counts(O.folded()), Other(O.Other) {}
  ValueCounts(ValueCounts &&) = default;
  ValueCounts &operator=(const ValueCounts &O) {
    Counts = O.folded();
    Pending.clear();
    Other = O.Other;
    return *this;
  }
  ValueCounts &operator=(ValueCounts &&) = default;

  void add(int64_t V, uint64_t N = 1);
  void merge(const ValueCounts &O);
  /// As merge() of a ValueCounts holding Sorted (by value, each once) and
  /// OtherCalls, without one: a file's kept values go straight into the
  /// worker's figures (issue 41: a list per stream and file, built, copied
  /// and freed, was a fifth of what merging them cost).
  void mergeValues(const std::vector<Value> &Sorted, uint64_t OtherCalls = 0);
  /// Moves Pending into Counts (sorted, each value once).
  void fold() const;
  /// Keeps the Keep most common values (ties: smaller value first).
  void trim(size_t Keep = KeepValues);
  /// Keeps the Keep most common values and leaves Other as it is: what
  /// top(Keep) and Other still say, in Keep entries (a rank's figures).
  void keepTop(size_t Keep = ReportedValues);
  /// Adds Values (in any order, a value any number of times) and keeps the
  /// top Keep: as merging lists of them and keepTop(Keep), with one sort
  /// of them all instead of a merge per list (a rank's streams; issue 41).
  /// Values is left empty, its memory kept.
  void keepTopOf(std::vector<Value> &Values, size_t Keep = ReportedValues);
  /// The N most common, most common first (ties: smaller value first).
  std::vector<Value> top(size_t N) const;
  bool empty() const { return Counts.empty() && Pending.empty() && !Other; }

private:
  std::vector<Value> folded() const {
    fold();
    return Counts;
  }
  mutable std::vector<Value> Pending; // merged, not yet folded in
};

/// Values counted in a hash while a trace file is read (one probe per
/// call, where ValueCounts' tree takes one per level), up to
/// ValueCounts::MaxValues distinct, then moved into a ValueCounts. Open
/// addressing in one array: no allocation per value (a node per value
/// was most of what a function's figures cost).
class ValueTally {
public:
  /// N more calls of value V; past the cap they go to Into.Other.
  void add(int64_t V, uint64_t N, ValueCounts &Into);
  /// Adds the values to Into (its counts, then trimmed to KeepValues)
  /// and empties this.
  void moveTo(ValueCounts &Into);
  /// The values as moveTo() leaves them in a ValueCounts without counts,
  /// without one: the KeepValues most common into Top (by value; its
  /// memory is the caller's, kept from call to call), the others' calls
  /// added to Other. Empties this.
  void takeTop(std::vector<ValueCounts::Value> &Top, uint64_t &Other);
  /// Empty. A table of up to KeptSlots slots is kept, zeroed, for the
  /// next stream or file: growing it again from 8 slots took three
  /// allocations and rehashes per stream of each file (issue 41).
  void clear();

private:
  static constexpr size_t KeptSlots = 64;
  void grow();
  /// Moves every value into All (cleared first; in no set order).
  void takeAll(std::vector<ValueCounts::Value> &All);
  std::vector<std::pair<int64_t, uint64_t>> Slots; // count 0: empty
  // The slots in use (at most 2 * MaxValues slots: 16 bits), so that taking
  // and clearing a few values does not walk a table kept at 64 slots.
  std::vector<uint16_t> Occupied;
  size_t Used = 0;
};

/// The kept sizes and strides of a finished stream or function, held apart
/// from its figures (AccessStream::finish, AccessSum::finish): a worker
/// reuses these vectors for every stream and function of its files and
/// merges them into its own figures (ValueCounts::mergeValues).
struct TopValues {
  std::vector<ValueCounts::Value> Sizes, Strides; // by value, each once
};

/// Sorted, disjoint [Begin, End) byte ranges.
using RangeList = std::vector<std::pair<uint64_t, uint64_t>>;

/// Bytes in Ranges (disjoint).
uint64_t rangeBytes(const RangeList &Ranges);

/// The bytes covered more than once by the range lists of several
/// processes: sum of each list's bytes minus the bytes of their union.
uint64_t crossBytes(std::vector<const RangeList *> Lists);

/// A process's memory alignment for the call being classified: the CM
/// record "mem_alignment" (Unit; 0: the process has none, an older
/// runtime) and the call's "mem_align" arg (the runtime writes it only when
/// the buffer is not a multiple of Unit, like Darshan's
/// POSIX_MEM_NOT_ALIGNED).
struct MemAlign {
  uint64_t Unit = 0;
  bool NotAligned = false;
};

/// How AccessStream::data classified one call against the previous call of
/// its stream: what the call adds to the figures of the function it is
/// attributed to (FileAnalyzer hands it up to the nearest annotated span).
struct AccessCall {
  enum : uint16_t {
    Valid = 1,       // a classified call (else: nothing)
    Write = 2,       // else a read
    HasOffset = 4,   // else only the *_without_offset counter
    HasStride = 8,   // not the first call of its kind in the stream
    Seq = 16,
    Consec = 32,
    Switch = 64,     // a read after a write or a write after a read
    NotAligned = 128,
    Assumed = 256,   // judged against the 1 MiB default
    MemJudged = 512, // the process recorded its memory alignment
    MemNotAligned = 1024,
    Capped = 2048,   // the stream is past MaxRanges: Redundant a lower bound
  };
  uint16_t Flags = 0;
  int64_t Offset = 0; // with HasOffset
  uint64_t Size = 0;
  int64_t Stride = 0; // with HasStride
  uint64_t Align = 0;     // the unit the offset was judged against
  uint64_t MemUnit = 0;   // with MemJudged
  uint64_t Redundant = 0; // bytes of it its stream had already covered
  bool valid() const { return Flags & Valid; }
};

/// The counters of AccessStats that are sums (or extremes) over calls, so
/// one call's AccessCall adds to them directly.
struct AccessCounts {
  uint64_t Reads = 0, Writes = 0;     // data calls with an offset
  uint64_t BytesRead = 0, BytesWritten = 0; // their bytes
  uint64_t ReadsNoOffset = 0, WritesNoOffset = 0; // data calls without
  uint64_t SeqReads = 0, SeqWrites = 0;
  uint64_t ConsecReads = 0, ConsecWrites = 0;
  uint64_t RwSwitches = 0;
  int64_t MaxByteRead = -1, MaxByteWritten = -1; // highest byte; -1: none
  uint64_t NotAligned = 0, NotAlignedBytes = 0;
  uint64_t AlignMin = 0, AlignMax = 0; // units used (0: no call judged)
  uint64_t AlignAssumed = 0; // calls judged against the 1 MiB default
  // Bytes moved again over the same byte range, by the same process.
  uint64_t RedundantRead = 0, RedundantWritten = 0;
  // Memory buffers: calls (with or without offset) of processes that
  // recorded their alignment, of which not aligned; the units recorded.
  uint64_t MemJudged = 0, MemNotAligned = 0;
  uint64_t MemAlignMin = 0, MemAlignMax = 0;
  // Streams past MaxRanges (a function's: calls classified past it): the
  // redundant figures are "at least".
  uint64_t RangesCapped = 0;

  /// One classified call (Sizes and Strides are the caller's).
  void add(const AccessCall &C);
  void merge(const AccessCounts &O);
  uint64_t calls() const {
    return Reads + Writes + ReadsNoOffset + WritesNoOffset;
  }
  bool empty() const { return !calls(); }
  /// The alignment unit, when every judged call used the same one.
  uint64_t alignment() const { return AlignMin == AlignMax ? AlignMin : 0; }
  /// The memory alignment, when every judged call's process recorded the
  /// same one (0: mixed, or none recorded: MemJudged says which).
  uint64_t memAlignment() const {
    return MemAlignMin == MemAlignMax ? MemAlignMin : 0;
  }
};

/// Values counted in a few inline slots, then in a ValueCounts: the sizes
/// and strides of the calls a span holds until a function claims them
/// (most hold a few calls of one or two sizes: no allocation).
class SmallValues {
public:
  void add(int64_t V, uint64_t N = 1);
  /// Adds O's values and empties O.
  void take(SmallValues &O);
  /// Adds the values to To (past its cap: Other, as ValueTally::add).
  void addTo(ValueTally &To, ValueCounts &Other) const;
  bool empty() const { return !Used; }
  void clear() {
    Used = 0;
    More.reset();
  }

private:
  static constexpr size_t Slots = 4;
  std::pair<int64_t, uint64_t> Slot[Slots];
  uint8_t Used = 0;
  std::unique_ptr<ValueCounts> More;
};

/// Classified calls not yet attributed to a function (FileAnalyzer's
/// Pending): AccessStats' counters and values, cheap to build per span.
struct AccessTally {
  AccessCounts Counts;
  SmallValues Sizes, Strides;

  void add(const AccessCall &C);
  /// Adds O's calls and empties O.
  void take(AccessTally &O);
  bool empty() const { return Counts.empty(); }
  void clear() {
    Counts = AccessCounts();
    Sizes.clear();
    Strides.clear();
  }
};

/// An AccessTally made at its first call, so that a span with no data call
/// below costs a null pointer (FileAnalyzer's Pending is allocated per
/// span: kept small, it stays in malloc's fast per-thread cache). Tallies
/// are reused from a per-thread pool: one is made per span with data
/// calls below, and malloc was a tenth of what these figures cost.
class LazyTally {
public:
  LazyTally() = default;
  LazyTally(LazyTally &&O) noexcept : T(std::move(O.T)) {}
  LazyTally &operator=(LazyTally &&O) noexcept {
    clear();
    T = std::move(O.T);
    return *this;
  }
  ~LazyTally() { clear(); }

  void add(const AccessCall &C) {
    if (!T)
      T = fromPool();
    T->add(C);
  }
  /// Adds O's calls and empties O.
  void take(LazyTally &O) {
    if (!O.T)
      return;
    if (!T) {
      T = std::move(O.T);
      return;
    }
    T->take(*O.T);
    O.clear();
  }
  bool empty() const { return !T || T->empty(); }
  /// The calls; null when none.
  const AccessTally *get() const { return T.get(); }
  /// Empties it (the tally goes back to the pool).
  void clear() {
    if (T)
      toPool(std::move(T));
  }

private:
  static std::unique_ptr<AccessTally> fromPool();
  static void toPool(std::unique_ptr<AccessTally> T);
  std::unique_ptr<AccessTally> T;
};

/// What the data calls of a scope (a stream, a process, a file, a layer,
/// a function) did, with Darshan's definitions (docs/analysis.md):
///  - sequential: starts at or after the end of the previous call of the
///    same kind (read or write) of the process on the file; consecutive:
///    starts exactly there. The first call of a stream is neither;
///  - rw switch: a read after a write, or a write after a read;
///  - stride: offset minus the previous same-kind call's end (0 for a
///    consecutive call, negative backwards); not counted for the first;
///  - not aligned: the offset is not a multiple of the file system's
///    stripe size (Lustre), else its block size, else 1 MiB (Assumed);
///  - memory not aligned: the call's buffer is not a multiple of the
///    process's recorded memory alignment (the call's "mem_align" arg).
struct AccessStats : AccessCounts {
  ValueCounts Sizes;   // reads and writes together, as Darshan's ACCESS
  ValueCounts Strides; // reads and writes together, as Darshan's STRIDE
  // Distinct bytes each process read or wrote, summed over processes.
  uint64_t DistinctRead = 0, DistinctWritten = 0;
  // Bytes read (written) by one process that another had already covered
  // (Aggregate::finish, per file over its processes; sums above files).
  uint64_t CrossRead = 0, CrossWritten = 0;

  void merge(const AccessStats &O);
  /// merge() without Sizes and Strides (their values are the caller's).
  void mergeCounts(const AccessStats &O);
  /// Every figure as a default AccessStats's (merging it changes nothing).
  bool none() const;
};

/// A function's calls while its trace file is read: the tallies its spans
/// claimed, with sizes and strides in hashes (as a stream's).
class AccessSum {
public:
  void add(const AccessTally &T);
  /// One call, as add() of a tally holding only C (an I/O call that is a
  /// root of its trace: no span to hold it first).
  void add(const AccessCall &C);
  /// The figures, with Sizes and Strides trimmed (as a stream's).
  AccessStats finish();
  /// The same, the kept values in Top instead: the figures' Sizes and
  /// Strides hold only their Other.
  AccessStats finish(TopValues &Top);
  /// Back to a new AccessSum's state, keeping small tallies' memory
  /// (FileAnalyzer's sum per function is reused from file to file: a
  /// malloc and a free per function and file; issue 41).
  void reset();

private:
  AccessStats S;
  ValueTally Sizes, Strides;
};

/// One process's data calls on one file in one layer, in trace order.
class AccessStream {
public:
  static constexpr size_t MaxRanges = 1 << 12; // per kind, per stream
  static constexpr uint64_t DefaultAlign = 1 << 20;

  /// A data call of Size bytes at Offset; Align is the unit it is judged
  /// against (0: unknown, DefaultAlign is used and counted as assumed).
  /// Returns how it was classified (for its function's figures).
  AccessCall data(bool Write, uint64_t Offset, uint64_t Size, uint64_t Align,
                  MemAlign Mem = {});
  /// A data call whose offset the trace does not hold.
  AccessCall noOffset(bool Write, MemAlign Mem = {});
  /// The counters, with Sizes and Strides trimmed; the byte ranges move
  /// into ReadRanges and WriteRanges (for the cross-process figures).
  /// The stream must be reset() before its next call.
  AccessStats finish(RangeList &ReadRanges, RangeList &WriteRanges);
  /// The same, the kept values in Top instead: the figures' Sizes and
  /// Strides hold only their Other.
  AccessStats finish(RangeList &ReadRanges, RangeList &WriteRanges,
                     TopValues &Top);
  /// Back to a new stream's state, keeping its tallies' memory.
  void reset();
  /// Whether it was given a call since it was new or reset(): a stream
  /// that was not has nothing to finish() (its figures are a default
  /// AccessStats's, which merge as nothing).
  bool used() const { return !S.empty(); }

  AccessStream() = default;
  AccessStream(const AccessStream &) = delete; // a stream is one file's
  AccessStream &operator=(const AccessStream &) = delete;

private:
  /// Sorted, disjoint, not touching [begin, end) ranges. A sorted vector,
  /// not a tree: a stream's calls mostly continue or follow its last range
  /// (extended in place, or appended: no allocation per range, the
  /// search a binary one over contiguous memory); a range that lands
  /// between kept ones moves the ranges after it, at most MaxRanges.
  using Ranges = RangeList;
  static constexpr size_t KeptRanges = 256; // kept by finish() (4 KB)
  /// Adds [B, E) to R (when it fits under MaxRanges); returns the bytes
  /// of it that R already held. Last is the index of the range that holds
  /// the end of the previous call (R.size(): none).
  uint64_t cover(Ranges &R, size_t &Last, uint64_t B, uint64_t E);
  /// Counts V in Counts (a hash while the stream is read: one lookup per
  /// call), up to MaxValues distinct values, else in Into.Other.
  /// A call of kind Write with memory alignment Mem, not yet classified.
  static AccessCall begin(bool Write, MemAlign Mem);

  AccessStats S;
  int64_t LastReadEnd = -1, LastWriteEnd = -1;
  uint8_t LastKind = 0; // 0 none, 1 read, 2 write
  bool Capped = false;
  Ranges Read, Written;
  size_t LastRead = 0, LastWritten = 0; // indices into Read and Written
  ValueTally SizeCounts, StrideCounts;
};

/// The file system a file is on (the FS record, docs/trace-format.md).
struct FsInfo {
  std::string Type;  // "ext4", "lustre", ..., "unknown"; empty: no record
  std::string Mount;
  std::string Magic; // for "unknown"
  uint64_t BlockSize = 0, StripeSize = 0, StripeCount = 0;

  /// What offsets are judged against: the stripe size, else the block size.
  uint64_t alignUnit() const { return StripeSize ? StripeSize : BlockSize; }
  /// Keeps the record that sorts first, so merging is order-independent.
  void merge(const FsInfo &O);
};

// Serialisation (Archive.h).
template <class A> void visit(A &Ar, ValueCounts &S) {
  S.fold();
  Ar(S.Counts, S.Other);
}
template <class A> void visit(A &Ar, AccessStats &S) {
  Ar(S.Reads, S.Writes, S.BytesRead, S.BytesWritten, S.ReadsNoOffset,
     S.WritesNoOffset, S.SeqReads, S.SeqWrites, S.ConsecReads, S.ConsecWrites,
     S.RwSwitches, S.MaxByteRead, S.MaxByteWritten, S.Sizes, S.Strides,
     S.NotAligned, S.NotAlignedBytes, S.AlignMin, S.AlignMax, S.AlignAssumed,
     S.RedundantRead, S.RedundantWritten, S.DistinctRead, S.DistinctWritten,
     S.CrossRead, S.CrossWritten, S.RangesCapped, S.MemJudged,
     S.MemNotAligned, S.MemAlignMin, S.MemAlignMax);
}
template <class A> void visit(A &Ar, FsInfo &S) {
  Ar(S.Type, S.Mount, S.Magic, S.BlockSize, S.StripeSize, S.StripeCount);
}

} // namespace dftanalyze

#endif
