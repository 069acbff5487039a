//===- IoTaxonomy.h - Layers, operations and bytes of I/O events -*- C++ -*-===//
//
// The one classification of trace events that dftracer-check and
// dftracer-analyze share (docs/analysis.md prints it as a table):
//
// \code
//   cat "POSIX", name "__pread64_chk"  -> Layer::Posix, Op::Read
//   cat "STDIO", name "fflush"         -> Layer::Stdio, Op::Sync
//   cat "MPIIO", name "MPI_File_iwrite_at_all" -> Layer::MpiIo, Op::Write
//   cat "HDF5",  name "H5Dcreate2"     -> Layer::Hdf5, Op::Open
//   cat "C_APP", any name              -> Layer::App
// \endcode
//
// Names are first reduced to a base form: a leading "__" and trailing
// "_chk", "_2", "_unlocked" and "64" are dropped, so open64, __open_2,
// __read_chk, pread64, fread_unlocked and __xstat64 find open, read, pread,
// fread and xstat. A name the table does not know is Op::Unknown: counted in
// its layer, never dropped.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_IOTAXONOMY_H
#define DFTRACER_READER_IOTAXONOMY_H

#include "Event.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace dftrace {

enum class Layer : uint8_t { App, Posix, Stdio, MpiIo, Hdf5, Other };
constexpr size_t NumLayers = 6;

/// "APP", "POSIX", "STDIO", "MPIIO", "HDF5", "OTHER".
const char *layerName(Layer L);
/// C_APP, CPP_APP, PY_APP: App; POSIX, STDIO, MPIIO, HDF5: their layer;
/// anything else: Other (an unknown category). Every span asks (the checks
/// and the analyzer), so it is inline: by length, then one compare of the
/// category's bytes as a word with each name of that length (a chain of
/// string compares was 2% of the analyzer's instructions).
/// Bytes 0..3 and N-4..N-1 of the N bytes at P, 4 <= N <= 8 (they overlap
/// below 8), as one little-endian word: with N known, equal words mean
/// equal bytes. A short name's compare and hash in two loads.
inline uint64_t edgeWord(const char *P, size_t N) {
  uint32_t Lo, Hi;
  std::memcpy(&Lo, P, 4);
  std::memcpy(&Hi, P + N - 4, 4);
  return Lo | static_cast<uint64_t>(Hi) << 32;
}

inline Layer layerOfCategory(std::string_view Cat) {
  // edgeWord of a name of 4 to 7 bytes, against the known names' words.
  struct Key {
    static constexpr uint64_t of(std::string_view S) {
      uint64_t Lo = 0, Hi = 0;
      for (size_t I = 0; I < 4; ++I) {
        Lo |= uint64_t(uint8_t(S[I])) << (8 * I);
        Hi |= uint64_t(uint8_t(S[S.size() - 4 + I])) << (8 * I);
      }
      return Lo | Hi << 32;
    }
  };
  size_t N = Cat.size();
  if (N < 4 || N > 7)
    return Layer::Other;
  uint64_t W = edgeWord(Cat.data(), N);
  switch (N) {
  case 4:
    return W == Key::of("HDF5") ? Layer::Hdf5 : Layer::Other;
  case 5:
    if (W == Key::of("POSIX"))
      return Layer::Posix;
    if (W == Key::of("C_APP"))
      return Layer::App;
    if (W == Key::of("STDIO"))
      return Layer::Stdio;
    return W == Key::of("MPIIO") ? Layer::MpiIo : Layer::Other;
  case 6:
    return W == Key::of("PY_APP") ? Layer::App : Layer::Other;
  default:
    return W == Key::of("CPP_APP") ? Layer::App : Layer::Other;
  }
}
inline bool isIoLayer(Layer L) { return L >= Layer::Posix && L <= Layer::Hdf5; }

/// What an I/O call does. Read and Write move data; Open .. Control are
/// metadata (fsync and fflush are Sync, which is metadata here: Darshan
/// counts fsync as write time instead); Other and Unknown are neither.
enum class Op : uint8_t {
  Read,
  Write,
  Open,
  Close,
  Stat,
  Seek,
  Sync,
  Namespace, // mkdir, rmdir, unlink, rename, opendir, readdir, MPI_File_delete
  Control,   // ftruncate, fcntl, dup, MPI_File_set_view, H5Dset_extent
  Other,     // mmap, munmap, aio_return (the request counted the bytes)
  Unknown,   // a name the taxonomy does not list
};
constexpr size_t NumOps = 11;

/// "read", "write", "open", ..., "unknown".
const char *opName(Op O);
inline bool isDataOp(Op O) { return O == Op::Read || O == Op::Write; }
inline bool isMetadataOp(Op O) { return O >= Op::Open && O <= Op::Control; }

/// The operation of an event of an I/O layer.
Op opOf(Layer L, std::string_view Name);

/// How an MPI-IO data call (a read or write) relates to the other ranks and
/// to its completion, from its name after "MPI_File_" (or "PMPI_File_"):
///
/// \code
///   read, write, read_at, write_shared, ...       -> Independent
///   read_all, write_at_all, read_ordered, ...     -> Collective
///   iread, iwrite_at, iwrite_shared, ...          -> NonBlocking
///   iread_all, iwrite_at_all                      -> NonBlockingCollective
///   read_all_begin, write_ordered_begin, ...      -> SplitBegin
///   read_all_end, write_at_all_end, ...           -> SplitEnd
/// \endcode
///
/// Every other call (and every call of another layer) is None.
enum class MpiKind : uint8_t {
  Independent,
  Collective,
  NonBlocking,
  NonBlockingCollective,
  SplitBegin,
  SplitEnd,
  None,
};
constexpr size_t NumMpiKinds = 6; // None is not counted

/// "independent", "collective", "nonblocking", "nonblocking_collective",
/// "split_begin", "split_end" (the reports' keys).
const char *mpiKindName(MpiKind K);
/// True for the kinds that involve every rank of the file's communicator.
inline bool isCollective(MpiKind K) {
  return K == MpiKind::Collective || K == MpiKind::NonBlockingCollective ||
         K == MpiKind::SplitBegin || K == MpiKind::SplitEnd;
}
/// The kind of an MPI-IO call by name (see MpiKind).
MpiKind mpiKindOf(std::string_view Name);

/// What one I/O event did, as docs/trace-format.md defines bytes.
struct IoCall {
  Layer L = Layer::App;
  Op O = Op::Unknown;
  MpiKind Mpi = MpiKind::None; // MPI-IO reads and writes
  bool Failed = false; // the call returned an error (ret < 0, MPI error)
  uint64_t Bytes = 0;  // bytes moved by a data call that succeeded
};

/// What an I/O call's name says about it: everything classifyIo needs
/// from the name, so a reader that interns names asks once per name.
struct CallName {
  Op O = Op::Unknown;
  MpiKind Mpi = MpiKind::None; // of MPI-IO reads and writes
  bool AioRequest = false;     // aio_read/aio_write: bytes are `count`
};
CallName callNameOf(Layer L, std::string_view Name);

/// Classifies an X event of an I/O layer.
IoCall classifyIo(Layer L, const Event &E);
/// The same, with its name's CallName already known (callNameOf(L, name)).
IoCall classifyIo(Layer L, const CallName &N, const Event &E);

/// Operations, bytes and time of a set of calls: the per-layer totals that
/// dftracer-check prints, and every such figure of dftracer-analyze (a
/// layer, a file, a rank, the I/O of a function). Application spans count
/// as operations of Layer::App with no bytes.
struct IoTotals {
  uint64_t Ops = 0;
  uint64_t BytesRead = 0;
  uint64_t BytesWritten = 0;
  uint64_t TimeUs = 0; // sum of durations

  void add(const IoCall &C, uint64_t DurUs) {
    ++Ops;
    TimeUs += DurUs;
    if (C.O == Op::Read)
      BytesRead += C.Bytes;
    else if (C.O == Op::Write)
      BytesWritten += C.Bytes;
  }
  void merge(const IoTotals &O) {
    Ops += O.Ops;
    BytesRead += O.BytesRead;
    BytesWritten += O.BytesWritten;
    TimeUs += O.TimeUs;
  }
  /// this - O, for a part of this already counted elsewhere (O <= this).
  IoTotals minus(const IoTotals &O) const {
    return {Ops - O.Ops, BytesRead - O.BytesRead,
            BytesWritten - O.BytesWritten, TimeUs - O.TimeUs};
  }
  uint64_t bytes() const { return BytesRead + BytesWritten; }
  bool empty() const { return Ops == 0; }
};

/// Darshan's ten access-size bins: 0-100, 101-1K, 1K-10K, 10K-100K,
/// 100K-1M, 1M-4M, 4M-10M, 10M-100M, 100M-1G, 1G+ (bounds inclusive, as
/// darshan-common.h's DARSHAN_BUCKET_INC).
constexpr size_t NumSizeBins = 10;
size_t sizeBin(uint64_t Bytes);
/// "0-100", "101-1K", ..., "1G+".
const char *sizeBinName(size_t Bin);

} // namespace dftrace

#endif
