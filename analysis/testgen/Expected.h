//===- Expected.h - The totals a report must hold ---------------*- C++ -*-===//
//
// What dftracer-analyze must report for a generated set, computed from the
// trees (Tree.h) top down, with none of the analyzer's code: the function
// that issued each call is the nearest annotated span on its own stack, and
// a call counts once for every distinct function on that stack.
//
// \code
//   Expected E;
//   E.process(P, "dir/trace-0000-app.pfw", ExtraEvents);
//   std::ofstream(Path) << E.json(Files).dump(2);  // for `compare`
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TRACEGEN_EXPECTED_H
#define DFTRACER_TRACEGEN_EXPECTED_H

#include "Tree.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace tracegen {

using Json = nlohmann::json;

/// The analyzer's issue kinds, in the order it lists them.
inline const char *const IssueKinds[] = {
    "truncated_line",   "invalid_line",     "bad_field",
    "negative_time",    "negative_size",    "unknown_category",
    "fhash_without_fh", "missing_parent",   "bad_stream",
    "unnested_span"};

struct Totals {
  uint64_t Ops = 0, TimeUs = 0, Read = 0, Written = 0;
  void add(const Node &N) {
    ++Ops;
    TimeUs += static_cast<uint64_t>(N.Dur);
    if (N.Failed)
      return;
    if (N.K == Kind::Read)
      Read += N.Bytes;
    else if (N.K == Kind::Write)
      Written += N.Bytes;
  }
  Json io() const {
    return {{"io_ops", Ops}, {"io_time_us", TimeUs}, {"io_bytes", Read + Written}};
  }
};

struct Expected {
  uint64_t Events = 0, Spans = 0, Lines = 0, TextBytes = 0;
  struct LayerAcc {
    uint64_t Ops = 0, TimeUs = 0, Read = 0, Written = 0, Failed = 0;
    uint64_t UnionSum = 0, UnionMax = 0;
    std::map<std::string, std::array<uint64_t, 3>> ByOp;
    uint64_t ReadBins[10] = {}, WriteBins[10] = {};
    uint64_t DataOps = 0, DataUs = 0, MetaOps = 0, MetaUs = 0;
    std::map<std::string, std::array<uint64_t, 3>> MpiKinds; // MPIIO only
  } Layers[6];
  Totals Io;
  struct Fn {
    uint64_t Calls = 0, TimeUs = 0;
    Totals Direct, Inclusive;
  };
  std::map<std::string, Fn> Functions;
  std::map<std::string, uint64_t> UnknownOps;
  std::set<std::string> Files;
  std::map<std::string, uint64_t> Issues;
  std::vector<Json> IssueList; // {file, line, kind}
  Json Ranks = Json::array();

  /// Adds process P, written to FileName with ExtraEvents lines that are
  /// not spans (metadata, the invalid lines' one event).
  void process(const Process &P, const std::string &FileName,
               uint64_t ExtraEvents);

  /// The expected report: the keys of dftracer-analyze --json it fixes.
  Json json(size_t NumFiles) const;
};

} // namespace tracegen

#endif
