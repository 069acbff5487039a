//===- IntervalUnion.h - Time covered by overlapping calls --------*- C++ -*-===//
//
// The length of the union of [begin, end) intervals: two threads writing at
// once for 10 us count 10 us, not 20.
//
// \code
//   IntervalUnion U;
//   U.add(0, 10); U.add(5, 12); U.add(20, 21);
//   U.total() == 13
// \endcode
//
// Intervals are kept, merged, until compact() folds those that end before a
// watermark into a running total. The caller promises that no later
// interval starts before the watermark; if one does anyway, conflict() turns
// true and the caller recomputes the file without folding (FileAnalyzer).
// Memory is therefore the intervals not yet folded, 16 bytes each.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_INTERVALUNION_H
#define DFTRACER_ANALYZE_INTERVALUNION_H

#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace dftanalyze {

class IntervalUnion {
public:
  /// Adds [Begin, End); empty intervals change nothing. Returns true when
  /// enough intervals are waiting that the caller should compact().
  bool add(int64_t Begin, int64_t End) {
    if (End <= Begin)
      return false;
    if (Begin < Frontier)
      Conflict = true;
    Open.emplace_back(Begin, End);
    return Open.size() >= NextCompact;
  }
  /// Merges the waiting intervals; when at least FoldAbove remain, folds
  /// those ending at or before Watermark into the total.
  void compact(int64_t Watermark);
  /// The length of the union of everything added.
  uint64_t total() {
    compact(std::numeric_limits<int64_t>::max());
    return Folded;
  }
  bool conflict() const { return Conflict; }
  size_t waiting() const { return Open.size(); }

  static constexpr size_t FoldAbove = 1 << 16;

private:
  std::vector<std::pair<int64_t, int64_t>> Open;
  size_t NextCompact = 4096;
  uint64_t Folded = 0;
  int64_t Frontier = std::numeric_limits<int64_t>::min();
  bool Conflict = false;
};

} // namespace dftanalyze

#endif
