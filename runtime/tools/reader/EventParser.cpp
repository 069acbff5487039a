//===- EventParser.cpp - Parse one .pfw line with simdjson ----------------===//
//
// simdjson's DOM parser, one document per line. Debian's simdjson 3.0.1
// compiles its On-Demand front end only for the instruction set the
// compiler targets, which for a portable x86-64 build is its scalar
// "fallback" kernel; the DOM parser goes through libsimdjson's run-time CPU
// dispatch (AVX-512, AVX2 or SSE4.2 kernels). The DOM parser also validates
// the whole line, which the checker needs. docs/performance.md has the
// measured difference.
//
//===----------------------------------------------------------------------===//

#include "EventParser.h"

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

Field *topLevelField(Event &E, std::string_view Key) {
  switch (Key.size()) {
  case 2:
    if (Key == "id")
      return &E.Id;
    if (Key == "ts")
      return &E.Ts;
    if (Key == "ph")
      return &E.Ph;
    break;
  case 3:
    if (Key == "cat")
      return &E.Cat;
    if (Key == "pid")
      return &E.Pid;
    if (Key == "tid")
      return &E.Tid;
    if (Key == "dur")
      return &E.Dur;
    break;
  case 4:
    if (Key == "name")
      return &E.Name;
    break;
  }
  return nullptr;
}

Field *argField(Event &E, std::string_view Key) {
  switch (Key.size()) {
  case 2:
    if (Key == "fd")
      return &E.Fd;
    break;
  case 3:
    if (Key == "ret")
      return &E.Ret;
    break;
  case 4:
    if (Key == "name")
      return &E.ArgName;
    if (Key == "size")
      return &E.Size;
    break;
  case 5:
    if (Key == "level")
      return &E.Level;
    if (Key == "p_idx")
      return &E.ParentIdx;
    if (Key == "fhash")
      return &E.FHash;
    if (Key == "count")
      return &E.Count;
    if (Key == "bytes")
      return &E.Bytes;
    if (Key == "value")
      return &E.ArgValue;
    break;
  case 6:
    if (Key == "offset")
      return &E.Offset;
    if (Key == "length")
      return &E.Length;
    break;
  }
  return nullptr;
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

bool EventParser::parse(const char *Data, size_t Size, size_t Capacity,
                        Event &E) {
  E.clear();
  (void)Capacity; // parse() reads at most SIMDJSON_PADDING bytes past Size
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
      for (dom::key_value_pair A : Args)
        if (Field *Dst = argField(E, A.key))
          readField(A.value, *Dst);
      continue;
    }
    if (Field *Dst = topLevelField(E, KV.key))
      readField(KV.value, *Dst);
  }
  return true;
}

} // namespace dftrace
