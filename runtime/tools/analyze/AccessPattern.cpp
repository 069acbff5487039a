//===- AccessPattern.cpp - How a file was accessed, from the offsets ------===//

#include "AccessPattern.h"

#include <algorithm>
#include <tuple>

namespace dftanalyze {

void ValueCounts::add(int64_t V) {
  auto It = Counts.find(V);
  if (It != Counts.end())
    ++It->second;
  else if (Counts.size() < MaxValues)
    Counts.emplace(V, 1);
  else
    ++Other;
}

void ValueCounts::merge(const ValueCounts &O) {
  for (const auto &[V, N] : O.Counts)
    Counts[V] += N;
  Other += O.Other;
}

std::vector<std::pair<int64_t, uint64_t>> ValueCounts::top(size_t N) const {
  std::vector<std::pair<int64_t, uint64_t>> All(Counts.begin(), Counts.end());
  auto MoreCommon = [](const auto &A, const auto &B) {
    return A.second != B.second ? A.second > B.second : A.first < B.first;
  };
  if (All.size() > N) {
    std::partial_sort(All.begin(), All.begin() + static_cast<ptrdiff_t>(N),
                      All.end(), MoreCommon);
    All.resize(N);
  } else {
    std::sort(All.begin(), All.end(), MoreCommon);
  }
  return All;
}

void ValueCounts::trim(size_t Keep) {
  if (Counts.size() <= Keep)
    return;
  auto Kept = top(Keep);
  uint64_t KeptCalls = 0;
  for (const auto &[V, N] : Kept)
    KeptCalls += N;
  uint64_t All = 0;
  for (const auto &[V, N] : Counts)
    All += N;
  Other += All - KeptCalls;
  Counts = std::map<int64_t, uint64_t>(Kept.begin(), Kept.end());
}

uint64_t rangeBytes(const RangeList &Ranges) {
  uint64_t N = 0;
  for (const auto &[B, E] : Ranges)
    N += E - B;
  return N;
}

uint64_t crossBytes(std::vector<const RangeList *> Lists) {
  if (Lists.size() < 2)
    return 0;
  uint64_t Sum = 0;
  RangeList All;
  for (const RangeList *L : Lists) {
    Sum += rangeBytes(*L);
    All.insert(All.end(), L->begin(), L->end());
  }
  std::sort(All.begin(), All.end());
  uint64_t Union = 0;
  uint64_t CurB = 0, CurE = 0;
  bool Have = false;
  for (const auto &[B, E] : All) {
    if (Have && B <= CurE) {
      CurE = std::max(CurE, E);
      continue;
    }
    if (Have)
      Union += CurE - CurB;
    CurB = B;
    CurE = E;
    Have = true;
  }
  if (Have)
    Union += CurE - CurB;
  return Sum - Union;
}

void AccessStats::merge(const AccessStats &O) {
  Reads += O.Reads;
  Writes += O.Writes;
  BytesRead += O.BytesRead;
  BytesWritten += O.BytesWritten;
  ReadsNoOffset += O.ReadsNoOffset;
  WritesNoOffset += O.WritesNoOffset;
  SeqReads += O.SeqReads;
  SeqWrites += O.SeqWrites;
  ConsecReads += O.ConsecReads;
  ConsecWrites += O.ConsecWrites;
  RwSwitches += O.RwSwitches;
  MaxByteRead = std::max(MaxByteRead, O.MaxByteRead);
  MaxByteWritten = std::max(MaxByteWritten, O.MaxByteWritten);
  Sizes.merge(O.Sizes);
  Strides.merge(O.Strides);
  NotAligned += O.NotAligned;
  NotAlignedBytes += O.NotAlignedBytes;
  if (O.AlignMax) {
    AlignMin = AlignMin ? std::min(AlignMin, O.AlignMin) : O.AlignMin;
    AlignMax = std::max(AlignMax, O.AlignMax);
  }
  AlignAssumed += O.AlignAssumed;
  RedundantRead += O.RedundantRead;
  RedundantWritten += O.RedundantWritten;
  DistinctRead += O.DistinctRead;
  DistinctWritten += O.DistinctWritten;
  CrossRead += O.CrossRead;
  CrossWritten += O.CrossWritten;
  RangesCapped += O.RangesCapped;
}

uint64_t AccessStream::cover(std::map<uint64_t, uint64_t> &R, uint64_t B,
                             uint64_t E) {
  // The usual case first: a call that continues the range that holds the
  // end of the previous one (sequential I/O), with nothing after it to
  // join: extended in place, no search and no allocation.
  auto &Last = &R == &Read ? LastRead : LastWritten;
  if (Last != R.end() && Last->first <= B && Last->second >= B) {
    auto Next = std::next(Last);
    if (Next == R.end() || Next->first > E) {
      uint64_t Overlap = std::min(E, Last->second) - B;
      Last->second = std::max(Last->second, E);
      return Overlap;
    }
  }
  // The first kept range that could touch [B, E): the last starting at or
  // before B, else the first after it.
  auto It = R.upper_bound(B);
  if (It != R.begin() && std::prev(It)->second >= B)
    --It;
  uint64_t Overlap = 0;
  uint64_t NewB = B, NewE = E;
  auto First = It;
  size_t Touched = 0;
  for (; It != R.end() && It->first <= E; ++It, ++Touched) {
    uint64_t OB = std::max(B, It->first), OE = std::min(E, It->second);
    if (OE > OB)
      Overlap += OE - OB;
    NewB = std::min(NewB, It->first);
    NewE = std::max(NewE, It->second);
  }
  if (!Touched && R.size() >= MaxRanges) {
    // A new range past the cap: not kept, so later overlaps with it are
    // missed and the redundant figures become lower bounds.
    Capped = true;
    return 0;
  }
  if (Touched == 1 && First->first == NewB) {
    First->second = NewE; // one range grown at its end: in place
    Last = First;
    return Overlap;
  }
  Last = R.emplace_hint(R.erase(First, It), NewB, NewE);
  return Overlap;
}

void AccessStream::count(std::unordered_map<int64_t, uint64_t> &Counts,
                         ValueCounts &Into, int64_t V) {
  auto It = Counts.find(V);
  if (It != Counts.end())
    ++It->second;
  else if (Counts.size() < ValueCounts::MaxValues)
    Counts.emplace(V, 1);
  else
    ++Into.Other;
}

void AccessStream::data(bool Write, uint64_t Offset, uint64_t Size,
                        uint64_t Align) {
  int64_t Off = static_cast<int64_t>(Offset);
  int64_t End = Off + static_cast<int64_t>(Size);
  int64_t &Last = Write ? LastWriteEnd : LastReadEnd;
  uint8_t Kind = Write ? 2 : 1;
  if (LastKind && LastKind != Kind)
    ++S.RwSwitches;
  LastKind = Kind;
  if (Last >= 0) {
    if (Off >= Last)
      ++(Write ? S.SeqWrites : S.SeqReads);
    if (Off == Last)
      ++(Write ? S.ConsecWrites : S.ConsecReads);
    count(StrideCounts, S.Strides, Off - Last);
  }
  Last = End;
  count(SizeCounts, S.Sizes, static_cast<int64_t>(Size));
  if (Write) {
    ++S.Writes;
    S.BytesWritten += Size;
    if (Size)
      S.MaxByteWritten = std::max(S.MaxByteWritten, End - 1);
  } else {
    ++S.Reads;
    S.BytesRead += Size;
    if (Size)
      S.MaxByteRead = std::max(S.MaxByteRead, End - 1);
  }
  if (!Align) {
    Align = DefaultAlign;
    ++S.AlignAssumed;
  }
  S.AlignMin = S.AlignMin ? std::min(S.AlignMin, Align) : Align;
  S.AlignMax = std::max(S.AlignMax, Align);
  if (Offset % Align) {
    ++S.NotAligned;
    S.NotAlignedBytes += Size;
  }
  if (Size) {
    uint64_t Again = cover(Write ? Written : Read, Offset, Offset + Size);
    (Write ? S.RedundantWritten : S.RedundantRead) += Again;
  }
}

void AccessStream::noOffset(bool Write) {
  ++(Write ? S.WritesNoOffset : S.ReadsNoOffset);
}

AccessStats AccessStream::finish(RangeList &ReadRanges,
                                 RangeList &WriteRanges) {
  S.RangesCapped = Capped ? 1 : 0;
  ReadRanges.assign(Read.begin(), Read.end());
  WriteRanges.assign(Written.begin(), Written.end());
  S.DistinctRead = rangeBytes(ReadRanges);
  S.DistinctWritten = rangeBytes(WriteRanges);
  Read.clear();
  Written.clear();
  LastRead = Read.end();
  LastWritten = Written.end();
  for (const auto &[V, N] : SizeCounts)
    S.Sizes.Counts[V] += N;
  for (const auto &[V, N] : StrideCounts)
    S.Strides.Counts[V] += N;
  SizeCounts.clear();
  StrideCounts.clear();
  S.Sizes.trim();
  S.Strides.trim();
  return S;
}

void FsInfo::merge(const FsInfo &O) {
  if (O.Type.empty())
    return;
  if (Type.empty() ||
      std::tie(O.Type, O.Mount, O.BlockSize, O.StripeSize, O.StripeCount,
               O.Magic) <
          std::tie(Type, Mount, BlockSize, StripeSize, StripeCount, Magic))
    *this = O;
}

} // namespace dftanalyze
