//===- EventParser.cpp - Parse one .pfw line with simdjson ----------------===//
//
// The runtime's own lines go through PlainLineParser (one pass, no
// document); any other line through simdjson's DOM parser, one document
// per line. Debian's simdjson 3.0.1
// compiles its On-Demand front end only for the instruction set the
// compiler targets, which for a portable x86-64 build is its scalar
// "fallback" kernel; the DOM parser goes through libsimdjson's run-time CPU
// dispatch (AVX-512, AVX2 or SSE4.2 kernels). The DOM parser also validates
// the whole line, which the checker needs. docs/performance.md has the
// measured difference.
//
//===----------------------------------------------------------------------===//

#include "EventParser.h"

#include "EventKeys.h"
#include "PlainLineParser.h"

#include <simdjson.h>

#include <string>

namespace dftrace {

namespace dom = simdjson::dom;
using simdjson::error_code;

static_assert(simdjson::SIMDJSON_PADDING <= 64,
              "LineReader::Padding must cover simdjson's padding");

struct EventParser::Impl {
  dom::parser Parser;
};

EventParser::EventParser() : P(std::make_unique<Impl>()) {}
EventParser::~EventParser() = default;

const char *EventParser::kernel() const {
  static const std::string Name = simdjson::get_active_implementation()->name();
  return Name.c_str();
}

namespace {

Phase decodePhase(const Field &Ph) {
  if (Ph.isString() && Ph.S.size() == 1) {
    switch (Ph.S[0]) {
    case 'X': return Phase::Complete;
    case 'M': return Phase::Metadata;
    case 'C': return Phase::Counter;
    case 'A': return Phase::Aggregated;
    case 'B': return Phase::Begin;
    case 'E': return Phase::End;
    case 'i': case 'I': return Phase::Instant;
    default: return Phase::Unknown;
    }
  }
  if (Ph.isInteger()) { // upstream dev's TracePhaseType
    switch (Ph.I) {
    case 1: return Phase::Complete;
    case 2: return Phase::Counter;
    case 3: return Phase::Aggregated;
    case 4: return Phase::Metadata;
    default: return Phase::Unknown;
    }
  }
  return Ph.present() ? Phase::Unknown : Phase::None;
}

/// Upstream v2 and dev write hashes as 16 hex digits in a string; they
/// become the integer they spell, so a string in an event and the same
/// string in its FH line (or a number in both) still match.
void hexToUInt(Field &F) {
  if (!F.isString() || F.S.empty() || F.S.size() > 16)
    return;
  uint64_t V = 0;
  for (char C : F.S) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = C - '0';
    else if (C >= 'a' && C <= 'f')
      D = C - 'a' + 10;
    else if (C >= 'A' && C <= 'F')
      D = C - 'A' + 10;
    else
      return;
    V = V << 4 | D;
  }
  F.K = Field::UInt;
  F.U = V;
  F.I = V <= uint64_t(INT64_MAX) ? static_cast<int64_t>(V) : INT64_MAX;
  F.D = static_cast<double>(V);
}

bool isHashRecord(std::string_view Name) {
  return Name == "FH" || Name == "HH" || Name == "SH";
}

void readField(dom::element V, Field &Out) {
  switch (V.type()) {
  case dom::element_type::INT64:
    Out.K = Field::Int;
    Out.I = V.get_int64().value_unsafe();
    Out.U = Out.I >= 0 ? static_cast<uint64_t>(Out.I) : 0;
    Out.D = static_cast<double>(Out.I);
    break;
  case dom::element_type::UINT64:
    Out.K = Field::UInt;
    Out.U = V.get_uint64().value_unsafe();
    Out.I = INT64_MAX;
    Out.D = static_cast<double>(Out.U);
    break;
  case dom::element_type::DOUBLE:
    Out.K = Field::Double;
    Out.D = V.get_double().value_unsafe();
    Out.I = 0;
    Out.U = 0;
    break;
  case dom::element_type::STRING:
    Out.K = Field::String;
    Out.S = V.get_string().value_unsafe();
    break;
  default:
    Out.K = Field::Other;
    break;
  }
}

} // namespace

Field *eventArgField(Event &E, std::string_view Key) {
  return ArgKeys.field(E, Key);
}

Field *eventTopLevelField(Event &E, std::string_view Key) {
  return TopLevelKeys.field(E, Key);
}

bool EventParser::parse(const char *Data, size_t Size, size_t Capacity,
                        Event &E) {
  E.clear();
  if (!Plain || Capacity < Size + PlainLinePadding || !parsePlainLine(Data, Size, E)) {
    E.clear(); // what the plain reader filled before it gave up
    if (!parseDom(Data, Size, Capacity, E))
      return false;
  }
  E.Ph2 = decodePhase(E.Ph);
  if (E.FHash.isString())
    hexToUInt(E.FHash);
  if (E.DHash.isString())
    hexToUInt(E.DHash);
  if (E.ArgValue.isString() && E.Ph2 == Phase::Metadata && E.Name.isString() &&
      isHashRecord(E.Name.S))
    hexToUInt(E.ArgValue);
  return true;
}

bool EventParser::parseDom(const char *Data, size_t Size, size_t Capacity,
                           Event &E) {
  (void)Capacity; // simdjson reads at most SIMDJSON_PADDING bytes past Size
  dom::element Root;
  if (error_code Err =
          P->Parser.parse(Data, Size, /*realloc_if_needed=*/false).get(Root)) {
    Error = std::string("not valid JSON (") + simdjson::error_message(Err) +
            ")";
    return false;
  }
  dom::object Obj;
  if (Root.get_object().get(Obj)) {
    Error = "expected one JSON object per line";
    return false;
  }
  for (dom::key_value_pair KV : Obj) {
    if (KV.key == "args") {
      dom::object Args;
      if (KV.value.get_object().get(Args)) {
        E.ArgsKind = KV.value.is_string() ? Field::String : Field::Int;
        continue;
      }
      E.ArgsKind = Field::Other;
      for (dom::key_value_pair A : Args) {
        if (Field *Dst = ArgKeys.field(E, A.key)) {
          readField(A.value, *Dst);
        } else if (A.key == "cfg") { // upstream dev's "end": its settings
          dom::object Cfg;
          std::string_view Unit;
          if (!A.value.get_object().get(Cfg) &&
              !Cfg["time_metric"].get_string().get(Unit)) {
            E.TimeMetric.K = Field::String;
            E.TimeMetric.S = Unit;
          }
        }
      }
      continue;
    }
    if (Field *Dst = TopLevelKeys.field(E, KV.key))
      readField(KV.value, *Dst);
  }
  return true;
}

} // namespace dftrace
