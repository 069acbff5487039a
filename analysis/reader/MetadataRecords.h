//===- MetadataRecords.h - The runtime's end-of-run records ------*- C++
//-*-===//
//
// The metadata lines (ph "M", cat "dftracer") by which the runtime says what
// the trace does not hold (docs/trace-format.md, "Records of what is not in
// the trace"), decoded for dftracer-check and dftracer-analyze:
//
// \code
//   {"name":"untraced",...,"args":{"dirs":[{"dir":"/usr","opens":3,
//     "reads":10,"writes":0,"bytes_read":4096,"bytes_written":0}]}}
//     -> Untraced, Dirs = {{"/usr", 3, 10, 0, 4096, 0}}
//   {"name":"throttled",...,"args":{"function":"rnd","fcat":"C_APP",
//     "calls":4094304,"dur":812345,"bytes":0,"reason":"throttle"}}
//     -> Throttled
//   {"name":"trace_stopped",...,"args":{"reason":"size_limit",
//     "limit":1073741824,"written":1073741100,"ts":1718000000000123}}
//     -> TraceStopped
//   {"name":"layer_bypassed",...,"args":{"layer":"HDF5","symbol":"H5Dwrite",
//     "library":"/usr/lib/.../libhdf5.so.103","fix":"link ..."}}
//     -> LayerBypassed
// \endcode
//
// Issue 22's facts are records too: "FS" (a file's file system),
// "MPIIO_HINTS" (the hints after an MPI_File_open), "HDF5_FILE" and
// "HDF5_DSET" (properties, layout), "NODE" (the process's node). Issue 35's
// are the run's configuration and the tuning the runtime applied:
//
// \code
//   {"name":"CONFIG",...,"args":{"exe":"/bin/app","argv":["./app","-n","4"],
//     "argv_dropped":0,"cwd":"/run","env":{"ROMIO_HINTS":"/run/h"},
//     "env_dropped":0,"glibc":"2.36"}}                     -> Config
//   {"name":"VERSION",...,"args":{"library":"HDF5","version":"1.10.8"}}
//                                                          -> Version
//   {"name":"MPI_JOB",...,"args":{"rank":0,"size":2}}      -> MpiJob
//   {"name":"tuning",...,"args":{"fhash":7892484669068765,
//     "setting":"hdf5.alignment=4096,4096","key":"hdf5.alignment",
//     "requested":"4096,4096","op":"set","source":"DFTRACER_TUNE",
//     "before":"1,1","effect":"4096,4096","status":"applied","reason":""}}
//                                                          -> Tuning
//   {"name":"trace_end",...,"args":{"ts":1718000000000456}} -> TraceEnd
//   {"name":"open_at_exit",...,"args":{"tid":7,"span_id":1025,"span":"loop",
//     "span_cat":"CPP_APP","level":1,"ts":1718000000000123}} -> OpenAtExit
//   {"name":"coverage",...,"args":{"program":"app","sources":12,
//     "annotated":6,"failed":5,"excluded":1,"files":[{"file":"/s/a.c",
//     "status":"failed","reason":"not annotated (expected ')')"}]}}
//                                                          -> Coverage
// \endcode
//
// A trace file that has CONFIG but no trace_end was not finished: its
// process was killed (SIGKILL, the OOM killer) or the node went down, and
// the I/O after its last event is missing (issue 37).
//
// The shared parser (EventParser) keeps only the fields every event has;
// these records are a few lines per process, so their line is parsed again
// here, which keeps the hot path as it is. The same goes for the
// "comm_size" of MPI_File_open events (one per open).
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_METADATARECORDS_H
#define DFTRACER_READER_METADATARECORDS_H

#include "Event.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace dftrace {

enum class RecordKind : uint8_t {
  None, // any other line
  Untraced,
  Throttled,
  TraceStopped,
  LayerBypassed,
  // Issue 22's facts (docs/trace-format.md): once per file, MPI-IO open,
  // HDF5 file and dataset, process.
  FileSystem,  // "FS"
  MpiioHints,  // "MPIIO_HINTS"
  Hdf5File,    // "HDF5_FILE"
  Hdf5Dataset, // "HDF5_DSET"
  Node,        // "NODE"
  // Issue 35's (docs/trace-format.md, "Run configuration records").
  Config,  // "CONFIG"
  Version, // "VERSION"
  MpiJob,  // "MPI_JOB"
  Tuning,  // "tuning"
  // Issue 37's: the last line of a finished trace file.
  TraceEnd, // "trace_end"
  // Issue 38's: which sources of the program were annotated.
  Coverage, // "coverage"
  // A span another thread still had open when the process finished: never
  // written, though its children name it (runtime/src/open_at_exit.h).
  OpenAtExit, // "open_at_exit"
};

/// The kind of a metadata event, by name ("untraced", "throttled",
/// "trace_stopped", "layer_bypassed"); None for any other event.
RecordKind recordKind(const Event &E);

/// Calls the runtime's data-dir filter left out, per excluded directory.
struct UntracedDir {
  std::string Dir;
  uint64_t Opens = 0, Reads = 0, Writes = 0;
  uint64_t BytesRead = 0, BytesWritten = 0;
};

/// Spans of one function or call that were counted, not written.
struct ThrottledRecord {
  std::string Function;
  std::string FCat;   // the spans' category: C_APP, POSIX, MPIIO, ...
  uint64_t Calls = 0; // calls whose spans are not in the trace
  uint64_t DurUs = 0; // their summed duration
  uint64_t Bytes = 0; // I/O calls: bytes they moved
  std::string Reason; // "throttle", "size_limit" or "write_error"
  std::string Time;   // "sampled": DurUs is an estimate; empty: measured
};

/// Tracing stopped before the end of the process.
struct StoppedRecord {
  std::string Reason; // "size_limit" or "write_error"
  std::string Error;  // write_error: e.g. "ENOSPC"
  uint64_t Limit = 0, Written = 0;
  int64_t TsUs = -1; // when; -1 when not recorded
};

/// A layer whose calls do not reach the runtime's wrappers.
struct BypassedRecord {
  std::string Layer, Symbol, Library, Fix;
};

/// The file system of a traced file ("FS").
struct FsRecord {
  uint64_t FHash = 0;
  std::string Type, Mount, Magic; // Magic: "0x..." for "unknown"
  uint64_t BlockSize = 0, StripeSize = 0, StripeCount = 0; // 0: not said
};

/// Named values of a record, in its order, as text (MPI-IO hints are
/// strings; HDF5's properties are numbers or names).
using Props = std::vector<std::pair<std::string, std::string>>;

/// The hints in effect after an MPI_File_open ("MPIIO_HINTS").
struct HintsRecord {
  uint64_t FHash = 0, CommSize = 0, Amode = 0;
  bool HasCommSize = false, HasAmode = false;
  Props Hints;
};

/// An HDF5 file's access and creation properties ("HDF5_FILE"): every key
/// of args but fhash, as text (vfd, alignment, meta_block_size, ...).
struct Hdf5FileRecord {
  uint64_t FHash = 0;
  Props Properties;
};

/// An HDF5 dataset ("HDF5_DSET").
struct Hdf5DsetRecord {
  uint64_t FHash = 0, DHash = 0;
  std::string Dset, Layout, FillTime;
  std::vector<uint64_t> Chunk, Dims;
  uint64_t TypeSize = 0;
};

/// The node a process ran on ("NODE").
struct NodeRecord {
  std::string Hostname;
  uint64_t MemTotal = 0, Cpus = 0;
};

/// The process's command line, working directory and I/O environment
/// ("CONFIG").
struct ConfigRecord {
  std::string Exe, Cwd, Glibc;
  std::string Launch; // what one launch's processes share (issue 36)
  std::vector<std::string> Argv;
  uint64_t ArgvDropped = 0, EnvDropped = 0; // left out by the runtime's bounds
  Props Env; // name -> value, in the record's order
};

/// A library's version ("VERSION").
struct VersionRecord {
  std::string Library, Version; // "HDF5", "1.10.8"
};

/// The process's place in its MPI job ("MPI_JOB").
struct MpiJobRecord {
  uint64_t Rank = 0, Size = 0;
};

/// One setting the runtime applied or judged ("tuning"), on a file
/// (HasFHash) or for the whole process (a malformed setting).
struct TuningRecord {
  uint64_t FHash = 0;
  bool HasFHash = false;
  std::string Setting, Key, Requested, Op, Source, Before, Effect, Status,
      Reason;
};

/// A source of the program that was not annotated ("coverage" files).
struct CoverageFileRecord {
  std::string File, Status, Reason; // status "failed" or "excluded"
};

/// Which sources of the program the build annotated ("coverage", written
/// once per process after CONFIG; docs/trace-format.md): the counts cover
/// every source, Files only those not annotated, at most 256 (Truncated).
struct CoverageRecord {
  std::string Program;
  uint64_t Sources = 0, Annotated = 0, Failed = 0, Excluded = 0;
  bool Truncated = false;
  std::vector<CoverageFileRecord> Files;
};

/// A span still open on another thread at exit ("open_at_exit").
struct OpenAtExitRecord {
  int64_t Tid = 0;     // its thread
  uint64_t SpanId = 0; // the id its children name as p_idx
  std::string Span, Cat;
  uint64_t Level = 0; // 0: not said
  int64_t TsUs = -1;  // when it began; -1 when not said
};
/// A file's open_at_exit records by (pid, span id): the parents its spans
/// may name that were never written.
using OpenAtExitSpans =
    std::map<std::pair<int64_t, uint64_t>, OpenAtExitRecord>;

struct MetadataRecord {
  RecordKind Kind = RecordKind::None;
  std::vector<UntracedDir> Dirs; // Untraced
  ThrottledRecord Throttled;
  StoppedRecord Stopped;
  BypassedRecord Bypassed;
  FsRecord Fs;
  HintsRecord Hints;
  Hdf5FileRecord Hdf5File;
  Hdf5DsetRecord Hdf5Dset;
  NodeRecord Node;
  ConfigRecord Config;
  VersionRecord Version;
  MpiJobRecord MpiJob;
  TuningRecord Tuning;
  CoverageRecord Coverage;
  OpenAtExitRecord OpenAtExit;
  int64_t EndTsUs = -1; // TraceEnd: its "ts"; -1 when not recorded
};

class RecordDecoder {
public:
  RecordDecoder();
  ~RecordDecoder();
  RecordDecoder(const RecordDecoder &) = delete;
  RecordDecoder &operator=(const RecordDecoder &) = delete;

  /// Decodes Line, a record of kind K (recordKind of its event). False
  /// when its args break docs/trace-format.md; error() says which key.
  bool decode(RecordKind K, std::string_view Line, MetadataRecord &Out);
  /// args.comm_size of an event line, when it is an unsigned integer.
  bool commSize(std::string_view Line, uint64_t &Out);
  const std::string &error() const { return Error; }

private:
  struct Impl;
  std::unique_ptr<Impl> P;
  std::string Error;
};

} // namespace dftrace

#endif
