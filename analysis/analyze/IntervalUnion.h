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
// The intervals are kept sorted and merged as they come. Spans of a thread
// arrive in the order they end, so a new interval usually starts after the
// last one kept (appended or merged in O(1)), or is a parent arriving after
// its children, which it swallows from the end (a binary search and the
// children). Any other order is handled the same way, and no sort is ever
// needed.
//
// Intervals that end at or before a watermark are folded into a running
// total by fold(). The caller promises that no later interval starts before
// the watermark; if one does anyway, conflict() turns true and the caller
// recomputes the file without folding (FileAnalyzer). Memory is the
// intervals not yet folded, 16 bytes each.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_INTERVALUNION_H
#define DFTRACER_ANALYZE_INTERVALUNION_H

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace dftanalyze {

class IntervalUnion {
public:
  /// Adds [Begin, End); empty intervals change nothing. Returns true when
  /// enough intervals are kept (FoldAbove, then twice what the last fold
  /// left) that the caller should fold().
  bool add(int64_t Begin, int64_t End) {
    if (End <= Begin)
      return false;
    if (Begin < Frontier)
      Conflict = true;
    if (Open.size() == Head || Begin >= Open.back().first) {
      // At or after the last kept start: the usual case.
      if (Open.size() > Head && Begin <= Open.back().second)
        Open.back().second = std::max(Open.back().second, End);
      else
        Open.emplace_back(Begin, End);
    } else if (Open.size() - Head >= 2 && End < Open.back().first &&
               Begin >= Open[Open.size() - 2].first) {
      // Only the last kept interval lies after it (a span of another
      // thread, or a root, that ended later was read first): joined to
      // the one before, or put between the two, without a search.
      std::pair<int64_t, int64_t> &Prev = Open[Open.size() - 2];
      if (Begin <= Prev.second) {
        Prev.second = std::max(Prev.second, End);
      } else {
        Open.push_back(Open.back());
        Open[Open.size() - 2] = {Begin, End};
      }
    } else {
      insert(Begin, End); // a parent after its children, another thread
    }
    return Open.size() - Head >= NextFold;
  }
  /// Folds the kept intervals that end at or before Watermark.
  void fold(int64_t Watermark);
  /// The length of the union of everything added.
  uint64_t total() {
    fold(std::numeric_limits<int64_t>::max());
    return Folded;
  }
  bool conflict() const { return Conflict; }
  /// Back to a new union's state, keeping the vector's memory when it is
  /// small (a worker reuses its unions from file to file: regrowing them
  /// from nothing was a malloc and a free per few intervals of every
  /// small file; issue 41). A large one is freed, so a worker does not
  /// hold a big file's intervals while it reads small ones.
  void clear() {
    if (Open.capacity() > KeepCapacity)
      std::vector<std::pair<int64_t, int64_t>>().swap(Open);
    else
      Open.clear();
    Head = 0;
    NextFold = FoldAbove;
    Folded = 0;
    Frontier = std::numeric_limits<int64_t>::min();
    Conflict = false;
  }
  size_t kept() const { return Open.size() - Head; }

  static constexpr size_t FoldAbove = 1 << 16;
  static constexpr size_t KeepCapacity = 256; // intervals kept by clear()

private:
  void insert(int64_t Begin, int64_t End);

  std::vector<std::pair<int64_t, int64_t>> Open; // sorted, disjoint
  size_t Head = 0; // Open[0, Head) are folded
  size_t NextFold = FoldAbove;
  uint64_t Folded = 0;
  int64_t Frontier = std::numeric_limits<int64_t>::min();
  bool Conflict = false;
};

} // namespace dftanalyze

#endif
