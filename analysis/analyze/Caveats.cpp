//===- Caveats.cpp - What the figures of a report do not hold -------------===//

#include "Caveats.h"

#include "Configuration.h"
#include "FileAnalyzer.h"

#include <algorithm>
#include <map>
#include <set>

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
  for (std::string &C : coverageCaveats(R))
    Caveats.push_back(std::move(C));
  if (std::string H = functionNamesHint(R); !H.empty())
    Caveats.push_back(std::move(H));
  if (std::string M = sharedMemoryCaveat(R); !M.empty())
    Caveats.push_back(std::move(M));
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

namespace {

/// How a caveat names a source: its file name, or its path when another
/// source the record lists has the same file name.
std::vector<std::string> sourceNames(const CoverageStat &C) {
  auto Base = [](const std::string &P) {
    size_t Slash = P.find_last_of('/');
    return Slash == std::string::npos ? P : P.substr(Slash + 1);
  };
  std::map<std::string, size_t> Seen;
  for (const CoverageSource &F : C.Files)
    ++Seen[Base(F.File)];
  std::vector<std::string> Names;
  for (const CoverageSource &F : C.Files)
    Names.push_back(Seen[Base(F.File)] > 1 ? F.File : Base(F.File));
  return Names;
}

/// "6 of 12 sources of vpic": what a program's caveats start with.
std::string notAnnotatedText(const ProgramCoverage &G) {
  return std::to_string(G.notAnnotated()) + " of " +
         std::to_string(G.C->Sources) + " sources of " +
         (G.C->Program.empty() ? std::string("the program") : G.C->Program);
}

/// "a.c, b.c, c.c, ...": the first Max sources' names.
std::string sourceList(const ProgramCoverage &G, size_t Max) {
  std::vector<std::string> Names = sourceNames(*G.C);
  std::string S;
  for (size_t I = 0; I < Names.size() && I < Max; ++I)
    S += (I ? ", " : "") + Names[I];
  if (Names.size() > Max || G.notAnnotated() > Names.size())
    S += S.empty() ? "..." : ", ...";
  return S;
}

} // namespace

std::vector<std::string> coverageCaveats(const Report &R) {
  std::vector<std::string> Out;
  for (const ProgramCoverage &G : programCoverage(R)) {
    if (!G.notAnnotated())
      continue;
    const CoverageStat &C = *G.C;
    std::vector<std::string> Names = sourceNames(C);
    std::string List;
    for (size_t I = 0; I < C.Files.size() && I < CoverageListed; ++I) {
      const CoverageSource &F = C.Files[I];
      List += (I ? "; " : "") + Names[I] + ": " +
              (F.Reason.empty() ? F.Status : F.Reason);
    }
    uint64_t More = G.notAnnotated() - std::min<uint64_t>(C.Files.size(),
                                                          CoverageListed);
    if (More)
      List += (List.empty() ? "" : "; ") + std::string("... ") +
              std::to_string(More) + " more, --json lists " +
              (C.Truncated || C.Files.size() < G.notAnnotated()
                   ? "the " + std::to_string(C.Files.size()) +
                         " the record holds"
                   : std::string("them"));
    Out.push_back(notAnnotatedText(G) + " were not annotated" +
                  (List.empty() ? "" : " (" + List + ")") +
                  ": calls in them are attributed to their annotated callers");
  }
  return Out;
}

std::string functionNamesHint(const Report &R) {
  const Aggregate &A = R.A;
  if (!A.Io.Once.Ops)
    return "";
  for (const auto &[Name, F] : A.Functions)
    if (Name != NoFunction)
      return ""; // some code is annotated
  for (const ProcessStat &P : A.Processes)
    if (P.Config.Coverage.Has)
      return ""; // built through the integration: coverageCaveats say why
  return "no function names: the trace has I/O calls but no annotated "
         "function (the program ran under LD_PRELOAD alone), so every call "
         "is (no function)'s; to see which functions issue them, build the "
         "program through annotate-cc or CMake's annotate_target and run it "
         "again (docs/integration.md)";
}

std::vector<std::string>
coverageSiteCaveats(const Report &R, const std::vector<std::string> &Functions,
                    const std::vector<std::string> &Ranks) {
  std::vector<std::string> Out;
  std::set<std::string> Of(Ranks.begin(), Ranks.end());
  for (const ProgramCoverage &G : programCoverage(R)) {
    if (!G.notAnnotated())
      continue;
    bool Applies = Of.empty();
    for (const std::string &Label : G.Ranks)
      Applies |= Of.count(Label) != 0;
    if (!Applies)
      continue;
    bool NoFn = false;
    std::vector<std::string> Annotated; // distinct, in the sites' order
    for (const std::string &F : Functions) {
      if (F == NoFunction)
        NoFn = true;
      else if (std::find(Annotated.begin(), Annotated.end(), F) ==
               Annotated.end())
        Annotated.push_back(F);
    }
    std::string Where =
        "the " + std::to_string(G.notAnnotated()) + " sources of " +
        (G.C->Program.empty() ? std::string("the program") : G.C->Program) +
        " that were not annotated (" + sourceList(G, 3) + ")";
    if (NoFn)
      Out.push_back(std::string(NoFunction) +
                    ": these calls have no annotated caller: they are made "
                    "in " + Where +
                    " or outside every annotated function (a library, "
                    "start-up, exit)");
    if (!Annotated.empty()) {
      std::string Names;
      for (size_t I = 0; I < Annotated.size() && I < 3; ++I)
        Names += (I ? ", " : "") + Annotated[I];
      if (Annotated.size() > 3)
        Names += ", ...";
      Out.push_back(Names + ": the I/O attributed to " +
                    (Annotated.size() == 1 ? "it" : "them") +
                    " may be made by functions " +
                    (Annotated.size() == 1 ? "it calls" : "they call") +
                    " in " + Where +
                    ": calls in those count as their annotated caller's");
    }
  }
  return Out;
}

bool mpiSharedMemory(const std::string &Path) {
  static const char *const Prefixes[] = {
      "/dev/shm/mpich_shar_tmp", "/dev/shm/ucx_shm_posix_",
      "/dev/shm/vader_segment.", "/dev/shm/sm_segment."};
  for (const char *P : Prefixes)
    if (Path.rfind(P, 0) == 0)
      return true;
  return false;
}

bool mpiSharedMemoryChain(const std::string &Chain) {
  std::string_view C(Chain), S(MpiSharedMemoryCall);
  return C.size() >= S.size() && C.substr(C.size() - S.size()) == S;
}

SharedMemoryFigures sharedMemoryFigures(const Report &R) {
  SharedMemoryFigures M;
  for (const FileFigures &F : R.FilesByTime) {
    if (!mpiSharedMemory(F.Path))
      continue;
    if (!M.Files++ || F.Path < M.First)
      M.First = F.Path;
    for (size_t L = 0; L < NumIoLayers; ++L)
      M.Layers[L].merge(F.S->Layers[L]);
  }
  return M;
}

std::string sharedMemoryCaveat(const Report &R) {
  SharedMemoryFigures M = sharedMemoryFigures(R);
  if (!M.Files)
    return "";
  std::string Layers;
  for (size_t L = 0; L < NumIoLayers; ++L) {
    const IoTotals &T = M.Layers[L];
    if (!T.Ops)
      continue;
    Layers += (Layers.empty() ? "" : "; ") +
              std::string(dftrace::layerName(ioLayer(L))) + " " +
              std::to_string(T.Ops) + " calls, " +
              std::to_string(T.BytesWritten) + " B written, " +
              std::to_string(T.BytesRead) + " B read";
  }
  return std::to_string(M.Files) + (M.Files == 1 ? " file is" : " files are") +
         " MPI's own shared memory (" + M.First +
         (M.Files > 1 ? ", ..." : "") +
         "), its transport between ranks, not the program's data: " + Layers +
         " of the layer totals (kept in them; the findings leave these files "
         "out)";
}

} // namespace dftanalyze
