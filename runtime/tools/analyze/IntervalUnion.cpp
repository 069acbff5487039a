//===- IntervalUnion.cpp - Time covered by overlapping calls --------------===//

#include "IntervalUnion.h"

#include <algorithm>

namespace dftanalyze {

void IntervalUnion::compact(int64_t Watermark) {
  if (Open.empty())
    return;
  std::sort(Open.begin(), Open.end());
  size_t Out = 0;
  for (size_t I = 1; I < Open.size(); ++I) {
    if (Open[I].first <= Open[Out].second)
      Open[Out].second = std::max(Open[Out].second, Open[I].second);
    else
      Open[++Out] = Open[I];
  }
  Open.resize(Out + 1);
  bool Final = Watermark == std::numeric_limits<int64_t>::max();
  if (Final || Open.size() >= FoldAbove) {
    size_t Done = 0;
    while (Done < Open.size() && Open[Done].second <= Watermark) {
      Folded += static_cast<uint64_t>(Open[Done].second - Open[Done].first);
      Frontier = Open[Done].second;
      ++Done;
    }
    Open.erase(Open.begin(), Open.begin() + static_cast<ptrdiff_t>(Done));
  }
  NextCompact = std::max<size_t>(4096, 2 * Open.size());
}

} // namespace dftanalyze
