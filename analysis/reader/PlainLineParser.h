//===- PlainLineParser.h - The runtime's lines, read in one pass -*- C++ -*-===//
//
// A scalar, strict JSON reader for the lines this runtime writes: one
// object, ASCII strings without escapes, integers in 64 bits (negative
// ones of up to 18 digits),
// nested values only inside "args". It fills the Event in one pass over
// the bytes, with no document in between: the runtime's keys, in its
// order, cost a word compare each (EventKeys.h), so a 177-byte line is
// about 1,000 instructions, 2.7x faster than this reader was with a
// string compare per key, and 5x simdjson's DOM parse of the line
// (docs/performance.md, "Trace analysis").
//
// It decides only what it can decide exactly as simdjson's DOM parser
// would; anything else (an escape, a byte >= 0x80, a control byte, a
// fraction or exponent, a longer integer, "-0", a syntax error, upstream's
// "cfg") returns false, and EventParser reads that line with the DOM
// parser, which also writes the error message. So a line it accepts is
// valid JSON, and its fields are the DOM parser's.
//
// \code
//   {"id":15,"name":"pwrite64",...,"args":{"fhash":45035996,"ret":4096}}
//     -> true,  E.Name.S = "pwrite64" (a view of the line), E.Ret.I = 4096
//   {"id":16,"name":"caf\u00e9",...}    -> false (the DOM parser reads it)
//   {"id":17,"dur":1.5,...}              -> false
// \endcode
//
// String fields view Data: they are valid as long as the line is.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_PLAINLINEPARSER_H
#define DFTRACER_READER_PLAINLINEPARSER_H

#include "Event.h"

#include <cstddef>

namespace dftrace {

/// Bytes past a line's end parsePlainLine may read (never use):
/// LineReader gives 64.
constexpr size_t PlainLinePadding = 16;

/// Reads Data[0..Size) into E (cleared first by the caller). False when
/// the line is not in the subset above: E is then partly filled. Keys,
/// strings and digits are read a word at a time, so
/// Data[Size..Size+PlainLinePadding) must be readable.
bool parsePlainLine(const char *Data, size_t Size, Event &E);

} // namespace dftrace

#endif
