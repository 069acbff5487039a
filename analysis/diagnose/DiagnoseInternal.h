//===- DiagnoseInternal.h - The diagnosis's shared machinery ----*- C++ -*-===//
//
// The pipeline of diagnose(): the Diagnoser runs the detector of every kind
// the rule file enables (the table in Diagnose.cpp, the one list of kinds:
// DiagnoseRules.cpp accepts exactly these). A detector sums the figures of
// its kind from the Report and then assembles its finding from the shared
// pieces below, so every kind states its evidence, support, cost, sites,
// files, caveats and advice the same way:
//
// \code
//   Finding F;
//   if (!Small || !atLeast(Rule, F, "small_call_share", Share, "min_share")
//       || !supported(Rule, F, Small, SmallBytes, SmallUs))
//     return;                             // evidence, support, how much
//   F.RecoverableUs = ...; F.Method = ...;
//   F.Sites = topSites(Keep, byTime);     // where
//   F.Summary = "..." + fromSite(F, "from");
//   add(Rule, std::move(F), {{"size", "4096"}}); // ranks, caveats, advice
// \endcode
//
// Detectors by concept: DiagnoseCalls.cpp (how calls are issued),
// DiagnoseAccess.cpp (where in the file they go), DiagnoseRanks.cpp (how
// ranks share the work); advice selection is DiagnoseAdvice.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_DIAGNOSEINTERNAL_H
#define DFTRACER_ANALYZE_DIAGNOSEINTERNAL_H

#include "Diagnose.h"

#include "analyze/FileAnalyzer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace dftanalyze {

/// Whether Kind is one the Diagnoser has a detector for.
bool isDiagnosisKind(const std::string &Kind);
/// Whether Key is a threshold Kind's detector reads (or a support minimum).
bool isDiagnosisParam(const std::string &Kind, const std::string &Key);
/// Kind's thresholds, space-separated, for the error that names them.
std::string diagnosisParams(const std::string &Kind);

namespace diagnosis {

using dftrace::Layer;
using dftrace::Op;

/// A rule without the parameter never fires (the default of a threshold
/// the rule file must set).
constexpr double Never = 1e18;

/// A call site of the merged Aggregate (A.Diag.Sites).
struct SiteRef {
  const std::string *Function, *Chain;
  const SiteStat *S;
  Layer L() const { return static_cast<Layer>(S->Layer); }
  Op O() const { return static_cast<Op>(S->Op); }
  Layer Top() const { return static_cast<Layer>(S->TopLayer); }
};

inline std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), F, V);
  return Buf;
}
/// Fraction as a percentage with one decimal, or, within 0.05 % of 0 or
/// of 100 %, with the decimals the first two digits of that distance need
/// (0.012%, 99.988%), so that a share that is not zero is never printed as
/// 0.0% and one that is not all as 100.0%.
inline std::string pct(double Fraction) {
  double V = 100 * Fraction;
  bool NearAll = V >= 99.95 && V < 100;
  double Gap = NearAll ? 100 - V : V;
  if (!(V > 0) || (Gap >= 0.05 && !NearAll))
    return fmt("%.1f%%", V);
  if (Gap < 1e-6)
    return NearAll ? "> 99.999999%" : "< 0.000001%";
  int Decimals = 1 + static_cast<int>(std::ceil(-std::log10(Gap)));
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f%%", std::min(Decimals, 7), V);
  return Buf;
}
inline std::string secs(uint64_t Us) { return fmt("%.6f", Us / 1e6); }
inline double ratio(double A, double B) { return B > 0 ? A / B : 0; }
inline uint64_t usOf(double Seconds) {
  return Seconds <= 0 ? 0 : static_cast<uint64_t>(std::llround(Seconds * 1e6));
}

// Site weights for topSites.
inline uint64_t byTime(const SiteRef &S) { return S.S->C.TimeUs; }
inline uint64_t byBytes(const SiteRef &S) { return S.S->C.Bytes; }
inline uint64_t byOps(const SiteRef &S) { return S.S->C.Ops; }
/// The time of a site's calls beyond one per process (its mean call's time
/// times those calls): metadata_heavy's sites, so one slow call outside the
/// loop (MPI's start-up opening "/", a call the scheduler preempted) does
/// not rank above the function that reopens a file 400 times.
inline uint64_t byRepeatedTime(const SiteRef &S) {
  const SiteCounts &C = S.S->C;
  if (C.Ops <= S.S->Processes)
    return 0;
  return static_cast<uint64_t>(double(C.TimeUs) *
                               double(C.Ops - S.S->Processes) / double(C.Ops));
}

/// Data calls of some sites and the small ones among them (under
/// small_bytes): small_requests, small_hdf5_access.
struct SmallCalls {
  uint64_t Ops = 0, Small = 0, SmallUs = 0, SmallBytes = 0;
  void add(const SiteCounts &C) {
    Ops += C.Ops - C.Failed;
    Small += C.SmallOps;
    SmallUs += C.SmallTimeUs;
    SmallBytes += C.SmallBytes;
  }
  /// The small calls' mean size, rounded to the nearest byte (68.8 B was
  /// printed 68 when this was an integer division).
  uint64_t meanBytes() const {
    return Small ? (SmallBytes + Small / 2) / Small : 0;
  }
};

/// F's figures: the calls, bytes and time the finding is about.
inline void cost(Finding &F, uint64_t Ops, uint64_t Bytes, uint64_t TimeUs) {
  F.Ops = Ops;
  F.Bytes = Bytes;
  F.TimeUs = TimeUs;
}

/// No seconds recoverable, and why they are not estimated.
inline void notEstimated(Finding &F, const std::string &Why) {
  F.RecoverableUs = 0;
  F.Method = "not estimated: " + Why;
}

/// Us of calls that moved Bytes, minus the same bytes at the bandwidth
/// RefBytes / RefUs other calls of the run reached (0 when not slower).
inline uint64_t beyondBandwidth(uint64_t Us, uint64_t Bytes, uint64_t RefBytes,
                                uint64_t RefUs) {
  double Bw = double(RefBytes) / double(RefUs); // bytes per us
  return usOf((double(Us) - double(Bytes) / Bw) / 1e6);
}

/// What merging Ops small calls of Bytes into calls of Unit bytes saves,
/// the per-call cost kept; After: the calls they become.
inline uint64_t mergedSaving(uint64_t Ops, uint64_t Bytes, uint64_t Us,
                             uint64_t Unit, double &After) {
  After = std::ceil(double(Bytes) / double(Unit));
  return usOf(Us / 1e6 * (1.0 - std::min(1.0, After / Ops)));
}

/// ", Lead FUNCTION (CHAIN)" of F's heaviest site, "" without one.
inline std::string fromSite(const Finding &F, const char *Lead,
                            bool WithChain = true) {
  if (F.Sites.empty())
    return "";
  std::string S = std::string(", ") + Lead + " " + F.Sites[0].Function;
  if (WithChain)
    S += " (" + F.Sites[0].Chain + ")";
  return S;
}

/// One job's files (issue 36): Aggregate::JobFiles of one program (the
/// label Report gives its ranks), so that cache_bound and
/// redundant_traffic judge each job on its own.
struct JobView {
  std::string Program; // RankFigures::Program: "" when one program
  std::map<std::string, JobFileStat> Files; // by path
};

class Diagnoser {
public:
  Diagnoser(const Report &R, const DiagnosisRules &Rules);
  std::vector<Finding> run();
  /// MPI's own shared-memory segments (not the program's files; the
  /// comparison leaves them out too).
  static bool mpiSharedMemory(const std::string &Path);

  // ---- the kinds (docs/diagnosis.md); the table is in Diagnose.cpp ------
  void smallRequests(const DiagnosisRule &Rule);
  void metadataHeavy(const DiagnosisRule &Rule);
  void syncPerWrite(const DiagnosisRule &Rule);
  void rankImbalance(const DiagnosisRule &Rule);
  void singleRankIo(const DiagnosisRule &Rule);
  void independentMpiio(const DiagnosisRule &Rule);
  void smallHdf5(const DiagnosisRule &Rule);
  void stdioBulk(const DiagnosisRule &Rule);
  void manyFiles(const DiagnosisRule &Rule);
  void failedCalls(const DiagnosisRule &Rule);
  void misaligned(const DiagnosisRule &Rule);
  void hdf5Unaligned(const DiagnosisRule &Rule);
  void randomAccess(const DiagnosisRule &Rule);
  void redundant(const DiagnosisRule &Rule);
  void cacheBound(const DiagnosisRule &Rule);

private:
  void phaseImbalance(const DiagnosisRule &Rule, const std::string &NamedTag,
                      const std::string &NamedFunction);

  // ---- jobs' ranks (issue 36; CallSites.h) ---------------------------------
  /// The jobTag of RF's job, as the facts' keys and site ranks hold it.
  std::string tagOf(const RankFigures &RF) const;
  /// jobHash of each of R.Ranks' jobs, by index (tagOf's). A job key is
  /// made only where a rank's job can differ from the previous rank's:
  /// R.Ranks is in program order, so about once per job (issue 41).
  std::vector<uint64_t> RankJobs;
  /// R.Ranks' indices by a hash of the rank (processRank), then in rank
  /// order: a site's rank ("TAG:RANK") is found without a "TAG:RANK"
  /// string and two map entries made per rank (issue 41).
  std::vector<std::pair<size_t, uint32_t>> ByRank;
  /// The rank of R.Ranks that a site's rank ("TAG:RANK", siteRank) names,
  /// the first in rank order; null when no process has it.
  const RankFigures *siteRankOf(std::string_view SiteRank) const;
  /// The report's label ("reader#2:0", "0" with one job) of rank Rank of
  /// job Tag; Rank itself when no process has it.
  std::string rankLabel(const std::string &Tag, const std::string &Rank) const;

  // ---- evidence and support (Diagnose.cpp) --------------------------------
  /// Value >= the rule's Param (Default when the rule has none); when it
  /// holds, it is F's proof under the name Evidence.
  static bool atLeast(const DiagnosisRule &Rule, Finding &F,
                      const char *Evidence, double Value, const char *Param,
                      double Default = Never);
  /// Value < the rule's Param (Default when the rule has none), likewise.
  static bool below(const DiagnosisRule &Rule, Finding &F, const char *Evidence,
                    double Value, const char *Param, double Default = 0);
  /// F's figures (what it is about: cost()) when they reach the rule's
  /// support minima; false (no finding) when one is below its minimum.
  static bool supported(const DiagnosisRule &Rule, Finding &F, uint64_t Ops,
                        uint64_t Bytes, uint64_t TimeUs);

  // ---- where (Diagnose.cpp) -----------------------------------------------
  bool atBottom(const SiteRef &S) const;
  /// Sites matching Keep, heaviest first by Weight (then name), at most 8;
  /// SmallOnly: their small calls' figures.
  std::vector<FindingSite>
  topSites(const std::function<bool(const SiteRef &)> &Keep,
           const std::function<uint64_t(const SiteRef &)> &Weight,
           bool SmallOnly = false) const;
  /// Bottom-layer data sites, heaviest first: who issued the calls the
  /// access figures (per file, not per site) describe; with Job, its own.
  std::vector<FindingSite> dataSites(const JobView *Job = nullptr) const;
  /// Whether a process of Job issued calls at S: always, with one job;
  /// else when one of the ranks S keeps (its first MaxSiteRanks) is Job's.
  bool siteOfJob(const SiteRef &S, const JobView &Job) const;
  std::vector<std::string> siteRanks(const Finding &F) const;
  static bool rankLess(const std::string &X, const std::string &Y);
  std::string fsType(const std::string &Path) const;
  FindingFile file(const FileFigures &F) const;
  /// F lists FF while it has fewer than Max files.
  void listFile(Finding &F, const FileFigures &FF, size_t Max = 5) const;
  /// F lists Path (when the trace has it) while it has fewer than Max.
  void listFile(Finding &F, const std::string &Path, size_t Max = 5) const;
  std::vector<FindingFile> busiestFiles(size_t N) const;
  /// The jobs of the trace set, by program label; one job of A.Files when
  /// the aggregate has no JobFiles (one built by hand).
  std::vector<JobView> jobs() const;
  /// The labels of Job's processes that used the files of F (rank order).
  std::vector<std::string> jobRanks(const JobView &Job, const Finding &F) const;
  /// Files sorted by a figure, the heaviest 5 with a non-zero one. Weight
  /// is given R.FilesByTime's own entries (a figure kept by index serves).
  void
  accessFiles(Finding &Out,
              const std::function<uint64_t(const FileFigures &)> &Weight) const;

  // ---- what to change (DiagnoseAdvice.cpp) --------------------------------
  void advise(const DiagnosisRule &Rule, Finding &F,
              std::map<std::string, std::string> Vars);
  std::string recordedHint(const Finding &F, const std::string &Name) const;
  /// Does the trace show Setting ("KEY=VALUE", a DFTRACER_TUNE setting) in
  /// effect on every one of F's files that recorded its key (HDF5_FILE,
  /// MPIIO_HINTS, the H5Dwrite/H5Dread "xfer"; Rules.TuneKeys)? False when
  /// no file recorded it.
  bool inEffect(const Finding &F, const std::string &Setting) const;
  static std::string mostCommon(const std::map<std::string, uint64_t> &Counts,
                                const std::string &None);

  /// F of Rule's kind, with its ranks, the trace's caveats and its advice.
  void add(const DiagnosisRule &Rule, Finding F,
           std::map<std::string, std::string> Vars = {});

  const Report &R;
  const Aggregate &A;
  const DiagnosisRules &Rules;
  unsigned Bottom = 0;
  std::vector<SiteRef> Sites; // by (function, chain)
  bool MpiIo = false, Hdf5 = false;
  std::vector<std::string> Caveats; // the trace's (Caveats.h), on every finding
  std::vector<Finding> Out;
};

} // namespace diagnosis
} // namespace dftanalyze

#endif
