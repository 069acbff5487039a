//===- Caveats.cpp - What the figures of a report do not hold -------------===//

#include "Caveats.h"

#include "Configuration.h"

#include <algorithm>

namespace dftanalyze {

std::vector<std::string> traceCaveats(const Report &R) {
  // Settings that never took effect come first: a tuner must see them
  // before any figure (issue 35).
  std::vector<std::string> Caveats = tuningCaveats(R);
  if (!R.Throttled.empty())
    Caveats.push_back(std::to_string(R.Throttled.size()) +
                      " functions or calls throttled (records \"throttled\"):"
                      " their spans are counted, not placed");
  if (R.UntracedCalls)
    Caveats.push_back(std::to_string(R.UntracedCalls) + " calls (" +
                      std::to_string(R.UntracedBytes) +
                      " B) left untraced by the data-dir filter");
  size_t Unfinished = static_cast<size_t>(
      std::count_if(R.Stopped.begin(), R.Stopped.end(),
                    [](const StopFigures &F) {
                      return F.S->Reason == "unfinished";
                    }));
  if (Unfinished)
    Caveats.push_back(std::to_string(Unfinished) +
                      " processes' traces end without finishing (no "
                      "trace_end: killed?): their I/O after the last event is "
                      "missing, figures are lower bounds");
  if (R.Stopped.size() > Unfinished)
    Caveats.push_back(std::to_string(R.Stopped.size() - Unfinished) +
                      " processes stopped tracing early (trace_stopped): "
                      "figures are lower bounds");
  for (const BypassFigures &B : R.Bypassed)
    Caveats.push_back(B.B->Layer + " calls bypass the tracer (" + B.B->Symbol +
                      ") in " + std::to_string(B.Ranks.size()) +
                      " processes (layer_bypassed)");
  // Ranks missing: numeric ranks 0..max with gaps.
  std::vector<uint64_t> Numbers;
  for (const RankFigures &RF : R.Ranks) {
    const std::string &L = RF.P->Rank;
    if (!L.empty() && L.size() < 10 &&
        L.find_first_not_of("0123456789") == std::string::npos)
      Numbers.push_back(std::stoull(L));
  }
  std::sort(Numbers.begin(), Numbers.end());
  Numbers.erase(std::unique(Numbers.begin(), Numbers.end()), Numbers.end());
  if (!Numbers.empty() && Numbers.back() + 1 > Numbers.size())
    Caveats.push_back(std::to_string(Numbers.back() + 1 - Numbers.size()) +
                      " of ranks 0-" + std::to_string(Numbers.back()) +
                      " have no trace");
  if (uint64_t N = R.A.issueTotal())
    Caveats.push_back(std::to_string(N) +
                      " problems in the input (truncated or invalid lines, "
                      "missing parents): see the issues");
  return Caveats;
}

std::vector<std::string> reportCaveats(const Report &R, size_t Top) {
  std::vector<std::string> Caveats = traceCaveats(R);
  for (const LayerFigures &F : R.Layers)
    if (F.S->Throttled.Ops)
      Caveats.push_back(std::string(dftrace::layerName(F.L)) + ": " +
                        std::to_string(F.S->Throttled.Ops) +
                        " of the ops are throttled records (counted by the "
                        "runtime, not in the trace: no union time, file or "
                        "rank)");
  // Every estimate comes from a throttle record ("time":"sampled"): the
  // function tables' ~ times are these records' functions.
  size_t Sampled = 0;
  for (const ThrottleFigures &T : R.Throttled)
    Sampled += T.S->SampledTime != 0;
  if (Sampled)
    Caveats.push_back("~: the time of " + std::to_string(Sampled) +
                      " functions or calls includes throttled calls' sampled "
                      "estimate (1 call in DFTRACER_THROTTLE_SAMPLE timed); "
                      "their calls are exact");
  const Aggregate &A = R.A;
  for (size_t I = 0; I < A.Caveats.size(); ++I) {
    if (I == Top) {
      Caveats.push_back("... " + std::to_string(A.Caveats.size() - Top) +
                        " more caveats of trace files (--json lists them)");
      break;
    }
    Caveats.push_back(A.FileNames[A.Caveats[I].FileIndex] + ": " +
                      A.Caveats[I].Message);
  }
  return Caveats;
}

} // namespace dftanalyze
