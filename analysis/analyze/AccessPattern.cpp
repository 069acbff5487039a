//===- AccessPattern.cpp - How a file was accessed, from the offsets ------===//

#include "AccessPattern.h"

#include "Remake.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <tuple>

namespace dftanalyze {

namespace {
bool valueBefore(const ValueCounts::Value &A, const ValueCounts::Value &B) {
  return A.first < B.first;
}

/// Values sorted by value, a value any number of times: each once, with
/// its calls summed, in place.
void sumEqualNeighbours(std::vector<ValueCounts::Value> &Values) {
  size_t Kept = 0;
  for (const ValueCounts::Value &V : Values)
    if (Kept && Values[Kept - 1].first == V.first)
      Values[Kept - 1].second += V.second;
    else
      Values[Kept++] = V;
  Values.resize(Kept);
}

bool moreCommon(const ValueCounts::Value &A, const ValueCounts::Value &B) {
  return A.second != B.second ? A.second > B.second : A.first < B.first;
}

/// Keeps the Keep most common of Values (a handful), most common first, as
/// partial_sort by moreCommon leaves them: one pass that inserts each value
/// more common than the last kept among the kept ones (a heap over the
/// whole list was most of what a rank's top four cost; issue 41).
void keepMostCommon(std::vector<ValueCounts::Value> &Values, size_t Keep) {
  size_t Kept = 0;
  for (size_t J = 0; J < Values.size(); ++J) {
    ValueCounts::Value V = Values[J]; // Values[0, Kept) is done with J's
    if (Kept == Keep && !moreCommon(V, Values[Kept - 1]))
      continue;
    size_t I = Kept < Keep ? Kept++ : Kept - 1;
    for (; I > 0 && moreCommon(V, Values[I - 1]); --I)
      Values[I] = Values[I - 1];
    Values[I] = V;
  }
  Values.resize(Kept);
}

/// The first of the Len values from First whose value is not below V (as
/// std::lower_bound), with no branch per step: a figure merged over
/// thousands of ranks holds thousands of values, and this search is most
/// of what merging a file's few into it costs (issue 41).
ValueCounts::Value *firstNotBelow(ValueCounts::Value *First, size_t Len,
                                  int64_t V) {
  if (!Len)
    return First;
  while (Len > 1) {
    size_t Half = Len / 2;
    First = First[Half].first < V ? First + Half : First;
    Len -= Half;
  }
  return First + (First->first < V);
}

/// Sorted lists A and B (each value once) as one, a value in both once
/// with its calls summed.
std::vector<ValueCounts::Value>
mergeSorted(const std::vector<ValueCounts::Value> &A,
            const std::vector<ValueCounts::Value> &B) {
  std::vector<ValueCounts::Value> All;
  All.reserve(A.size() + B.size());
  auto I = A.begin(), J = B.begin();
  while (I != A.end() && J != B.end()) {
    if (I->first < J->first) {
      All.push_back(*I++);
    } else if (J->first < I->first) {
      All.push_back(*J++);
    } else {
      All.emplace_back(I->first, I->second + J->second);
      ++I;
      ++J;
    }
  }
  All.insert(All.end(), I, A.end());
  All.insert(All.end(), J, B.end());
  return All;
}
} // namespace

void ValueCounts::add(int64_t V, uint64_t N) {
  fold();
  auto It = std::lower_bound(Counts.begin(), Counts.end(), Value{V, 0},
                             valueBefore);
  if (It != Counts.end() && It->first == V)
    It->second += N;
  else if (Counts.size() < MaxValues)
    Counts.insert(It, {V, N});
  else
    Other += N;
}

void ValueCounts::merge(const ValueCounts &O) {
  O.fold();
  mergeValues(O.Counts, O.Other);
}

void ValueCounts::mergeValues(const std::vector<Value> &Sorted,
                              uint64_t OtherCalls) {
  Other += OtherCalls;
  if (Counts.empty() && Pending.empty()) {
    Counts = Sorted;
    return;
  }
  // A list about as long as this one (a path's figure over all ranks into
  // its layer's, a worker's into another's) is merged in one pass: a
  // search per value cost more than walking both (issue 41).
  if (Sorted.size() >= 64 && Sorted.size() * 8 >= Counts.size()) {
    fold();
    Counts = mergeSorted(Counts, Sorted);
    return;
  }
  if (Counts.size() < SearchedValues) {
    // A value already counted is added in place: the ranks of a job
    // mostly share their sizes and strides, and a search of a short list
    // is a few steps where folding the values in later sorted and copied
    // them (issue 41). Others wait in Pending. Both lists are sorted, so
    // each search starts where the one before ended.
    Value *At = Counts.data(), *End = Counts.data() + Counts.size();
    for (const Value &V : Sorted) {
      At = firstNotBelow(At, static_cast<size_t>(End - At), V.first);
      if (At != End && At->first == V.first)
        At->second += V.second;
      else
        Pending.push_back(V);
    }
  } else {
    // A long list (a path's or function's over thousands of ranks whose
    // strides differ: ~1,600 values on 4,096 files of 250 spans) is not
    // searched: each search missed the cache ~3.5 times, and those
    // searches were the largest cost of such a file even with a filter
    // ruling out most new values (issue 41). The values wait in Pending,
    // sorted and summed in one walk when it is as long as the list.
    Pending.insert(Pending.end(), Sorted.begin(), Sorted.end());
  }
  if (Pending.size() >= std::max<size_t>(64, Counts.size()))
    fold();
}

void ValueCounts::fold() const {
  if (Pending.empty())
    return;
  std::sort(Pending.begin(), Pending.end(), valueBefore);
  std::vector<Value> &C = const_cast<std::vector<Value> &>(Counts);
  std::vector<Value> All;
  All.reserve(C.size() + Pending.size());
  std::merge(C.begin(), C.end(), Pending.begin(), Pending.end(),
             std::back_inserter(All), valueBefore);
  Pending.clear();
  // Equal values summed in place, and All kept: refilling C grew it by
  // doubling, up to twice the list (issue 41: these lists are most of
  // what a figure over many ranks holds).
  sumEqualNeighbours(All);
  C.swap(All);
}

std::vector<ValueCounts::Value> ValueCounts::top(size_t N) const {
  fold();
  std::vector<Value> All(Counts.begin(), Counts.end());
  if (All.size() > N) {
    std::partial_sort(All.begin(), All.begin() + static_cast<ptrdiff_t>(N),
                      All.end(), moreCommon);
    All.resize(N);
  } else {
    std::sort(All.begin(), All.end(), moreCommon);
  }
  return All;
}

void ValueCounts::trim(size_t Keep) {
  fold();
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
  std::sort(Kept.begin(), Kept.end(), valueBefore);
  Counts = std::move(Kept);
}

void ValueCounts::keepTop(size_t Keep) {
  fold();
  // A rank keeps these lists to the end of the run: no spare capacity
  // (fold() leaves Pending's, top() the whole list's; issue 41: at 100,000
  // ranks every retained byte per rank counts).
  std::vector<Value>().swap(Pending);
  if (Counts.size() > Keep) {
    auto Kept = top(Keep);
    std::sort(Kept.begin(), Kept.end(), valueBefore);
    Counts = std::move(Kept);
  }
  if (Counts.capacity() > Counts.size())
    Counts.shrink_to_fit();
}

void ValueCounts::keepTopOf(std::vector<Value> &Values, size_t Keep) {
  fold();
  Values.insert(Values.end(), Counts.begin(), Counts.end());
  std::sort(Values.begin(), Values.end(), valueBefore);
  sumEqualNeighbours(Values);
  if (Values.size() > Keep) {
    keepMostCommon(Values, Keep);
    std::sort(Values.begin(), Values.end(), valueBefore);
  }
  // No spare capacity, as keepTop() leaves it.
  std::vector<Value>().swap(Pending);
  Counts = std::vector<Value>(Values.begin(), Values.end());
  Values.clear();
}

namespace {
size_t slotOf(int64_t V, size_t Mask) {
  uint64_t H = static_cast<uint64_t>(V) * 0x9e3779b97f4a7c15ull;
  return static_cast<size_t>(H >> 32) & Mask;
}
} // namespace

static_assert(4 * ValueCounts::MaxValues <= 65536,
              "ValueTally::Occupied holds slot numbers in 16 bits");

void ValueTally::add(int64_t V, uint64_t N, ValueCounts &Into) {
  if (Slots.empty())
    Slots.resize(8);
  size_t Mask = Slots.size() - 1;
  size_t I = slotOf(V, Mask);
  for (; Slots[I].second; I = (I + 1) & Mask)
    if (Slots[I].first == V) {
      Slots[I].second += N;
      return;
    }
  if (Used >= ValueCounts::MaxValues) {
    Into.Other += N;
    return;
  }
  Slots[I] = {V, N};
  Occupied.push_back(static_cast<uint16_t>(I));
  if (++Used * 2 > Slots.size())
    grow();
}

void ValueTally::grow() {
  std::vector<std::pair<int64_t, uint64_t>> Old(Slots.size() * 2);
  Old.swap(Slots);
  size_t Mask = Slots.size() - 1;
  for (uint16_t &At : Occupied) {
    const auto &[V, N] = Old[At];
    size_t I = slotOf(V, Mask);
    while (Slots[I].second)
      I = (I + 1) & Mask;
    Slots[I] = {V, N};
    At = static_cast<uint16_t>(I);
  }
}

void ValueTally::clear() {
  if (Slots.size() > KeptSlots) {
    std::vector<std::pair<int64_t, uint64_t>>().swap(Slots);
    std::vector<uint16_t>().swap(Occupied);
  } else {
    for (uint16_t I : Occupied)
      Slots[I] = {};
    Occupied.clear();
  }
  Used = 0;
}

void ValueTally::takeAll(std::vector<ValueCounts::Value> &All) {
  All.clear();
  for (uint16_t I : Occupied)
    All.push_back(Slots[I]);
  clear();
}

void ValueTally::takeTop(std::vector<ValueCounts::Value> &Top,
                         uint64_t &Other) {
  takeAll(Top);
  if (Top.size() > ValueCounts::KeepValues) {
    // The kept values straight away, without a tree of all of them.
    auto Keep = Top.begin() + static_cast<ptrdiff_t>(ValueCounts::KeepValues);
    std::partial_sort(Top.begin(), Keep, Top.end(), moreCommon);
    for (auto It = Keep; It != Top.end(); ++It)
      Other += It->second;
    Top.erase(Keep, Top.end());
  }
  // All kept (the usual stream or function): no need to rank them first.
  std::sort(Top.begin(), Top.end());
}

void ValueTally::moveTo(ValueCounts &Into) {
  Into.fold();
  if (Into.Counts.empty()) { // only its Other (past MaxValues): as takeTop
    takeTop(Into.Counts, Into.Other);
    return;
  }
  ValueCounts These; // counts already there: merged, then trimmed
  takeAll(These.Counts);
  std::sort(These.Counts.begin(), These.Counts.end());
  Into.merge(These);
  Into.trim();
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
  size_t N = 0;
  for (const RangeList *L : Lists)
    N += L->size();
  RangeList All;
  All.reserve(N); // 100,000 ranks' lists: no copy at each doubling
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

void AccessCounts::add(const AccessCall &C) {
  bool W = C.Flags & AccessCall::Write;
  if (C.Flags & AccessCall::MemJudged) {
    ++MemJudged;
    MemNotAligned += (C.Flags & AccessCall::MemNotAligned) != 0;
    MemAlignMin = MemAlignMin ? std::min(MemAlignMin, C.MemUnit) : C.MemUnit;
    MemAlignMax = std::max(MemAlignMax, C.MemUnit);
  }
  if (!(C.Flags & AccessCall::HasOffset)) {
    ++(W ? WritesNoOffset : ReadsNoOffset);
    return;
  }
  ++(W ? Writes : Reads);
  (W ? BytesWritten : BytesRead) += C.Size;
  (W ? SeqWrites : SeqReads) += (C.Flags & AccessCall::Seq) != 0;
  (W ? ConsecWrites : ConsecReads) += (C.Flags & AccessCall::Consec) != 0;
  RwSwitches += (C.Flags & AccessCall::Switch) != 0;
  if (C.Size) {
    int64_t Last = C.Offset + static_cast<int64_t>(C.Size) - 1;
    int64_t &Max = W ? MaxByteWritten : MaxByteRead;
    Max = std::max(Max, Last);
  }
  AlignMin = AlignMin ? std::min(AlignMin, C.Align) : C.Align;
  AlignMax = std::max(AlignMax, C.Align);
  AlignAssumed += (C.Flags & AccessCall::Assumed) != 0;
  if (C.Flags & AccessCall::NotAligned) {
    ++NotAligned;
    NotAlignedBytes += C.Size;
  }
  (W ? RedundantWritten : RedundantRead) += C.Redundant;
  RangesCapped += (C.Flags & AccessCall::Capped) != 0;
}

void AccessCounts::merge(const AccessCounts &O) {
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
  NotAligned += O.NotAligned;
  NotAlignedBytes += O.NotAlignedBytes;
  if (O.AlignMax) {
    AlignMin = AlignMin ? std::min(AlignMin, O.AlignMin) : O.AlignMin;
    AlignMax = std::max(AlignMax, O.AlignMax);
  }
  AlignAssumed += O.AlignAssumed;
  RedundantRead += O.RedundantRead;
  RedundantWritten += O.RedundantWritten;
  MemJudged += O.MemJudged;
  MemNotAligned += O.MemNotAligned;
  if (O.MemAlignMax) {
    MemAlignMin =
        MemAlignMin ? std::min(MemAlignMin, O.MemAlignMin) : O.MemAlignMin;
    MemAlignMax = std::max(MemAlignMax, O.MemAlignMax);
  }
  RangesCapped += O.RangesCapped;
}

void SmallValues::add(int64_t V, uint64_t N) {
  for (size_t I = 0; I < Used; ++I)
    if (Slot[I].first == V) {
      Slot[I].second += N;
      return;
    }
  if (Used < Slots) {
    Slot[Used++] = {V, N};
    return;
  }
  if (!More)
    More = std::make_unique<ValueCounts>();
  More->add(V, N);
}

void SmallValues::take(SmallValues &O) {
  for (size_t I = 0; I < O.Used; ++I)
    add(O.Slot[I].first, O.Slot[I].second);
  if (O.More) {
    O.More->fold();
    for (const auto &[V, N] : O.More->Counts)
      add(V, N);
  }
  if (O.More && O.More->Other) {
    if (!More)
      More = std::make_unique<ValueCounts>();
    More->Other += O.More->Other;
  }
  O.clear();
}

void SmallValues::addTo(ValueTally &To, ValueCounts &Other) const {
  for (size_t I = 0; I < Used; ++I)
    To.add(Slot[I].first, Slot[I].second, Other);
  if (More) {
    More->fold();
    for (const auto &[V, N] : More->Counts)
      To.add(V, N, Other);
    Other.Other += More->Other;
  }
}

namespace {
/// Spare tallies of this thread (LazyTally): as many as spans are open
/// with data calls below, a few dozen.
thread_local std::vector<std::unique_ptr<AccessTally>> SpareTallies;
} // namespace

std::unique_ptr<AccessTally> LazyTally::fromPool() {
  if (SpareTallies.empty())
    return std::make_unique<AccessTally>();
  std::unique_ptr<AccessTally> T = std::move(SpareTallies.back());
  SpareTallies.pop_back();
  return T;
}

void LazyTally::toPool(std::unique_ptr<AccessTally> T) {
  if (SpareTallies.size() >= 256)
    return; // freed
  T->clear();
  SpareTallies.push_back(std::move(T));
}

void AccessTally::add(const AccessCall &C) {
  Counts.add(C);
  if (!(C.Flags & AccessCall::HasOffset))
    return;
  Sizes.add(static_cast<int64_t>(C.Size));
  if (C.Flags & AccessCall::HasStride)
    Strides.add(C.Stride);
}

void AccessTally::take(AccessTally &O) {
  if (O.empty())
    return;
  Counts.merge(O.Counts);
  Sizes.take(O.Sizes);
  Strides.take(O.Strides);
  O.clear();
}

bool AccessStats::none() const {
  static const AccessCounts Zero;
  // All integers, no padding: equal bytes are equal counters.
  static_assert(sizeof(AccessCounts) % sizeof(uint64_t) == 0);
  if (DistinctRead || DistinctWritten || CrossRead || CrossWritten ||
      !Sizes.empty() || !Strides.empty())
    return false;
  // Word by word, inline: memcmp's call was most of this test, which runs
  // for every layer of every file merged (issue 41).
  const auto *A = reinterpret_cast<const uint64_t *>(
      static_cast<const AccessCounts *>(this));
  const auto *Z = reinterpret_cast<const uint64_t *>(&Zero);
  uint64_t Differ = 0;
  for (size_t I = 0; I < sizeof Zero / sizeof(uint64_t); ++I)
    Differ |= A[I] ^ Z[I];
  return !Differ;
}

void AccessStats::merge(const AccessStats &O) {
  // A layer or stream without data calls (most merges: each file's MPI-IO,
  // HDF5 and STDIO figures) adds nothing (issue 41).
  if (O.none())
    return;
  mergeCounts(O);
  Sizes.merge(O.Sizes);
  Strides.merge(O.Strides);
}

void AccessStats::mergeCounts(const AccessStats &O) {
  AccessCounts::merge(O);
  DistinctRead += O.DistinctRead;
  DistinctWritten += O.DistinctWritten;
  CrossRead += O.CrossRead;
  CrossWritten += O.CrossWritten;
}

void AccessSum::add(const AccessTally &T) {
  S.AccessCounts::merge(T.Counts);
  T.Sizes.addTo(Sizes, S.Sizes);
  T.Strides.addTo(Strides, S.Strides);
}

void AccessSum::add(const AccessCall &C) {
  S.AccessCounts::add(C); // as merging the counts of a tally of C alone
  if (!(C.Flags & AccessCall::HasOffset))
    return;
  Sizes.add(static_cast<int64_t>(C.Size), 1, S.Sizes);
  if (C.Flags & AccessCall::HasStride)
    Strides.add(C.Stride, 1, S.Strides);
}

AccessStats AccessSum::finish() {
  TopValues Top;
  AccessStats Stats = finish(Top);
  Stats.Sizes.Counts = std::move(Top.Sizes);
  Stats.Strides.Counts = std::move(Top.Strides);
  return Stats;
}

AccessStats AccessSum::finish(TopValues &Top) {
  Sizes.takeTop(Top.Sizes, S.Sizes.Other);
  Strides.takeTop(Top.Strides, S.Strides.Other);
  return std::move(S);
}

void AccessSum::reset() {
  remake(S);
  Sizes.clear();
  Strides.clear();
}

uint64_t AccessStream::cover(Ranges &R, size_t &Last, uint64_t B, uint64_t E) {
  // The usual cases first: a call that continues the range that holds the
  // end of the previous one (sequential I/O), with nothing after it to
  // join: extended in place; or one past every kept range: appended.
  if (Last < R.size() && R[Last].first <= B && R[Last].second >= B &&
      (Last + 1 == R.size() || R[Last + 1].first > E)) {
    uint64_t Overlap = std::min(E, R[Last].second) - B;
    R[Last].second = std::max(R[Last].second, E);
    return Overlap;
  }
  if (R.empty() || R.back().second < B) {
    if (R.size() >= MaxRanges) {
      // A new range past the cap: not kept, so later overlaps with it are
      // missed and the redundant figures become lower bounds.
      Capped = true;
      return 0;
    }
    R.emplace_back(B, E);
    Last = R.size() - 1;
    return 0;
  }
  // The first kept range that could touch [B, E): the first that ends at
  // or after B (ranges do not touch, so their ends increase).
  auto First = std::lower_bound(R.begin(), R.end(), B,
                                [](const std::pair<uint64_t, uint64_t> &P,
                                   uint64_t V) { return P.second < V; });
  uint64_t Overlap = 0;
  uint64_t NewB = B, NewE = E;
  auto It = First;
  for (; It != R.end() && It->first <= E; ++It) {
    uint64_t OB = std::max(B, It->first), OE = std::min(E, It->second);
    if (OE > OB)
      Overlap += OE - OB;
    NewB = std::min(NewB, It->first);
    NewE = std::max(NewE, It->second);
  }
  if (It == First) { // touches none: a new range between kept ones
    if (R.size() >= MaxRanges) {
      Capped = true;
      return 0;
    }
    // The ranges after it move up by one, as bytes: vector::insert moves
    // pairs one by one (std::pair's assignment is not trivial), a fifth
    // of the instructions of a random-offset trace (issue 41).
    size_t At = static_cast<size_t>(First - R.begin());
    R.emplace_back();
    std::memmove(static_cast<void *>(R.data() + At + 1),
                 static_cast<const void *>(R.data() + At),
                 (R.size() - 1 - At) * sizeof(R[0]));
    R[At] = {NewB, NewE};
    First = R.begin() + static_cast<ptrdiff_t>(At);
  } else { // the ranges it touches become one
    *First = {NewB, NewE};
    R.erase(First + 1, It);
  }
  Last = static_cast<size_t>(First - R.begin());
  return Overlap;
}

AccessCall AccessStream::data(bool Write, uint64_t Offset, uint64_t Size,
                              uint64_t Align, MemAlign Mem) {
  AccessCall C = begin(Write, Mem);
  C.Flags |= AccessCall::HasOffset;
  C.Offset = static_cast<int64_t>(Offset);
  C.Size = Size;
  int64_t Off = static_cast<int64_t>(Offset);
  int64_t End = Off + static_cast<int64_t>(Size);
  int64_t &Last = Write ? LastWriteEnd : LastReadEnd;
  uint8_t Kind = Write ? 2 : 1;
  if (LastKind && LastKind != Kind)
    C.Flags |= AccessCall::Switch;
  LastKind = Kind;
  if (Last >= 0) {
    C.Flags |= AccessCall::HasStride;
    if (Off >= Last)
      C.Flags |= AccessCall::Seq;
    if (Off == Last)
      C.Flags |= AccessCall::Consec;
    C.Stride = Off - Last;
    StrideCounts.add(C.Stride, 1, S.Strides);
  }
  Last = End;
  SizeCounts.add(static_cast<int64_t>(Size), 1, S.Sizes);
  if (!Align) {
    Align = DefaultAlign;
    C.Flags |= AccessCall::Assumed;
  }
  C.Align = Align;
  if (Offset % Align)
    C.Flags |= AccessCall::NotAligned;
  if (Size)
    C.Redundant = Write ? cover(Written, LastWritten, Offset, Offset + Size)
                        : cover(Read, LastRead, Offset, Offset + Size);
  if (Capped)
    C.Flags |= AccessCall::Capped;
  S.add(C); // the counters; Sizes and Strides are counted above
  return C;
}

AccessCall AccessStream::begin(bool Write, MemAlign Mem) {
  AccessCall C;
  C.Flags = AccessCall::Valid | (Write ? AccessCall::Write : 0);
  if (Mem.Unit) {
    C.Flags |= AccessCall::MemJudged |
               (Mem.NotAligned ? AccessCall::MemNotAligned : 0);
    C.MemUnit = Mem.Unit;
  }
  return C;
}

AccessCall AccessStream::noOffset(bool Write, MemAlign Mem) {
  AccessCall C = begin(Write, Mem);
  S.add(C);
  return C;
}

AccessStats AccessStream::finish(RangeList &ReadRanges,
                                 RangeList &WriteRanges) {
  TopValues Top;
  AccessStats Stats = finish(ReadRanges, WriteRanges, Top);
  Stats.Sizes.Counts = std::move(Top.Sizes);
  Stats.Strides.Counts = std::move(Top.Strides);
  return Stats;
}

AccessStats AccessStream::finish(RangeList &ReadRanges, RangeList &WriteRanges,
                                 TopValues &Top) {
  S.RangesCapped = Capped ? 1 : 0;
  // Copied at their size (they are kept to the end of the run), and this
  // stream's lists keep theirs for its next file, up to a few KB: growing
  // them again by doubling was two allocations per stream of each small
  // file (issue 41).
  for (auto [From, To] : {std::pair(&Read, &ReadRanges),
                          std::pair(&Written, &WriteRanges)}) {
    To->assign(From->begin(), From->end());
    if (From->capacity() > KeptRanges)
      Ranges().swap(*From);
    else
      From->clear();
  }
  S.DistinctRead = rangeBytes(ReadRanges);
  S.DistinctWritten = rangeBytes(WriteRanges);
  LastRead = LastWritten = 0;
  SizeCounts.takeTop(Top.Sizes, S.Sizes.Other);
  StrideCounts.takeTop(Top.Strides, S.Strides.Other);
  // Moved, not copied: the stream is reset() before it is used again.
  return std::move(S);
}

void AccessStream::reset() {
  if (!used())
    return; // as new (a file's STDIO stream, mostly: issue 41)
  remake(S);
  LastReadEnd = LastWriteEnd = -1;
  LastKind = 0;
  Capped = false;
  Read.clear();
  Written.clear();
  LastRead = LastWritten = 0;
  SizeCounts.clear();
  StrideCounts.clear();
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
