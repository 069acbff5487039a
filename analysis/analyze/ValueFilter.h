//===- ValueFilter.h - Which values a long list cannot hold -----*- C++ -*-===//
//
// A worker merges each trace file's few sizes and strides into the same
// value lists of its aggregate, file after file (ValueCounts::mergeValues).
// Where the ranks' values differ (strides that depend on the rank), most of
// a file's values are new to a list of thousands: each took a binary search
// that found nothing before it waited in the list's Pending, and those
// searches were most of what the merges cost (issue 41). A filter of two
// bits per value (a Bloom filter, about a byte per value of the list) says
// "not there" for most of them in a few instructions.
//
// "Not there" is only an optimisation: a value the filter wrongly calls
// new waits in Pending like any other, and folding sums it with its equal
// in the list. So a filter that is out of date (the list changed since it
// was built) costs searches or duplicates in Pending, never a wrong count.
// It is rebuilt when the list's length changed, which is how folding
// shows it added values.
//
// \code
//   ValueFilter Filter; // one per list, kept by the worker
//   Figure.Sizes.mergeValues(FileSizes, 0, &Filter);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_VALUEFILTER_H
#define DFTRACER_ANALYZE_VALUEFILTER_H

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace dftanalyze {

class ValueFilter {
public:
  using Value = std::pair<int64_t, uint64_t>; // ValueCounts::Value
  /// Lists shorter than this are searched without a filter (a few steps).
  static constexpr size_t MinValues = 64;

  /// Readies the filter for List (rebuilt when its length changed).
  void sync(const std::vector<Value> &List) {
    if (List.size() == Built)
      return;
    Built = List.size();
    Log = 9; // at least 8 bits a value, 512 in all
    while ((size_t(1) << Log) < 8 * List.size())
      ++Log;
    Bits.assign((size_t(1) << Log) / 64, 0);
    for (const Value &V : List) {
      auto [A, B] = bitsOf(V.first);
      Bits[A / 64] |= uint64_t(1) << (A % 64);
      Bits[B / 64] |= uint64_t(1) << (B % 64);
    }
  }
  /// False when V is not in the list sync() was given (true: it may be).
  bool mayHold(int64_t V) const {
    auto [A, B] = bitsOf(V);
    return (Bits[A / 64] >> (A % 64)) & (Bits[B / 64] >> (B % 64)) & 1;
  }

private:
  std::pair<uint64_t, uint64_t> bitsOf(int64_t V) const {
    uint64_t H = static_cast<uint64_t>(V) * 0x9e3779b97f4a7c15ull;
    return {H >> (64 - Log), (H * 0xc2b2ae3d27d4eb4full) >> (64 - Log)};
  }

  std::vector<uint64_t> Bits;
  size_t Built = ~size_t(0); // the list's length when built
  unsigned Log = 0;          // 2^Log bits
};

} // namespace dftanalyze

#endif
