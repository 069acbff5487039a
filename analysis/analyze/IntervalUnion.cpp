//===- IntervalUnion.cpp - Time covered by overlapping calls --------------===//

#include "IntervalUnion.h"

namespace dftanalyze {

void IntervalUnion::insert(int64_t Begin, int64_t End) {
  // The first kept interval that ends at or after Begin, then every one
  // that starts at or before End: those merge with [Begin, End). A parent's
  // children are the last few kept, so look back a little before searching.
  auto Kept = Open.begin() + static_cast<ptrdiff_t>(Head);
  auto First = Open.end();
  for (int Step = 0; Step < 8 && First != Kept && (First - 1)->second >= Begin;
       ++Step)
    --First;
  if (First != Kept && (First - 1)->second >= Begin)
    First = std::lower_bound(Kept, First, Begin,
                             [](const std::pair<int64_t, int64_t> &P,
                                int64_t B) { return P.second < B; });
  auto Last = First;
  while (Last != Open.end() && Last->first <= End) {
    Begin = std::min(Begin, Last->first);
    End = std::max(End, Last->second);
    ++Last;
  }
  if (First == Last) {
    Open.insert(First, {Begin, End});
    return;
  }
  *First = {Begin, End};
  Open.erase(First + 1, Last);
}

void IntervalUnion::fold(int64_t Watermark) {
  while (Head < Open.size() && Open[Head].second <= Watermark) {
    Folded += static_cast<uint64_t>(Open[Head].second - Open[Head].first);
    Frontier = Open[Head].second;
    ++Head;
  }
  // Drop the folded prefix once it is most of the vector.
  if (Head > 0 && Head * 2 >= Open.size()) {
    Open.erase(Open.begin(), Open.begin() + static_cast<ptrdiff_t>(Head));
    Head = 0;
  }
  NextFold = std::max(FoldAbove, 2 * kept());
}

} // namespace dftanalyze
