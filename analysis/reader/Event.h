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
// Upstream DFTracer's shapes (docs/trace-format.md, "Upstream DFTracer") are
// read into the same fields: "ph" may be a letter or upstream's integer
// (Phase says which record it is either way), hashes may be hex strings
// (the parser turns them into UInt), and aggregated records carry their
// call count and sums (Cnt, DurSum, ...).
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_EVENT_H
#define DFTRACER_READER_EVENT_H

#include <cstdint>
#include <cstring>
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
  /// The same kind and, for that kind, the same value (bitwise for a
  /// double, so -0.0 and NaN compare as what they are).
  bool sameAs(const Field &O) const {
    if (K != O.K)
      return false;
    switch (K) {
    case Int: case UInt:
      return I == O.I && U == O.U && D == O.D;
    case Double:
      return std::memcmp(&D, &O.D, sizeof D) == 0 && I == O.I && U == O.U;
    case String:
      return S == O.S;
    default:
      return true;
    }
  }
};

/// What a line is, from "ph": a letter (this runtime, Chrome, upstream v1
/// and v2) or upstream's integer (dev: 1 complete, 2 counter, 3 aggregated,
/// 4 metadata).
enum class Phase : uint8_t {
  None,       // no "ph", or not a string or an integer
  Complete,   // "X", 1
  Metadata,   // "M", 4
  Counter,    // "C", 2: a sample, or (with args.dft_cnt) an aggregate
  Aggregated, // "A", 3
  Begin,      // "B"
  End,        // "E"
  Instant,    // "i", "I"
  Unknown,    // any other letter or number
};

struct Event {
  // Top level.
  Field Id, Name, Cat, Pid, Tid, Ts, Dur, Ph;
  Field Type; // upstream dev's instrumentation layer (an integer)
  Phase Ph2 = Phase::None; // Ph, decoded
  Field::Kind ArgsKind = Field::Missing; // Other when an object
  // args: nesting (this runtime), I/O keys (docs/trace-format.md), and the
  // {"name","value"} pair of metadata events.
  Field Level, ParentIdx, FHash, Fd, Count, Size, Bytes, Offset, Length, Ret;
  Field ArgName, ArgValue;
  // Upstream: "end"'s num_events and cfg.time_metric; an aggregated
  // record's dft_cnt and the sums of its folded fields.
  // ArgDur: an aggregate's "dur" in args (one call, or one value for all).
  Field NumEvents, TimeMetric, Cnt, ArgDur, DurSum, RetSum, SizeSum, BytesSum;
  // Issue 22's facts (docs/trace-format.md): an O_APPEND write's "append";
  // HDF5's dataset hash (a hex string becomes UInt, as fhash), transfer
  // mode, actual I/O mode and selection (elements); MPI_File_set_view's
  // etype and filetype.
  Field Append, DHash, Xfer, IoMode, Selection;
  Field EtypeSize, FiletypeSize, FiletypeExtent, Contiguous;
  // A data call's "mem_align": its buffer is not a multiple of the
  // process's CM "mem_alignment" (the largest power of two dividing it).
  Field MemAlign;

  bool argsIsObject() const { return ArgsKind == Field::Other; }
  /// Every Field member, for loops over them. A constant table, so a loop
  /// unrolls into one access per field (a list of pointers built per line
  /// cost 5% of the analyzer).
  static constexpr Field Event::*AllFields[] = {
      &Event::Id,        &Event::Name,      &Event::Cat,
      &Event::Pid,       &Event::Tid,       &Event::Ts,
      &Event::Dur,       &Event::Ph,        &Event::Type,
      &Event::Level,     &Event::ParentIdx, &Event::FHash,
      &Event::Fd,        &Event::Count,     &Event::Size,
      &Event::Bytes,     &Event::Offset,    &Event::Length,
      &Event::Ret,       &Event::ArgName,   &Event::ArgValue,
      &Event::NumEvents, &Event::TimeMetric, &Event::Cnt,
      &Event::ArgDur,    &Event::DurSum,    &Event::RetSum,
      &Event::SizeSum,   &Event::BytesSum,  &Event::Append,
      &Event::DHash,     &Event::Xfer,      &Event::IoMode,
      &Event::Selection, &Event::EtypeSize, &Event::FiletypeSize,
      &Event::FiletypeExtent, &Event::Contiguous, &Event::MemAlign};
  /// Marks every field missing (the parser's reset: cheaper than a new
  /// Event, since only a field's kind says whether its value is set).
  void clear() {
#pragma GCC unroll 64 // one store per field (a loop of 38 loads was 12%
                      // of the parser's instructions)
    for (Field Event::*F : AllFields)
      (this->*F).K = Field::Missing;
    ArgsKind = Field::Missing;
    Ph2 = Phase::None;
  }
  /// The same fields with the same values (the parsers' tests compare
  /// PlainLineParser with simdjson's DOM by it).
  bool sameAs(const Event &O) const {
    for (Field Event::*F : AllFields)
      if (!((this->*F).sameAs(O.*F)))
        return false;
    return ArgsKind == O.ArgsKind && Ph2 == O.Ph2;
  }
  bool isComplete() const { return Ph2 == Phase::Complete; }
  bool isMetadata() const { return Ph2 == Phase::Metadata; }
  /// A record of many calls: "ph" 3 ("A"), or a counter with args.dft_cnt
  /// (upstream wrote aggregates as "C" before it had a phase for them).
  bool isAggregated() const {
    return Ph2 == Phase::Aggregated || (Ph2 == Phase::Counter && Cnt.present());
  }
  /// Upstream's own spans ("start", "end"): "cat":"dftracer", or dev's
  /// type 1 (DFTRACER).
  bool isTracerSpan() const {
    return (Cat.isString() && Cat.S == "dftracer") ||
           (Type.isInteger() && Type.I == 1);
  }
};

} // namespace dftrace

#endif
