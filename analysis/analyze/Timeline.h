//===- Timeline.h - A process's timeline, small enough to draw ----*- C++ -*-===//
//
// The HTML report draws one row per rank (past --summarize-ranks-above, a
// rank x time heatmap of the same buckets: report/HtmlHeatmap.h). Ten
// million events cannot go into a web page, so each process keeps,
// whatever its length:
//  - its MaxSpans longest spans (any layer), drawn as bars by nesting level;
//  - for each I/O layer, the busy time and the calls per time bucket, with
//    at most Buckets buckets whose width is a power of two microseconds,
//    aligned to multiples of that width. A trace that outgrows the buckets
//    doubles the width and adds neighbours together, so the final buckets
//    are exact sums and do not depend on the order events arrive in.
//
// \code
//   TimelineBuilder B(P.Picture);
//   B.span("write_phase", Layer::App, 2, Ts, Dur, Line);
//   B.io(Layer::Posix, Ts, Dur);
//   B.finish();                 // spans sorted by start
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_TIMELINE_H
#define DFTRACER_ANALYZE_TIMELINE_H

#include "reader/IoTaxonomy.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace dftanalyze {

/// The largest multiple of Width at or below T (T may be negative).
int64_t alignDown(int64_t T, uint64_t Width);

struct TimelineSpan {
  int64_t Ts = 0;
  uint64_t Dur = 0;
  uint64_t Line = 0; // breaks ties between equal spans
  uint32_t Name = 0; // into Timeline::Names
  uint8_t Layer = 0;
  uint8_t Level = 1;
};

/// Busy time and calls of one I/O layer per bucket.
struct Density {
  std::vector<uint64_t> BusyUs;
  std::vector<uint64_t> Calls;
};

struct Timeline {
  static constexpr size_t MaxSpans = 1000;
  static constexpr size_t Buckets = 256;
  static constexpr size_t IoLayers = 4; // POSIX, STDIO, MPIIO, HDF5

  std::vector<std::string> Names;
  std::vector<TimelineSpan> Spans;
  int64_t Origin = 0;  // start of bucket 0, a multiple of Width
  uint64_t Width = 0;  // microseconds per bucket; 0: no I/O seen
  Density Io[IoLayers];

  /// Density re-binned to Width2 (a power-of-two multiple of Width),
  /// buckets starting at Origin2 (a multiple of Width2), Count2 of them.
  Density coarsen(size_t Layer, int64_t Origin2, uint64_t Width2,
                  size_t Count2) const;
};

class TimelineBuilder {
public:
  explicit TimelineBuilder(Timeline &T);
  void span(std::string_view Name, dftrace::Layer L, int64_t Level,
            int64_t Ts, uint64_t Dur, uint64_t Line);
  void io(dftrace::Layer L, int64_t Ts, uint64_t Dur);
  void finish();

private:
  void fit(int64_t Lo, int64_t Hi);
  void doubleWidth();

  Timeline &T;
  std::unordered_map<std::string, uint32_t> NameIds;
  int64_t UsedLo = 0, UsedHi = 0; // time range the buckets must cover
};

template <class A> void visit(A &Ar, TimelineSpan &S) {
  Ar(S.Ts, S.Dur, S.Line, S.Name, S.Layer, S.Level);
}
template <class A> void visit(A &Ar, Density &D) { Ar(D.BusyUs, D.Calls); }
template <class A> void visit(A &Ar, Timeline &T) {
  Ar(T.Names, T.Spans, T.Origin, T.Width, T.Io);
}

} // namespace dftanalyze

#endif
