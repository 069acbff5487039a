//===- FoldWatermark.h - How far a process's unions may be folded -*- C++ -*-===//
//
// IntervalUnion::fold(W) needs a time W before which no span read later
// starts. The runtime writes a span when it ends, so a thread's later spans
// start after its last end, except the spans still open around the last
// ones: a parent comes after its children, and starts before them.
//
// \code
//   ... q                         <- the span before P's first descendant
//   c1, c2                        <- P's descendants (P still open)
//   P                             <- starts after q ended, before c1
// \endcode
//
// So each thread keeps the ends of its last Recent spans: a parent that has
// fewer than Recent spans below it so far starts at or after the oldest of
// them. The watermark is the smallest of these over the threads (a thread
// with fewer spans holds it at the start). An I/O call holding a few others
// (MPI-IO over POSIX, HDF5 over MPI-IO) is then never folded under; a parent
// with more below it, or a writer in another order, makes a span start
// before folded time, which IntervalUnion::conflict() reports and
// FileAnalyzer answers by reading the file again without folding.
//
// \code
//   FoldWatermark W;
//   W.ended(Tid, Ts + Dur);   // each span, in file order
//   Union.fold(W.watermark());
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_FOLDWATERMARK_H
#define DFTRACER_ANALYZE_FOLDWATERMARK_H

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <unordered_map>

namespace dftanalyze {

class FoldWatermark {
public:
  static constexpr size_t Recent = 64;

  /// A span of thread Tid that ends at End was read.
  void ended(int64_t Tid, int64_t End) {
    if (!Last || Tid != LastTid) { // a thread's spans come in runs
      Last = &Threads[Tid];          // stays valid: unordered_map
      LastTid = Tid;
    }
    Last->Ends[Last->Count++ % Recent] = End;
  }
  /// No span read from now on starts before this (see above).
  int64_t watermark() const {
    int64_t W = std::numeric_limits<int64_t>::max();
    for (const auto &[Tid, T] : Threads)
      W = std::min(W, T.Count < Recent ? std::numeric_limits<int64_t>::min()
                                       : T.Ends[T.Count % Recent]);
    return W;
  }
  size_t threads() const { return Threads.size(); }

private:
  struct Thread {
    std::array<int64_t, Recent> Ends; // the last Recent ends, a ring
    uint64_t Count = 0;               // spans read
  };
  std::unordered_map<int64_t, Thread> Threads;
  Thread *Last = nullptr; // Threads[LastTid]
  int64_t LastTid = 0;
};

} // namespace dftanalyze

#endif
