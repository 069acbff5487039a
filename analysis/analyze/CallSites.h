//===- CallSites.h - Which annotated function issued which I/O chain -*- C++ -*-===//
//
// A call site is an annotated function and the chain of I/O calls below it
// down to one call, e.g. (write_particles, "H5Dwrite > MPI_File_write_at >
// pwrite64"). Every I/O span belongs to exactly one site: the path from its
// nearest enclosing annotated span to it. The diagnosis (Diagnose.h) names
// sites in its findings, with their calls, bytes and time.
//
// Spans are written when they end, so a call's chain is known only once its
// ancestors are read: each span hands its parent a short list of (chain
// relative to the span, figures), and an I/O span prepends its own name to
// the chains it hands up. Chains are interned (ChainTable), so a list entry
// is an integer and 7 counters.
//
// \code
//   main                         sites: (main, "fwrite"),
//     fwrite                            (main, "MPI_File_write_at_all"),
//     MPI_File_write_at_all             (main, "MPI_File_write_at_all >
//       pwrite64, pwrite64                      pwrite64") with 2 calls
// \endcode
//
// Sizes: one entry per distinct (function, chain) per process, merged into
// one per (function, chain) over processes; the ranks of a site are kept up
// to MaxSiteRanks labels (the smallest, so the merge is order-free).
//
// Jobs (issue 36): traces of several programs, or of two launches of one,
// are read together; a site's ranks and the per-rank shares of files and
// phases are each job's own. A rank is kept as "TAG:RANK" (siteRank), TAG
// the job's jobTag, which the diagnosis turns into the report's label
// ("reader#2:0"; "0" when one job).
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_CALLSITES_H
#define DFTRACER_ANALYZE_CALLSITES_H

#include "reader/IoTaxonomy.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dftanalyze {

/// The calls of one site (of the chain's last call).
struct SiteCounts {
  uint64_t Ops = 0, TimeUs = 0, Bytes = 0, Failed = 0;
  // Data calls that succeeded with fewer bytes than the diagnosis rules'
  // small-request size (AnalyzeOptions::SmallBytes).
  uint64_t SmallOps = 0, SmallTimeUs = 0, SmallBytes = 0;

  void merge(const SiteCounts &O) {
    Ops += O.Ops;
    TimeUs += O.TimeUs;
    Bytes += O.Bytes;
    Failed += O.Failed;
    SmallOps += O.SmallOps;
    SmallTimeUs += O.SmallTimeUs;
    SmallBytes += O.SmallBytes;
  }
};

/// A site over every process that used it.
struct SiteStat {
  SiteCounts C;
  uint8_t Layer = 0; // dftrace::Layer of the chain's last call
  uint8_t Op = 0;    // its dftrace::Op
  uint8_t Mpi = static_cast<uint8_t>(dftrace::MpiKind::None);
  uint8_t TopLayer = 0; // of the chain's first call
  uint64_t Processes = 0;
  std::vector<std::string> Ranks; // sorted, at most MaxSiteRanks

  void merge(const SiteStat &O);
  /// merge() of one process's site: counts C, the chain's layers and
  /// kinds, Processes 1 and the one label Rank (without building it).
  void mergeOne(const SiteCounts &Counts, uint8_t Layer, uint8_t Op,
                uint8_t Mpi, uint8_t TopLayer, const std::string &Rank);

private:
  /// Label L in its place among Ranks (kept at most MaxSiteRanks).
  void insertRank(const std::string &L);
};

constexpr size_t MaxSiteRanks = 32;

/// (function, chain) -> figures.
using SiteMap = std::map<std::pair<std::string, std::string>, SiteStat>;

/// Per job and shared file (every path), the largest share one process of
/// the job had, so a rank that did most of a file's work is found whatever
/// the rank count.
struct FileRankStat {
  uint64_t MaxBytes = 0, MaxTimeUs = 0;
  std::string MaxBytesRank, MaxTimeRank; // smallest label among equals
  uint64_t SumBytes = 0, SumTimeUs = 0, Processes = 0;

  void add(uint64_t Bytes, uint64_t TimeUs, const std::string &Rank);
  void merge(const FileRankStat &O);
};

/// (jobTag, path or function) -> figures of the job's processes.
using JobRankMap = std::map<std::pair<std::string, std::string>, FileRankStat>;

/// A job's short, fixed-size name: 16 hex digits of a hash of its jobKey
/// (Aggregate.h), so that per-rank entries do not carry command lines.
std::string jobTag(const std::string &JobKey);
/// jobTag in two steps: the hash, and its 16 digits (a tag kept per rank
/// as 8 bytes, not a heap string).
uint64_t jobHash(const std::string &JobKey);
std::string jobTagOf(uint64_t Hash);
/// The hash a tag of jobTagOf spells, into Hash; false when Tag is not 16
/// lowercase hex digits.
bool jobHashOfTag(std::string_view Tag, uint64_t &Hash);
/// "TAG:RANK": a rank of job TAG, as a site's Ranks hold it.
inline std::string siteRank(const std::string &Tag, const std::string &Rank) {
  return Tag + ":" + Rank;
}

/// What the diagnosis needs beyond the report's figures.
struct DiagnosisFacts {
  SiteMap Sites;
  JobRankMap FileRanks; // by (job, path)
  // Per job and annotated function (a phase: rank_imbalance), each
  // process's time in the I/O calls the function made itself (its one-call
  // sites; no bytes kept).
  JobRankMap FunctionRanks;

  void merge(DiagnosisFacts &&O);
};

template <class A> void visit(A &Ar, SiteCounts &S) {
  Ar(S.Ops, S.TimeUs, S.Bytes, S.Failed, S.SmallOps, S.SmallTimeUs,
     S.SmallBytes);
}
template <class A> void visit(A &Ar, SiteStat &S) {
  Ar(S.C, S.Layer, S.Op, S.Mpi, S.TopLayer, S.Processes, S.Ranks);
}
template <class A> void visit(A &Ar, FileRankStat &S) {
  Ar(S.MaxBytes, S.MaxTimeUs, S.MaxBytesRank, S.MaxTimeRank, S.SumBytes,
     S.SumTimeUs, S.Processes);
}
template <class A> void visit(A &Ar, DiagnosisFacts &S) {
  Ar(S.Sites, S.FileRanks, S.FunctionRanks);
}

/// Interned chains of one trace file: id 0 is the empty chain; a chain is
/// (outermost call's name, the rest).
class ChainTable {
public:
  struct Node {
    uint32_t Name, Tail;
    dftrace::Layer L; // of the last call
    dftrace::Op O;
    dftrace::MpiKind Mpi;
    dftrace::Layer Top; // of the first call: the layer the code called
  };
  /// The chain of the single call Name.
  uint32_t leaf(std::string_view Name, dftrace::Layer L, dftrace::Op O,
                dftrace::MpiKind Mpi);
  /// The call of the one-call chain Call around chain Tail.
  uint32_t prepend(uint32_t Call, uint32_t Tail);
  const Node &node(uint32_t Chain) const { return Nodes[Chain]; }
  /// "H5Dwrite > MPI_File_write_at > pwrite64".
  std::string text(uint32_t Chain) const;

private:
  uint32_t intern(const Node &N);
  std::vector<Node> Nodes{Node{0, 0, dftrace::Layer::App, dftrace::Op::Unknown,
                               dftrace::MpiKind::None, dftrace::Layer::App}};
  std::vector<std::unique_ptr<std::string>> Names;
  std::unordered_map<std::string_view, uint32_t> NameIds;
  std::unordered_map<uint64_t, uint32_t> Index;
  std::string_view LastName;
  uint32_t LastLeaf = 0;
};

/// The sites below a span not yet claimed by an annotated span: a short
/// list searched in order, indexed past a few entries (as ChargedList).
class SiteList {
public:
  size_t size() const { return Items.size(); }
  void add(uint32_t Chain, const SiteCounts &C);
  void take(SiteList &O);
  const std::vector<std::pair<uint32_t, SiteCounts>> &items() const {
    return Items;
  }
  void clear() {
    Items.clear();
    Index.reset();
  }

private:
  static constexpr size_t IndexAbove = 16;
  std::vector<std::pair<uint32_t, SiteCounts>> Items;
  std::unique_ptr<std::unordered_map<uint32_t, size_t>> Index;
};

} // namespace dftanalyze

#endif
