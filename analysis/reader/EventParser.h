//===- EventParser.h - Parse one .pfw line with simdjson ---------*- C++ -*-===//
//
// Each line is parsed on its own, so a broken line costs that line only:
// the next one parses as if nothing happened. The runtime's lines are read
// in one pass (PlainLineParser.h); any other line is its own simdjson DOM
// document.
//
// \code
//   EventParser P;
//   Event E;
//   if (!P.parse(L.Data, L.Size, L.Capacity, E))
//     report(L.Number, P.error()); // e.g. "not valid JSON: UNCLOSED_STRING"
// \endcode
//
// Every value of the line is read (unknown keys included), so a line is
// accepted only if it is one valid JSON object.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_EVENTPARSER_H
#define DFTRACER_READER_EVENTPARSER_H

#include "Event.h"

#include <memory>
#include <string>

namespace dftrace {

class EventParser {
public:
  EventParser();
  ~EventParser();
  EventParser(const EventParser &) = delete;
  EventParser &operator=(const EventParser &) = delete;

  /// Parses Data[0..Size); Capacity >= Size + 64 bytes must be readable.
  /// On failure returns false and error() says why.
  bool parse(const char *Data, size_t Size, size_t Capacity, Event &E);
  const std::string &error() const { return Error; }
  /// The simdjson kernel in use: "haswell", "westmere" or "fallback".
  const char *kernel() const;
  /// Off: every line through simdjson's DOM parser, none through
  /// PlainLineParser (tests compare the two).
  void usePlainParser(bool On) { Plain = On; }

private:
  bool parseDom(const char *Data, size_t Size, size_t Capacity, Event &E);

  struct Impl;
  std::unique_ptr<Impl> P;
  std::string Error;
  bool Plain = true;
};

/// The field of E that the args key Key fills, or nullptr for a key the
/// Event does not hold (the compact reader fills Events with the same map).
Field *eventArgField(Event &E, std::string_view Key);
/// The same for a top-level key ("id", "name", ...).
Field *eventTopLevelField(Event &E, std::string_view Key);

} // namespace dftrace

#endif
