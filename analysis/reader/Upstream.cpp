//===- Upstream.cpp - What upstream DFTracer's traces mean ----------------===//

#include "Upstream.h"

#include <algorithm>
#include <limits>

namespace dftrace {

TimeUnit parseTimeUnit(std::string_view T) {
  std::string U(T);
  for (char &C : U)
    C = static_cast<char>(C >= 'a' && C <= 'z' ? C - 'a' + 'A' : C);
  if (U == "US")
    return TimeUnit::Us;
  if (U == "NS")
    return TimeUnit::Ns;
  if (U == "MS")
    return TimeUnit::Ms;
  if (U == "SEC" || U == "S")
    return TimeUnit::Sec;
  return TimeUnit::Unknown;
}

const char *timeUnitName(TimeUnit U) {
  switch (U) {
  case TimeUnit::Ns:
    return "NS";
  case TimeUnit::Ms:
    return "MS";
  case TimeUnit::Sec:
    return "SEC";
  default:
    return "US";
  }
}

namespace {

/// F * Mul / Div, kept an integer when it is one.
void scale(Field &F, uint64_t Mul, uint64_t Div) {
  if (!F.isNumber())
    return;
  double D = F.D * static_cast<double>(Mul) / static_cast<double>(Div);
  if (F.isUnsigned() && F.U % Div == 0 &&
      F.U / Div <= std::numeric_limits<uint64_t>::max() / Mul) {
    uint64_t V = F.U / Div * Mul;
    F.K = V <= uint64_t(INT64_MAX) ? Field::Int : Field::UInt;
    F.U = V;
    F.I = V <= uint64_t(INT64_MAX) ? static_cast<int64_t>(V) : INT64_MAX;
    F.D = static_cast<double>(V);
    return;
  }
  F.K = Field::Double;
  F.D = D;
  F.I = 0;
  F.U = 0;
}

uint64_t unsignedOr(const Field &F, uint64_t Otherwise) {
  return F.isUnsigned() ? F.U : Otherwise;
}

/// The sum of a field over an aggregate's calls: "<f>_sum", or the plain
/// value (one call, or one value for all of them) times the calls.
uint64_t total(const Field &Sum, const Field &Plain, uint64_t Calls) {
  if (Sum.isNumber())
    return Sum.D > 0 ? static_cast<uint64_t>(Sum.D + 0.5) : 0;
  if (Plain.isNumber() && Plain.D > 0)
    return static_cast<uint64_t>(Plain.D + 0.5) * Calls;
  return 0;
}

} // namespace

void rescaleTimes(Event &E, TimeUnit Unit) {
  uint64_t Mul = 1, Div = 1;
  switch (Unit) {
  case TimeUnit::Ns:
    Div = 1000;
    break;
  case TimeUnit::Ms:
    Mul = 1000;
    break;
  case TimeUnit::Sec:
    Mul = 1000000;
    break;
  default:
    return;
  }
  for (Field *F : {&E.Ts, &E.Dur, &E.ArgDur, &E.DurSum})
    scale(*F, Mul, Div);
}

Layer layerOf(const Event &E) {
  Layer L = layerOfCategory(E.Cat.isString() ? E.Cat.S : std::string_view());
  if (L != Layer::Other || !E.Type.isInteger())
    return L;
  switch (E.Type.I) {
  case 2: // C_APP
  case 6: // PYTHON
  case 8: // FINSTRUMENT
  case 9: // CPP_APP
    return Layer::App;
  case 5:
    return Layer::Hdf5;
  default:
    return Layer::Other;
  }
}

AggregatedCalls aggregatedOf(Layer L, const Event &E) {
  AggregatedCalls A;
  A.Calls = unsignedOr(E.Cnt, 1);
  A.DurUs = total(E.DurSum, E.ArgDur.present() ? E.ArgDur : E.Dur, A.Calls);
  A.Io.L = L;
  if (!isIoLayer(L))
    return A;
  A.Io.O = opOf(L, E.Name.S);
  if (!isDataOp(A.Io.O))
    return A;
  switch (L) {
  case Layer::Posix:
    A.Io.Bytes = total(E.RetSum, E.Ret, A.Calls);
    break;
  case Layer::Stdio:
    // Items times the element size, when every call had the same size.
    if (E.Size.isUnsigned())
      A.Io.Bytes = total(E.RetSum, E.Ret, A.Calls) * E.Size.U;
    break;
  default:
    A.Io.Bytes = total(E.BytesSum, E.Bytes, A.Calls);
    break;
  }
  return A;
}

UpstreamFacts::PidFacts &UpstreamFacts::pid(int64_t Pid) {
  if (Last && LastPid == Pid)
    return *Last;
  LastPid = Pid;
  Last = &Pids[Pid]; // unordered_map: the reference stays valid
  return *Last;
}

void UpstreamFacts::observe(const Event &E, uint64_t Line) {
  if (E.Pid.isInteger()) {
    PidFacts &P = pid(E.Pid.I);
    if (E.isComplete() && E.isTracerSpan() && E.Name.isString() &&
        E.Name.S == "end") {
      ++P.Ends;
      if (E.NumEvents.isUnsigned()) {
        P.NumEvents = E.NumEvents.U;
        P.HasNumEvents = true;
        P.EndLine = Line;
      }
    } else if (E.Id.present() &&
               !(E.isMetadata() && E.Name.isString() && E.Name.S == "CM")) {
      ++P.Counted; // upstream's index counts every event but CM
    }
  }
  if (E.TimeMetric.isString())
    Recorded = parseTimeUnit(E.TimeMetric.S);
}

void UpstreamFacts::usable(const Event &E, uint64_t Line) {
  if (E.isComplete() && E.ArgsKind == Field::Missing && !E.isTracerSpan()) {
    ++SpansWithoutArgs;
    if (isIoLayer(layerOf(E)) && !IoWithoutArgs++)
      FirstIoWithoutArgs = Line;
  }
  if (E.isAggregated())
    ++Aggregated;
}

std::vector<std::string> UpstreamFacts::caveats(TimeUnit Used,
                                                bool UnitGiven) const {
  std::vector<std::string> Out;
  if (NoHeader && IndentedFirst)
    Out.push_back(
        "no \"[\" on line 1, whose event is indented by two spaces: upstream "
        "v1 writes \"[\" over those spaces when it finishes, so this process "
        "never finished (killed, or still running) and its last spans may "
        "be missing");
  if (Concatenations)
    Out.push_back("the file holds " + std::to_string(Concatenations + 1) +
                  " traces one after another (\"]\" then \"[\"): "
                  "concatenated without dftracer_merge; all are read");
  std::vector<int64_t> Order;
  for (const auto &Entry : Pids)
    Order.push_back(Entry.first);
  std::sort(Order.begin(), Order.end());
  for (int64_t Pid : Order) {
    const PidFacts &P = Pids.at(Pid);
    if (P.Ends > 1) {
      Out.push_back("pid " + std::to_string(Pid) + " has " +
                    std::to_string(P.Ends) +
                    " \"end\" spans: the file merges processes that share "
                    "the pid (from different hosts?), so its num_events "
                    "cannot be checked");
      continue;
    }
    if (P.HasNumEvents && P.NumEvents != P.Counted)
      Out.push_back(
          "pid " + std::to_string(Pid) + ": \"end\" (line " +
          std::to_string(P.EndLine) + ") says num_events " +
          std::to_string(P.NumEvents) + " but the file holds " +
          std::to_string(P.Counted) +
          " events of that pid: " +
          (P.Counted < P.NumEvents
               ? "the file is truncated, or spans were still open when the "
                 "tracer finished (they are never written)"
               : "the file merges more than one process under this pid"));
  }
  if (IoWithoutArgs)
    Out.push_back(
        std::to_string(IoWithoutArgs) + " I/O calls (the first on line " +
        std::to_string(FirstIoWithoutArgs) +
        ") have no args, as upstream writes them without "
        "DFTRACER_INC_METADATA=1: the trace does not say their bytes, files "
        "or results, so their bytes count as 0");
  if (Aggregated)
    Out.push_back(
        std::to_string(Aggregated) +
        " aggregated records (upstream's DFTRACER_ENABLE_AGGREGATION): their "
        "calls, time and bytes are in the layer and function tables, but "
        "they have no place in a call stack or on the time axis, so their "
        "I/O is (no function)'s and is not in union time");
  if (Used != TimeUnit::Us && Used != TimeUnit::Unknown)
    Out.push_back(std::string("times are in ") + timeUnitName(Used) + " (" +
                  (Recorded != TimeUnit::Unknown
                       ? "the trace's time_metric"
                       : UnitGiven ? "--time-unit" : "?") +
                  "), read as microseconds");
  if (UnitGiven && Recorded != TimeUnit::Unknown && Recorded != Used)
    Out.push_back(std::string("--time-unit was overridden by the trace's "
                              "own time_metric ") +
                  timeUnitName(Recorded));
  return Out;
}

} // namespace dftrace
