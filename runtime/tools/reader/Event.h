//===- Event.h - One trace line, as parsed -----------------------*- C++ -*-===//
//
// The fields of one .pfw line that the checker and the analyzer use, with
// their JSON types, so each tool can say exactly what is wrong with a line:
//
// \code
//   {"id":12,"name":"pwrite64","cat":"POSIX","pid":41,"tid":41,
//    "ts":1718000000000130,"dur":3,"ph":"X",
//    "args":{"level":3,"p_idx":7,"fhash":3405691582,"count":4096,"ret":4096}}
//   -> Name.S = "pwrite64", Dur.I = 3, ParentIdx.I = 7, Ret.I = 4096, ...
// \endcode
//
// String fields view the parser's buffer: they are valid until the next line
// is parsed. Keys that are not listed here are validated and skipped.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_EVENT_H
#define DFTRACER_READER_EVENT_H

#include <cstdint>
#include <string_view>

namespace dftrace {

struct Field {
  enum Kind : uint8_t { Missing, Int, UInt, Double, String, Other };
  Kind K = Missing; // the other members are meaningful only as K says
  int64_t I = 0;  // Int; also UInt values that fit
  uint64_t U = 0; // Int >= 0 and UInt
  double D = 0;   // any number
  std::string_view S; // String: the unescaped text

  bool present() const { return K != Missing; }
  bool isInteger() const { return K == Int || K == UInt; }
  bool isNumber() const { return K == Int || K == UInt || K == Double; }
  bool isString() const { return K == String; }
  /// An integer >= 0 (any 64-bit unsigned value).
  bool isUnsigned() const { return K == UInt || (K == Int && I >= 0); }
};

struct Event {
  // Top level.
  Field Id, Name, Cat, Pid, Tid, Ts, Dur, Ph;
  Field::Kind ArgsKind = Field::Missing; // Other when an object
  // args: nesting (this runtime), I/O keys (docs/trace-format.md), and the
  // {"name","value"} pair of metadata events.
  Field Level, ParentIdx, FHash, Fd, Count, Size, Bytes, Offset, Length, Ret;
  Field ArgName, ArgValue;

  bool argsIsObject() const { return ArgsKind == Field::Other; }
  /// Marks every field missing (the parser's reset: cheaper than a new
  /// Event, since only a field's kind says whether its value is set).
  void clear() {
    for (Field *F : {&Id, &Name, &Cat, &Pid, &Tid, &Ts, &Dur, &Ph, &Level,
                     &ParentIdx, &FHash, &Fd, &Count, &Size, &Bytes, &Offset,
                     &Length, &Ret, &ArgName, &ArgValue})
      F->K = Field::Missing;
    ArgsKind = Field::Missing;
  }
  bool isComplete() const { return Ph.isString() && Ph.S == "X"; }
  bool isMetadata() const { return Ph.isString() && Ph.S == "M"; }
};

} // namespace dftrace

#endif
