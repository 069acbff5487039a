//===- CategoryColumn.h - A string column as pandas keeps it ---*- C++ -*-===//
//
// A string column of events() as the reader writes it: each value once, and
// per row a code as narrow as the number of values allows (codeWidth:
// pandas' own bounds), widened by one copy when the values pass a bound.
// Written this way a row costs a byte or two instead of an int32 code to
// be remapped and narrowed later (the columns are events()' main cost:
// PodColumn.h).
//
// The values are in the order they were interned, which may include values
// no row kept; EventTable.cpp's join gives the table's column the values in
// order of first use, only those.
//
//===----------------------------------------------------------------------===//
#ifndef ANNOTATE_TRACES_CATEGORYCOLUMN_H
#define ANNOTATE_TRACES_CATEGORYCOLUMN_H

#include "EventTable.h"

#include <algorithm>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace annotate_traces {

/// Bytes per code of a categorical of Values values, as pandas chooses
/// (pandas.core.dtypes.cast.coerce_indexer_dtype): wider codes would be
/// narrowed by a copy in Categorical.from_codes.
inline unsigned codeWidth(size_t Values) {
  return Values < 127 ? 1 : Values < 32767 ? 2 : 4;
}

/// Calls Fn(Codes) with C's codes column of its width.
template <class F> void withCodes(StringColumn &C, F &&Fn) {
  switch (C.Width) {
  case 1:
    return Fn(C.Codes8);
  case 2:
    return Fn(C.Codes16);
  default:
    return Fn(C.Codes32);
  }
}

class CategoryColumn {
public:
  /// S's code, a new one when S is new.
  int32_t intern(std::string_view S) {
    auto It = Index.find(S);
    if (It != Index.end())
      return It->second;
    Store.emplace_back(S);
    int32_t Code = static_cast<int32_t>(Store.size() - 1);
    Index.emplace(Store.back(), Code);
    if (codeWidth(Store.size()) != Col.Width)
      widen();
    return Code;
  }
  const std::string &value(int32_t Code) const { return Store[Code]; }
  size_t values() const { return Store.size(); }

  /// Code -1: no value.
  void push_back(int32_t Code) {
    switch (Col.Width) {
    case 1:
      return Col.Codes8.push_back(static_cast<int8_t>(Code));
    case 2:
      return Col.Codes16.push_back(static_cast<int16_t>(Code));
    default:
      return Col.Codes32.push_back(Code);
    }
  }
  size_t size() const {
    return Col.Width == 1   ? Col.Codes8.size()
           : Col.Width == 2 ? Col.Codes16.size()
                            : Col.Codes32.size();
  }
  /// Fn(Codes), the PodColumn of the current width.
  template <class F> void withCodes(F &&Fn) {
    annotate_traces::withCodes(Col, Fn);
  }
  /// The codes, and the values in code order; the column is empty.
  StringColumn release() {
    StringColumn Out = std::move(Col);
    Out.Values.assign(Store.begin(), Store.end());
    *this = CategoryColumn();
    return Out;
  }

private:
  void widen() {
    unsigned To = codeWidth(Store.size());
    if (To == 2) {
      Col.Codes16.resize(Col.Codes8.size());
      std::copy(Col.Codes8.begin(), Col.Codes8.end(), Col.Codes16.begin());
      Col.Codes8 = PodColumn<int8_t>();
    } else {
      Col.Codes32.resize(Col.Codes16.size());
      std::copy(Col.Codes16.begin(), Col.Codes16.end(), Col.Codes32.begin());
      Col.Codes16 = PodColumn<int16_t>();
    }
    Col.Width = To;
  }

  StringColumn Col; // Values stay empty until release()
  std::deque<std::string> Store; // stable addresses for Index's views
  std::unordered_map<std::string_view, int32_t> Index;
};

} // namespace annotate_traces

#endif
