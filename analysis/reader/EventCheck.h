//===- EventCheck.h - What a usable event must hold --------------*- C++ -*-===//
//
// The field rules of docs/trace-format.md, shared by dftracer-check (which
// reports every violation) and dftracer-analyze (which counts them by kind
// and skips the event):
//
// \code
//   {"id":1,"name":"main","cat":"C_APP","pid":7,"ts":1000,"dur":5,"ph":"X"}
//     -> {BadField, "\"tid\" is missing"}
//   {... "cat":"POSIX", ... "dur":-3 ...}
//     -> {NegativeTime, "negative \"dur\" (-3)"}
//   {... "ts":18446744073709551615 ...}
//     -> {BadField, "\"ts\" is out of range (... > 2^53 microseconds)"}
//   {... "cat":"GPU", ...}
//     -> {UnknownCategory, "unknown category \"GPU\" ..."} (still usable)
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_EVENTCHECK_H
#define DFTRACER_READER_EVENTCHECK_H

#include "Event.h"
#include "IoTaxonomy.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dftrace {

/// Kinds of problems, in the order reports list them.
enum class Issue : uint8_t {
  TruncatedLine,   // the last line of a file stops mid-object
  InvalidLine,     // not JSON, not an object, a line after "]", no "["
  BadField,        // a required field missing, of the wrong type, or ts or
                   // dur above MaxTimeUs
  NegativeTime,    // ts or dur < 0
  NegativeSize,    // an I/O size argument (count, size, bytes, length) < 0
  UnknownCategory, // a span whose "cat" is neither application nor I/O
  MissingFH,       // an fhash with no FH line in its process
  MissingParent,   // a p_idx naming a span that never appears
  BadStream,       // the file cannot be read, or its gzip stream is broken
  UnnestedSpan,    // a span overlaps one written before it on its thread
                   // without nesting: the thread is not in end order
};
constexpr size_t NumIssues = 10;

/// "truncated_line", "invalid_line", ... (the JSON report's keys).
const char *issueName(Issue I);

struct EventProblem {
  Issue Kind;
  std::string Message;
};

/// The largest ts or dur a usable event may have: 2^53 microseconds (285
/// years; the integers a double, and so JavaScript, holds exactly). Below
/// it, ts + dur and every difference of times fit in an int64_t.
constexpr uint64_t MaxTimeUs = uint64_t(1) << 53;

/// checkEvent for every event: finds and words each problem.
bool checkEventFully(const Event &E, std::vector<EventProblem> &Out);

/// Missing, or an integer >= 0: 1 or 0, as unsigned so that `&` of several
/// calls stays branchless without clang's -Wbitwise-instead-of-logical.
inline unsigned unsignedOrMissing(const Field &F) {
  return (F.K == Field::Missing) | (F.K == Field::UInt) |
         ((F.K == Field::Int) & (F.I >= 0));
}

/// A span's fields as the runtime writes them (integer id, pid, tid, ts,
/// dur in range, level and p_idx; string name and cat; an args object),
/// tested together, without a branch per field.
inline bool runtimeSpanFields(const Event &E) {
  // unsigned for the same reason as unsignedOrMissing.
  auto Int = [](const Field &F) -> unsigned { return F.K == Field::Int; };
  return Int(E.Id) & (E.Id.I >= 0) & (E.Name.K == Field::String) &
         (E.Cat.K == Field::String) & Int(E.Pid) & Int(E.Tid) & Int(E.Ts) &
         (static_cast<uint64_t>(E.Ts.I) <= MaxTimeUs) & Int(E.Dur) &
         (static_cast<uint64_t>(E.Dur.I) <= MaxTimeUs) &
         (E.ArgsKind == Field::Other) & Int(E.Level) & (E.Level.I >= 1) &
         Int(E.ParentIdx) & (E.ParentIdx.I >= -1);
}

/// A span as the runtime writes it with nothing to report: its fields as
/// above, a category of a known layer, and an I/O call's sizes and fhash
/// unsigned.
inline bool isCleanRuntimeSpan(const Event &E) {
  if (!(E.Ph2 == Phase::Complete && runtimeSpanFields(E)))
    return false;
  Layer L = layerOfCategory(E.Cat.S);
  if (L == Layer::App)
    return true;
  return isIoLayer(L) &&
         (unsignedOrMissing(E.Count) & unsignedOrMissing(E.Size) &
          unsignedOrMissing(E.Bytes) & unsignedOrMissing(E.Length) &
          unsignedOrMissing(E.FHash));
}

/// Checks E against the rules of its phase and appends what is wrong.
/// Returns false when the event cannot be used (unknown categories and
/// negative I/O sizes leave it usable). Inline for the runtime's clean
/// spans (every span passes here); the rest, and every problem, out of line.
inline bool checkEvent(const Event &E, std::vector<EventProblem> &Out) {
  return isCleanRuntimeSpan(E) || checkEventFully(E, Out);
}

/// Text of a number or string field, e.g. for error messages and the
/// value of "CM" metadata: "3", "-1", "1.5", "abc".
std::string fieldText(const Field &F);

/// ts or dur in whole microseconds (fractions rounded to nearest), for a
/// field checkEvent accepted (a number in [0, MaxTimeUs]).
int64_t microseconds(const Field &F);

} // namespace dftrace

#endif
