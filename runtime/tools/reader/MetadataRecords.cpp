//===- MetadataRecords.cpp - The runtime's end-of-run records -------------===//

#include "MetadataRecords.h"

#include <simdjson.h>

namespace dftrace {

namespace dom = simdjson::dom;

RecordKind recordKind(const Event &E) {
  if (!E.isMetadata() || !E.Name.isString())
    return RecordKind::None;
  std::string_view N = E.Name.S;
  if (N == "untraced")
    return RecordKind::Untraced;
  if (N == "throttled")
    return RecordKind::Throttled;
  if (N == "trace_stopped")
    return RecordKind::TraceStopped;
  if (N == "layer_bypassed")
    return RecordKind::LayerBypassed;
  return RecordKind::None;
}

struct RecordDecoder::Impl {
  dom::parser Parser;
};

RecordDecoder::RecordDecoder() : P(std::make_unique<Impl>()) {}
RecordDecoder::~RecordDecoder() = default;

namespace {

const char *recordName(RecordKind K) {
  switch (K) {
  case RecordKind::Untraced:
    return "untraced";
  case RecordKind::Throttled:
    return "throttled";
  case RecordKind::TraceStopped:
    return "trace_stopped";
  case RecordKind::LayerBypassed:
    return "layer_bypassed";
  default:
    return "?";
  }
}

/// Reads the keys of one object, naming the first that is wrong.
class Keys {
public:
  Keys(dom::object O, std::string Where, std::string &Error)
      : O(O), Where(std::move(Where)), Error(Error) {}

  bool unsignedKey(const char *Key, uint64_t &Out, bool Required = true) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return !Required || fail(Key, "is missing");
    if (V.is_uint64()) {
      Out = V.get_uint64().value_unsafe();
      return true;
    }
    return fail(Key, "is not an integer >= 0");
  }
  bool stringKey(const char *Key, std::string &Out, bool Required = true) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return !Required || fail(Key, "is missing");
    std::string_view S;
    if (V.get_string().get(S))
      return fail(Key, "is not a string");
    Out = std::string(S);
    return true;
  }

private:
  bool fail(const char *Key, const char *What) {
    Error = Where + "\"" + Key + "\" " + What;
    return false;
  }
  dom::object O;
  std::string Where;
  std::string &Error;
};

} // namespace

bool RecordDecoder::decode(RecordKind K, std::string_view Line,
                           MetadataRecord &Out) {
  Out = MetadataRecord();
  Out.Kind = K;
  std::string Where = std::string("\"") + recordName(K) + "\" record: ";
  simdjson::padded_string Text(Line);
  dom::element Root;
  dom::object Args;
  if (P->Parser.parse(Text).get(Root) || Root["args"].get_object().get(Args)) {
    Error = Where + "\"args\" is not an object";
    return false;
  }
  Keys A(Args, Where + "args.", Error);
  switch (K) {
  case RecordKind::Untraced: {
    dom::array Dirs;
    if (Args["dirs"].get_array().get(Dirs)) {
      Error = Where + "args.\"dirs\" is not an array";
      return false;
    }
    size_t I = 0;
    for (dom::element D : Dirs) {
      dom::object O;
      std::string At = Where + "dirs[" + std::to_string(I++) + "].";
      if (D.get_object().get(O)) {
        Error = At + " is not an object";
        return false;
      }
      Keys Dk(O, At, Error);
      UntracedDir U;
      if (!Dk.stringKey("dir", U.Dir) || !Dk.unsignedKey("opens", U.Opens) ||
          !Dk.unsignedKey("reads", U.Reads) ||
          !Dk.unsignedKey("writes", U.Writes) ||
          !Dk.unsignedKey("bytes_read", U.BytesRead) ||
          !Dk.unsignedKey("bytes_written", U.BytesWritten))
        return false;
      Out.Dirs.push_back(std::move(U));
    }
    return true;
  }
  case RecordKind::Throttled: {
    ThrottledRecord &T = Out.Throttled;
    return A.stringKey("function", T.Function) &&
           A.stringKey("fcat", T.FCat) && A.unsignedKey("calls", T.Calls) &&
           A.unsignedKey("dur", T.DurUs) &&
           A.unsignedKey("bytes", T.Bytes, /*Required=*/false) &&
           A.stringKey("reason", T.Reason);
  }
  case RecordKind::TraceStopped: {
    StoppedRecord &S = Out.Stopped;
    uint64_t Ts = 0;
    bool HasTs = Args["ts"].error() == simdjson::SUCCESS;
    bool Ok = A.stringKey("reason", S.Reason) &&
              A.stringKey("error", S.Error, false) &&
              A.unsignedKey("limit", S.Limit, false) &&
              A.unsignedKey("written", S.Written, false) &&
              A.unsignedKey("ts", Ts, false);
    if (Ok && HasTs)
      S.TsUs = Ts > (uint64_t(1) << 53) ? -1 : static_cast<int64_t>(Ts);
    return Ok;
  }
  case RecordKind::LayerBypassed: {
    BypassedRecord &B = Out.Bypassed;
    return A.stringKey("layer", B.Layer) && A.stringKey("symbol", B.Symbol) &&
           A.stringKey("library", B.Library, false) &&
           A.stringKey("fix", B.Fix, false);
  }
  default:
    Error = "not a record";
    return false;
  }
}

bool RecordDecoder::commSize(std::string_view Line, uint64_t &Out) {
  simdjson::padded_string Text(Line);
  dom::element Root;
  uint64_t V = 0;
  if (P->Parser.parse(Text).get(Root) ||
      Root["args"]["comm_size"].get_uint64().get(V))
    return false;
  Out = V;
  return true;
}

} // namespace dftrace
