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
  if (N == "FS")
    return RecordKind::FileSystem;
  if (N == "MPIIO_HINTS")
    return RecordKind::MpiioHints;
  if (N == "HDF5_FILE")
    return RecordKind::Hdf5File;
  if (N == "HDF5_DSET")
    return RecordKind::Hdf5Dataset;
  if (N == "NODE")
    return RecordKind::Node;
  if (N == "CONFIG")
    return RecordKind::Config;
  if (N == "VERSION")
    return RecordKind::Version;
  if (N == "MPI_JOB")
    return RecordKind::MpiJob;
  if (N == "tuning")
    return RecordKind::Tuning;
  if (N == "trace_end")
    return RecordKind::TraceEnd;
  if (N == "coverage")
    return RecordKind::Coverage;
  if (N == "open_at_exit")
    return RecordKind::OpenAtExit;
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
  case RecordKind::FileSystem:
    return "FS";
  case RecordKind::MpiioHints:
    return "MPIIO_HINTS";
  case RecordKind::Hdf5File:
    return "HDF5_FILE";
  case RecordKind::Hdf5Dataset:
    return "HDF5_DSET";
  case RecordKind::Node:
    return "NODE";
  case RecordKind::Config:
    return "CONFIG";
  case RecordKind::Version:
    return "VERSION";
  case RecordKind::MpiJob:
    return "MPI_JOB";
  case RecordKind::Tuning:
    return "tuning";
  case RecordKind::TraceEnd:
    return "trace_end";
  case RecordKind::Coverage:
    return "coverage";
  case RecordKind::OpenAtExit:
    return "open_at_exit";
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

  /// A hash: an integer >= 0, or a hex string (upstream's shape).
  bool hashKey(const char *Key, uint64_t &Out) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return fail(Key, "is missing");
    if (V.is_uint64()) {
      Out = V.get_uint64().value_unsafe();
      return true;
    }
    std::string_view S;
    if (!V.get_string().get(S) && !S.empty() && S.size() <= 16) {
      uint64_t H = 0;
      for (char C : S) {
        int D = C >= '0' && C <= '9'   ? C - '0'
                : C >= 'a' && C <= 'f' ? C - 'a' + 10
                : C >= 'A' && C <= 'F' ? C - 'A' + 10
                                       : -1;
        if (D < 0)
          return fail(Key, "is not a hash");
        H = H << 4 | static_cast<uint64_t>(D);
      }
      Out = H;
      return true;
    }
    return fail(Key, "is not a hash");
  }
  /// An array of strings; absent is an empty list unless Required.
  bool stringList(const char *Key, std::vector<std::string> &Out,
                  bool Required) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return !Required || fail(Key, "is missing");
    dom::array A;
    if (V.get_array().get(A))
      return fail(Key, "is not an array");
    for (dom::element E : A) {
      std::string_view S;
      if (E.get_string().get(S))
        return fail(Key, "holds a value that is not a string");
      Out.emplace_back(S);
    }
    return true;
  }
  /// An object of strings, in its order; absent is empty.
  bool stringMap(const char *Key, Props &Out) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return true;
    dom::object M;
    if (V.get_object().get(M))
      return fail(Key, "is not an object");
    for (auto [K, Value] : M) {
      std::string_view S;
      if (Value.get_string().get(S))
        return fail(Key, "holds a value that is not a string");
      Out.emplace_back(std::string(K), std::string(S));
    }
    return true;
  }
  bool has(const char *Key) {
    dom::element V;
    return !O.at_key(Key).get(V);
  }

  /// An array of integers >= 0; absent is an empty list.
  bool unsignedList(const char *Key, std::vector<uint64_t> &Out) {
    dom::element V;
    if (O.at_key(Key).get(V))
      return true;
    dom::array A;
    if (V.get_array().get(A))
      return fail(Key, "is not an array");
    for (dom::element E : A) {
      if (!E.is_uint64())
        return fail(Key, "holds a value that is not an integer >= 0");
      Out.push_back(E.get_uint64().value_unsafe());
    }
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
    T.Time.clear();
    return A.stringKey("function", T.Function) &&
           A.stringKey("fcat", T.FCat) && A.unsignedKey("calls", T.Calls) &&
           A.unsignedKey("dur", T.DurUs) &&
           A.unsignedKey("bytes", T.Bytes, /*Required=*/false) &&
           A.stringKey("reason", T.Reason) &&
           A.stringKey("time", T.Time, /*Required=*/false);
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
  case RecordKind::FileSystem: {
    FsRecord &F = Out.Fs;
    return A.hashKey("fhash", F.FHash) && A.stringKey("fs_type", F.Type) &&
           A.stringKey("mount", F.Mount, false) &&
           A.stringKey("magic", F.Magic, false) &&
           A.unsignedKey("block_size", F.BlockSize, false) &&
           A.unsignedKey("stripe_size", F.StripeSize, false) &&
           A.unsignedKey("stripe_count", F.StripeCount, false);
  }
  case RecordKind::MpiioHints: {
    HintsRecord &H = Out.Hints;
    H.HasCommSize = Args["comm_size"].error() == simdjson::SUCCESS;
    H.HasAmode = Args["amode"].error() == simdjson::SUCCESS;
    if (!A.hashKey("fhash", H.FHash) ||
        !A.unsignedKey("comm_size", H.CommSize, false) ||
        !A.unsignedKey("amode", H.Amode, false))
      return false;
    dom::object Hints;
    if (Args["hints"].get_object().get(Hints)) {
      Error = Where + "args.\"hints\" is not an object";
      return false;
    }
    for (auto [Key, Value] : Hints) {
      std::string_view V;
      if (Value.get_string().get(V)) {
        Error = Where + "args.hints.\"" + std::string(Key) +
                "\" is not a string";
        return false;
      }
      H.Hints.emplace_back(std::string(Key), std::string(V));
    }
    return true;
  }
  case RecordKind::Hdf5File: {
    Hdf5FileRecord &H = Out.Hdf5File;
    if (!A.hashKey("fhash", H.FHash))
      return false;
    for (auto [Key, Value] : Args) {
      if (Key == "fhash")
        continue;
      std::string_view V;
      if (Value.is_uint64())
        H.Properties.emplace_back(
            std::string(Key), std::to_string(Value.get_uint64().value_unsafe()));
      else if (!Value.get_string().get(V))
        H.Properties.emplace_back(std::string(Key), std::string(V));
      else {
        Error = Where + "args.\"" + std::string(Key) +
                "\" is neither an integer >= 0 nor a string";
        return false;
      }
    }
    return true;
  }
  case RecordKind::Hdf5Dataset: {
    Hdf5DsetRecord &D = Out.Hdf5Dset;
    return A.hashKey("fhash", D.FHash) && A.hashKey("dhash", D.DHash) &&
           A.stringKey("dset", D.Dset) && A.stringKey("layout", D.Layout, false) &&
           A.unsignedList("chunk", D.Chunk) && A.unsignedList("dims", D.Dims) &&
           A.unsignedKey("type_size", D.TypeSize, false) &&
           A.stringKey("fill_time", D.FillTime, false);
  }
  case RecordKind::Node: {
    NodeRecord &N = Out.Node;
    return A.stringKey("hostname", N.Hostname) &&
           A.unsignedKey("mem_total", N.MemTotal, false) &&
           A.unsignedKey("cpus", N.Cpus, false);
  }
  case RecordKind::Config: {
    ConfigRecord &C = Out.Config;
    return A.stringKey("exe", C.Exe) && A.stringList("argv", C.Argv, true) &&
           A.unsignedKey("argv_dropped", C.ArgvDropped, false) &&
           A.stringKey("cwd", C.Cwd, false) && A.stringMap("env", C.Env) &&
           A.unsignedKey("env_dropped", C.EnvDropped, false) &&
           A.stringKey("glibc", C.Glibc, false) &&
           A.stringKey("launch", C.Launch, false);
  }
  case RecordKind::Version: {
    VersionRecord &V = Out.Version;
    return A.stringKey("library", V.Library) &&
           A.stringKey("version", V.Version);
  }
  case RecordKind::MpiJob: {
    MpiJobRecord &J = Out.MpiJob;
    return A.unsignedKey("rank", J.Rank) && A.unsignedKey("size", J.Size);
  }
  case RecordKind::Tuning: {
    TuningRecord &T = Out.Tuning;
    T.HasFHash = A.has("fhash");
    return (!T.HasFHash || A.hashKey("fhash", T.FHash)) &&
           A.stringKey("setting", T.Setting, false) &&
           A.stringKey("key", T.Key) &&
           A.stringKey("requested", T.Requested, false) &&
           A.stringKey("op", T.Op, false) &&
           A.stringKey("source", T.Source, false) &&
           A.stringKey("before", T.Before, false) &&
           A.stringKey("effect", T.Effect, false) &&
           A.stringKey("status", T.Status) &&
           A.stringKey("reason", T.Reason, false);
  }
  case RecordKind::TraceEnd: {
    uint64_t Ts = 0;
    bool HasTs = A.has("ts");
    Out.EndTsUs = -1;
    if (!A.unsignedKey("ts", Ts, false))
      return false;
    if (HasTs && Ts <= (uint64_t(1) << 53))
      Out.EndTsUs = static_cast<int64_t>(Ts);
    return true;
  }
  case RecordKind::OpenAtExit: {
    OpenAtExitRecord &O = Out.OpenAtExit;
    uint64_t Tid = 0, Ts = 0;
    bool HasTs = A.has("ts");
    if (!A.unsignedKey("tid", Tid) || !A.unsignedKey("span_id", O.SpanId) ||
        !A.stringKey("span", O.Span) ||
        !A.stringKey("span_cat", O.Cat, false) ||
        !A.unsignedKey("level", O.Level, false) ||
        !A.unsignedKey("ts", Ts, false))
      return false;
    O.Tid = static_cast<int64_t>(Tid);
    O.TsUs = HasTs && Ts <= (uint64_t(1) << 53) ? static_cast<int64_t>(Ts) : -1;
    return true;
  }
  case RecordKind::Coverage: {
    // Only program and sources are required: a record from a newer build
    // integration with more keys, or fewer counts, still reads.
    CoverageRecord &C = Out.Coverage;
    dom::element T;
    if (!Args["truncated"].get(T))
      C.Truncated = T.is_bool() && T.get_bool().value_unsafe();
    if (!A.stringKey("program", C.Program) ||
        !A.unsignedKey("sources", C.Sources) ||
        !A.unsignedKey("annotated", C.Annotated, false) ||
        !A.unsignedKey("failed", C.Failed, false) ||
        !A.unsignedKey("excluded", C.Excluded, false))
      return false;
    dom::element Files;
    if (Args["files"].get(Files))
      return true;
    dom::array List;
    if (Files.get_array().get(List)) {
      Error = Where + "args.\"files\" is not an array";
      return false;
    }
    size_t I = 0;
    for (dom::element F : List) {
      dom::object O;
      std::string At = Where + "files[" + std::to_string(I++) + "].";
      if (F.get_object().get(O)) {
        Error = At + " is not an object";
        return false;
      }
      Keys Fk(O, At, Error);
      CoverageFileRecord R;
      if (!Fk.stringKey("file", R.File) ||
          !Fk.stringKey("status", R.Status, false) ||
          !Fk.stringKey("reason", R.Reason, false))
        return false;
      C.Files.push_back(std::move(R));
    }
    return true;
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
