//===- EventCheck.cpp - What a usable event must hold ---------------------===//

#include "EventCheck.h"

#include "IoTaxonomy.h"
#include "Upstream.h"

#include <cmath>
#include <cstdio>

namespace dftrace {

const char *issueName(Issue I) {
  static const char *Names[NumIssues] = {
      "truncated_line",   "invalid_line",     "bad_field",
      "negative_time",    "negative_size",    "unknown_category",
      "fhash_without_fh", "missing_parent",   "bad_stream",
      "unnested_span"};
  return Names[static_cast<size_t>(I)];
}

std::string fieldText(const Field &F) {
  switch (F.K) {
  case Field::Int:
    return std::to_string(F.I);
  case Field::UInt:
    return std::to_string(F.U);
  case Field::Double: {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", F.D);
    return Buf;
  }
  case Field::String:
    return std::string(F.S);
  default:
    return "";
  }
}

int64_t microseconds(const Field &F) {
  if (F.K == Field::Int)
    return F.I;
  if (F.K == Field::UInt)
    return static_cast<int64_t>(F.U);
  return static_cast<int64_t>(std::llround(F.D));
}

namespace {

class Checker {
public:
  explicit Checker(std::vector<EventProblem> &Out) : Out(Out) {}

  // The checks are inline and their failures out of line: every event
  // passes through here, and building the messages' strings in the same
  // functions kept them from inlining (6% of the analyzer's instructions).
  bool string(const Field &F, const char *Key) {
    return F.isString() || wrongType(F, Key, "a string");
  }
  bool integer(const Field &F, const char *Key) {
    return F.isInteger() || wrongType(F, Key, "an integer");
  }
  bool time(const Field &F, const char *Key) {
    if (F.isNumber() && !(F.D < 0) &&
        !(F.K == Field::Double ? F.D > static_cast<double>(MaxTimeUs)
                               : F.U > MaxTimeUs))
      return true;
    return badTime(F, Key);
  }
  [[gnu::noinline]] bool wrongType(const Field &F, const char *Key,
                                   const char *Expected) {
    fail(Issue::BadField, std::string("\"") + Key +
                              (F.present() ? std::string("\" is not ") + Expected
                                           : std::string("\" is missing")));
    return false;
  }
  [[gnu::noinline]] bool badTime(const Field &F, const char *Key) {
    if (!F.isNumber())
      return wrongType(F, Key, "a number");
    if (F.D < 0)
      fail(Issue::NegativeTime,
           std::string("negative \"") + Key + "\" (" + fieldText(F) + ")");
    else // past 2^53
      fail(Issue::BadField, std::string("\"") + Key + "\" is out of range (" +
                                fieldText(F) + " > 2^53 microseconds)");
    return false;
  }
  void fail(Issue Kind, std::string Message) {
    Out.push_back({Kind, std::move(Message)});
  }

private:
  std::vector<EventProblem> &Out;
};

/// The fields every span needs, each problem reported.
bool spanFields(const Event &E, Checker &C) {
  bool Ok = C.integer(E.Id, "id");
  Ok &= C.string(E.Name, "name");
  Ok &= C.string(E.Cat, "cat");
  Ok &= C.integer(E.Pid, "pid");
  Ok &= C.integer(E.Tid, "tid");
  Ok &= C.time(E.Ts, "ts");
  Ok &= C.time(E.Dur, "dur");
  if (E.Id.K == Field::Int && E.Id.I < 0) {
    C.fail(Issue::BadField, "negative \"id\"");
    Ok = false;
  }
  if (E.ArgsKind != Field::Missing && !E.argsIsObject()) {
    C.fail(Issue::BadField, "\"args\" is not an object");
    return false;
  }
  if (E.Level.present() && !(E.Level.isInteger() && E.Level.I >= 1)) {
    C.fail(Issue::BadField, "args.level must be an integer >= 1, not " +
                                fieldText(E.Level));
    Ok = false;
  }
  // -1: upstream's root (no enclosing span), as 0 is this runtime's.
  if (E.ParentIdx.present() && !E.ParentIdx.isUnsigned() &&
      !(E.ParentIdx.K == Field::Int && E.ParentIdx.I == -1)) {
    C.fail(Issue::BadField, "args.p_idx must be an integer >= -1, not " +
                                fieldText(E.ParentIdx));
    Ok = false;
  }
  return Ok;
}

bool checkSpan(const Event &E, Checker &C) {
  if (!runtimeSpanFields(E) && !spanFields(E, C))
    return false;
  if (E.isTracerSpan()) // upstream's "start" and "end"
    return true;
  Layer L = layerOf(E);
  if (L == Layer::Other)
    C.fail(Issue::UnknownCategory,
           "unknown category \"" + std::string(E.Cat.S) +
               "\" (expected C_APP, CPP_APP, PY_APP, POSIX, STDIO, MPIIO or "
               "HDF5)");
  if (isIoLayer(L) &&
      !(unsignedOrMissing(E.Count) & unsignedOrMissing(E.Size) &
        unsignedOrMissing(E.Bytes) & unsignedOrMissing(E.Length) &
        unsignedOrMissing(E.FHash))) {
    struct {
      const Field &F;
      const char *Key;
    } Sizes[] = {{E.Count, "count"},
                 {E.Size, "size"},
                 {E.Bytes, "bytes"},
                 {E.Length, "length"}};
    for (const auto &S : Sizes)
      if (S.F.present() && !S.F.isUnsigned())
        C.fail(Issue::NegativeSize, std::string("args.") + S.Key +
                                        " must be an integer >= 0, not " +
                                        fieldText(S.F));
    if (E.FHash.present() && !E.FHash.isUnsigned()) {
      C.fail(Issue::BadField, "args.fhash must be an unsigned integer, not " +
                                  fieldText(E.FHash));
      return false;
    }
  }
  return true;
}

bool checkMetadata(const Event &E, Checker &C) {
  bool Ok = C.string(E.Name, "name");
  Ok &= C.integer(E.Pid, "pid");
  if (!E.argsIsObject()) {
    C.fail(Issue::BadField, "metadata event needs an \"args\" object");
    return false;
  }
  if (!Ok)
    return false;
  if (E.Name.S == "CM" && (!E.ArgName.isString() || !E.ArgValue.present())) {
    C.fail(Issue::BadField,
           "\"CM\" metadata needs args.name (string) and args.value");
    return false;
  }
  if (E.Name.S == "FH" &&
      (!E.ArgName.isString() || !E.ArgValue.isUnsigned())) {
    C.fail(Issue::BadField, "\"FH\" metadata needs args.name (the path) and "
                            "args.value (its fhash, an unsigned integer)");
    return false;
  }
  return true;
}

/// Upstream's aggregated records: no id and no dur of their own.
bool checkAggregated(const Event &E, Checker &C) {
  bool Ok = C.string(E.Name, "name");
  Ok &= C.string(E.Cat, "cat");
  Ok &= C.integer(E.Pid, "pid");
  Ok &= C.time(E.Ts, "ts");
  if (E.Cnt.present() && !E.Cnt.isUnsigned()) {
    C.fail(Issue::BadField,
           "args.dft_cnt must be an integer >= 0, not " + fieldText(E.Cnt));
    Ok = false;
  }
  if (E.DurSum.present())
    Ok &= C.time(E.DurSum, "dur_sum");
  if (E.ArgDur.present())
    Ok &= C.time(E.ArgDur, "dur");
  return Ok;
}

} // namespace

bool checkEventFully(const Event &E, std::vector<EventProblem> &Out) {
  Checker C(Out);
  if (E.Ph2 == Phase::None) {
    C.fail(Issue::BadField, E.Ph.present()
                                ? "\"ph\" is neither a string nor an integer"
                                : "\"ph\" is missing");
    return false;
  }
  if (E.isAggregated())
    return checkAggregated(E, C);
  switch (E.Ph2) {
  case Phase::Complete:
    return checkSpan(E, C);
  case Phase::Metadata:
    return checkMetadata(E, C);
  case Phase::Begin:
  case Phase::End: {
    bool Ok = C.integer(E.Pid, "pid");
    Ok &= C.integer(E.Tid, "tid");
    Ok &= C.time(E.Ts, "ts");
    return Ok;
  }
  case Phase::Instant:
  case Phase::Counter: // a sample (upstream's telemetry): not analysed
    return true;
  default:
    C.fail(Issue::InvalidLine,
           "unsupported phase \"ph\":" +
               (E.Ph.isString() ? "\"" + std::string(E.Ph.S) + "\""
                                : fieldText(E.Ph)));
    return false;
  }
}

} // namespace dftrace
