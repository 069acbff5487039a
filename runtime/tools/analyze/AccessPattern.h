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
//
// \code
//   AccessStream S;
//   S.data(false, 0, 4096, Unit);       // a read of 4 KiB at 0
//   S.data(false, 4096, 4096, Unit);    // consecutive and sequential
//   S.data(false, 65536, 4096, Unit);   // sequential, stride 57344
//   AccessStats Stats = S.finish();     // SeqReads 2, ConsecReads 1
// \endcode
//
// Memory: a stream keeps its read and written byte ranges as a set of
// disjoint intervals, at most MaxRanges of each (16 bytes each once the
// stream ends; a larger cap makes random traffic slow to analyse, as each
// call searches a tree that no longer fits in cache); past that a call's bytes that overlap kept ranges still
// count as redundant, but new ranges are not kept, so the figures are
// lower bounds ("at least", RangesCapped). Common sizes and strides keep
// MaxValues distinct values per stream, then the top KeepValues at the end
// of the stream; calls whose value was not kept are in Other.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_ACCESSPATTERN_H
#define DFTRACER_ANALYZE_ACCESSPATTERN_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dftanalyze {

/// Values (access sizes, strides) with how many calls had each.
struct ValueCounts {
  std::map<int64_t, uint64_t> Counts;
  uint64_t Other = 0; // calls whose value was not kept (caps above)

  static constexpr size_t MaxValues = 1024; // distinct values per stream
  static constexpr size_t KeepValues = 32;  // kept when a stream ends

  void add(int64_t V);
  void merge(const ValueCounts &O);
  /// Keeps the Keep most common values (ties: smaller value first).
  void trim(size_t Keep = KeepValues);
  /// The N most common, most common first (ties: smaller value first).
  std::vector<std::pair<int64_t, uint64_t>> top(size_t N) const;
  bool empty() const { return Counts.empty() && !Other; }
};

/// Sorted, disjoint [Begin, End) byte ranges.
using RangeList = std::vector<std::pair<uint64_t, uint64_t>>;

/// Bytes in Ranges (disjoint).
uint64_t rangeBytes(const RangeList &Ranges);

/// The bytes covered more than once by the range lists of several
/// processes: sum of each list's bytes minus the bytes of their union.
uint64_t crossBytes(std::vector<const RangeList *> Lists);

/// What the data calls of a scope (a stream, a process, a file, a layer)
/// did, with Darshan's definitions (docs/analysis.md):
///  - sequential: starts at or after the end of the previous call of the
///    same kind (read or write) of the process on the file; consecutive:
///    starts exactly there. The first call of a stream is neither;
///  - rw switch: a read after a write, or a write after a read;
///  - stride: offset minus the previous same-kind call's end (0 for a
///    consecutive call, negative backwards); not counted for the first;
///  - not aligned: the offset is not a multiple of the file system's
///    stripe size (Lustre), else its block size, else 1 MiB (Assumed).
struct AccessStats {
  uint64_t Reads = 0, Writes = 0;     // data calls with an offset
  uint64_t BytesRead = 0, BytesWritten = 0; // their bytes
  uint64_t ReadsNoOffset = 0, WritesNoOffset = 0; // data calls without
  uint64_t SeqReads = 0, SeqWrites = 0;
  uint64_t ConsecReads = 0, ConsecWrites = 0;
  uint64_t RwSwitches = 0;
  int64_t MaxByteRead = -1, MaxByteWritten = -1; // highest byte; -1: none
  ValueCounts Sizes;   // reads and writes together, as Darshan's ACCESS
  ValueCounts Strides; // reads and writes together, as Darshan's STRIDE
  uint64_t NotAligned = 0, NotAlignedBytes = 0;
  uint64_t AlignMin = 0, AlignMax = 0; // units used (0: no call judged)
  uint64_t AlignAssumed = 0; // calls judged against the 1 MiB default
  // Bytes moved again over the same byte range, by the same process.
  uint64_t RedundantRead = 0, RedundantWritten = 0;
  // Distinct bytes each process read or wrote, summed over processes.
  uint64_t DistinctRead = 0, DistinctWritten = 0;
  // Bytes read (written) by one process that another had already covered
  // (Aggregate::finish, per file over its processes; sums above files).
  uint64_t CrossRead = 0, CrossWritten = 0;
  uint64_t RangesCapped = 0; // streams past MaxRanges: redundant "at least"

  void merge(const AccessStats &O);
  bool empty() const {
    return !Reads && !Writes && !ReadsNoOffset && !WritesNoOffset;
  }
  /// The alignment unit, when every judged call used the same one.
  uint64_t alignment() const { return AlignMin == AlignMax ? AlignMin : 0; }
};

/// One process's data calls on one file in one layer, in trace order.
class AccessStream {
public:
  static constexpr size_t MaxRanges = 1 << 12; // per kind, per stream
  static constexpr uint64_t DefaultAlign = 1 << 20;

  /// A data call of Size bytes at Offset; Align is the unit it is judged
  /// against (0: unknown, DefaultAlign is used and counted as assumed).
  void data(bool Write, uint64_t Offset, uint64_t Size, uint64_t Align);
  /// A data call whose offset the trace does not hold.
  void noOffset(bool Write);
  /// The counters, with Sizes and Strides trimmed; the byte ranges move
  /// into ReadRanges and WriteRanges (for the cross-process figures).
  AccessStats finish(RangeList &ReadRanges, RangeList &WriteRanges);

  AccessStream() = default;
  AccessStream(const AccessStream &) = delete; // LastRead points into Read
  AccessStream &operator=(const AccessStream &) = delete;

private:
  using Ranges = std::map<uint64_t, uint64_t>; // begin -> end
  /// Adds [B, E) to R (when it fits under MaxRanges); returns the bytes
  /// of it that R already held.
  uint64_t cover(Ranges &R, uint64_t B, uint64_t E);
  /// Counts V in Counts (a hash while the stream is read: one lookup per
  /// call), up to MaxValues distinct values, else in Into.Other.
  static void count(std::unordered_map<int64_t, uint64_t> &Counts,
                    ValueCounts &Into, int64_t V);

  AccessStats S;
  int64_t LastReadEnd = -1, LastWriteEnd = -1;
  uint8_t LastKind = 0; // 0 none, 1 read, 2 write
  bool Capped = false;
  Ranges Read, Written;
  Ranges::iterator LastRead = Read.end(), LastWritten = Written.end();
  std::unordered_map<int64_t, uint64_t> SizeCounts, StrideCounts;
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
template <class A> void visit(A &Ar, ValueCounts &S) { Ar(S.Counts, S.Other); }
template <class A> void visit(A &Ar, AccessStats &S) {
  Ar(S.Reads, S.Writes, S.BytesRead, S.BytesWritten, S.ReadsNoOffset,
     S.WritesNoOffset, S.SeqReads, S.SeqWrites, S.ConsecReads, S.ConsecWrites,
     S.RwSwitches, S.MaxByteRead, S.MaxByteWritten, S.Sizes, S.Strides,
     S.NotAligned, S.NotAlignedBytes, S.AlignMin, S.AlignMax, S.AlignAssumed,
     S.RedundantRead, S.RedundantWritten, S.DistinctRead, S.DistinctWritten,
     S.CrossRead, S.CrossWritten, S.RangesCapped);
}
template <class A> void visit(A &Ar, FsInfo &S) {
  Ar(S.Type, S.Mount, S.Magic, S.BlockSize, S.StripeSize, S.StripeCount);
}

} // namespace dftanalyze

#endif
