//===- Timeline.cpp - A process's timeline, small enough to draw ----------===//

#include "Timeline.h"

#include <algorithm>
#include <tuple>

namespace dftanalyze {

int64_t alignDown(int64_t T, uint64_t Width) {
  int64_t W = static_cast<int64_t>(Width);
  int64_t Q = T / W;
  if (T % W != 0 && T < 0)
    --Q;
  return Q * W;
}

namespace {

/// Heap order: the span that leaves first (shortest, then latest) on top.
bool keepsLonger(const TimelineSpan &A, const TimelineSpan &B) {
  return std::make_tuple(B.Dur, A.Ts, A.Line) <
         std::make_tuple(A.Dur, B.Ts, B.Line);
}

} // namespace

Density Timeline::coarsen(size_t Layer, int64_t Origin2, uint64_t Width2,
                          size_t Count2) const {
  Density Out;
  Out.BusyUs.assign(Count2, 0);
  Out.Calls.assign(Count2, 0);
  const Density &In = Io[Layer];
  for (size_t I = 0; I < In.BusyUs.size(); ++I) {
    if (!In.BusyUs[I] && !In.Calls[I])
      continue;
    int64_t Start = Origin + static_cast<int64_t>(I * Width);
    int64_t J = (Start - Origin2) / static_cast<int64_t>(Width2);
    if (J < 0 || static_cast<size_t>(J) >= Count2)
      continue;
    Out.BusyUs[J] += In.BusyUs[I];
    Out.Calls[J] += In.Calls[I];
  }
  return Out;
}

TimelineBuilder::TimelineBuilder(Timeline &T) : T(T) {}

void TimelineBuilder::span(std::string_view Name, dftrace::Layer L,
                           int64_t Level, int64_t Ts, uint64_t Dur,
                           uint64_t Line) {
  TimelineSpan S;
  S.Ts = Ts;
  S.Dur = Dur;
  S.Line = Line;
  S.Layer = static_cast<uint8_t>(L);
  S.Level = static_cast<uint8_t>(std::clamp<int64_t>(Level, 1, 255));
  if (T.Spans.size() == Timeline::MaxSpans) {
    if (!keepsLonger(S, T.Spans.front()))
      return;
    std::pop_heap(T.Spans.begin(), T.Spans.end(), keepsLonger);
    T.Spans.pop_back();
  }
  auto [It, New] = NameIds.try_emplace(std::string(Name),
                                       static_cast<uint32_t>(T.Names.size()));
  if (New)
    T.Names.push_back(It->first);
  S.Name = It->second;
  T.Spans.push_back(S);
  std::push_heap(T.Spans.begin(), T.Spans.end(), keepsLonger);
}

void TimelineBuilder::doubleWidth() {
  uint64_t W2 = T.Width * 2;
  int64_t Origin2 = alignDown(T.Origin, W2);
  for (size_t L = 0; L < Timeline::IoLayers; ++L)
    T.Io[L] = T.coarsen(L, Origin2, W2, Timeline::Buckets);
  T.Origin = Origin2;
  T.Width = W2;
}

void TimelineBuilder::fit(int64_t Lo, int64_t Hi) {
  if (T.Width == 0) {
    T.Width = 1;
    T.Origin = Lo;
    UsedLo = Lo;
    UsedHi = Hi;
    for (Density &D : T.Io) {
      D.BusyUs.assign(Timeline::Buckets, 0);
      D.Calls.assign(Timeline::Buckets, 0);
    }
  }
  UsedLo = std::min(UsedLo, Lo);
  UsedHi = std::max(UsedHi, Hi);
  for (;;) {
    int64_t NewOrigin = alignDown(UsedLo, T.Width);
    int64_t Span = UsedHi - NewOrigin;
    uint64_t Needed = (static_cast<uint64_t>(Span) + T.Width - 1) / T.Width;
    if (Needed <= Timeline::Buckets) {
      if (NewOrigin < T.Origin) { // shift the data up
        size_t K = static_cast<size_t>((T.Origin - NewOrigin) /
                                       static_cast<int64_t>(T.Width));
        for (Density &D : T.Io) {
          D.BusyUs.insert(D.BusyUs.begin(), K, 0);
          D.BusyUs.resize(Timeline::Buckets);
          D.Calls.insert(D.Calls.begin(), K, 0);
          D.Calls.resize(Timeline::Buckets);
        }
        T.Origin = NewOrigin;
      }
      return;
    }
    doubleWidth();
  }
}

void TimelineBuilder::io(dftrace::Layer L, int64_t Ts, uint64_t Dur) {
  size_t Index = static_cast<size_t>(L) - static_cast<size_t>(dftrace::Layer::Posix);
  int64_t End = Ts + static_cast<int64_t>(Dur);
  fit(Ts, std::max(End, Ts + 1));
  Density &D = T.Io[Index];
  int64_t W = static_cast<int64_t>(T.Width);
  size_t First = static_cast<size_t>((Ts - T.Origin) / W);
  D.Calls[First] += 1;
  for (size_t B = First; B < Timeline::Buckets; ++B) {
    int64_t BStart = T.Origin + static_cast<int64_t>(B) * W;
    int64_t BEnd = BStart + W;
    if (BStart >= End)
      break;
    D.BusyUs[B] += static_cast<uint64_t>(std::min(End, BEnd) -
                                         std::max(Ts, BStart));
  }
}

void TimelineBuilder::finish() {
  std::sort(T.Spans.begin(), T.Spans.end(),
            [](const TimelineSpan &A, const TimelineSpan &B) {
              return std::make_tuple(A.Ts, A.Level, A.Line) <
                     std::make_tuple(B.Ts, B.Level, B.Line);
            });
  // Keep the names of the spans kept, in order of first use.
  std::vector<std::string> Names;
  std::vector<uint32_t> NewId(T.Names.size(), UINT32_MAX);
  for (TimelineSpan &S : T.Spans) {
    if (NewId[S.Name] == UINT32_MAX) {
      NewId[S.Name] = static_cast<uint32_t>(Names.size());
      Names.push_back(std::move(T.Names[S.Name]));
    }
    S.Name = NewId[S.Name];
  }
  T.Names = std::move(Names);
  NameIds.clear();
}

} // namespace dftanalyze
