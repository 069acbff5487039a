//===- Diagnose.cpp - The kinds, their evidence, sites and files ----------===//
//
// The table of kinds (the one list: adding a kind is its detector and one
// entry here) and what every detector shares: the threshold and support
// tests that make a finding, the sites and files it names, and what it
// carries from the trace (ranks, caveats). A kind returns no finding unless
// its evidence crosses the rule's thresholds and the support (min_ops,
// min_bytes, min_seconds) is reached; thresholds and texts are the rule
// file's, what is computed is in the detectors and docs/diagnosis.md.
//
//===----------------------------------------------------------------------===//

#include "DiagnoseInternal.h"

#include "analyze/Caveats.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <set>
#include <tuple>

namespace dftanalyze {

namespace diagnosis {

namespace {

using Detector = void (Diagnoser::*)(const DiagnosisRule &);

/// Every kind, its detector and the thresholds it reads (besides the
/// support minima every kind has: min_ops, min_bytes, min_seconds), in the
/// order they run (the findings are sorted after). The rules loader refuses
/// any other key, so a typo is an error, never a threshold read as 0.
struct KindEntry {
  const char *Name;
  Detector Run;
  const char *Params; // space-separated
};
const KindEntry Kinds[] = {
    {"small_requests", &Diagnoser::smallRequests, "min_share"},
    {"metadata_heavy", &Diagnoser::metadataHeavy, "min_share min_repeats"},
    {"sync_per_write", &Diagnoser::syncPerWrite, "min_ratio"},
    {"rank_imbalance", &Diagnoser::rankImbalance, "min_ratio min_ranks"},
    {"single_rank_io", &Diagnoser::singleRankIo, "min_share"},
    {"independent_mpiio", &Diagnoser::independentMpiio, "min_share"},
    {"small_hdf5_access", &Diagnoser::smallHdf5, "min_share"},
    {"stdio_bulk", &Diagnoser::stdioBulk, "min_share"},
    {"many_files", &Diagnoser::manyFiles, "min_files min_share"},
    {"failed_calls", &Diagnoser::failedCalls, "min_share"},
    {"misaligned_requests", &Diagnoser::misaligned,
     "min_share judge_assumed"},
    {"hdf5_unaligned", &Diagnoser::hdf5Unaligned, "min_share"},
    {"random_access", &Diagnoser::randomAccess, "min_share"},
    {"redundant_traffic", &Diagnoser::redundant, "min_share"},
    {"cache_bound", &Diagnoser::cacheBound, "max_memory_share"},
};

/// A process's rank as processRank() gives it, in Buf when made ("pid N"):
/// looked up per process, without a string per process.
std::string_view rankText(const ProcessStat &P, char (&Buf)[32]) {
  if (!P.Rank.empty())
    return P.Rank;
  std::memcpy(Buf, "pid ", 4);
  char *End = std::to_chars(Buf + 4, Buf + sizeof(Buf), P.Pid).ptr;
  return {Buf, static_cast<size_t>(End - Buf)};
}

size_t rankHash(std::string_view Rank) {
  return std::hash<std::string_view>{}(Rank);
}

} // namespace

Diagnoser::Diagnoser(const Report &R, const DiagnosisRules &Rules)
    : R(R), A(R.A), Rules(Rules) {
  Bottom = bottomLayers(A.Io.Layers);
  for (const auto &[Key, S] : A.Diag.Sites)
    if (!dftanalyze::mpiSharedMemoryChain(Key.second)) // MPI's, as its files
      Sites.push_back({&Key.first, &Key.second, &S});
  MpiIo = A.Layers[static_cast<size_t>(Layer::MpiIo)].Totals.Ops != 0;
  Hdf5 = A.Layers[static_cast<size_t>(Layer::Hdf5)].Totals.Ops != 0;
  Caveats = traceCaveats(R);
  RankJobs.reserve(R.Ranks.size());
  ByRank.reserve(R.Ranks.size());
  const ProcessStat *Last = nullptr;
  std::string Program; // sameJobKey's: the last rank's trace file's program
  uint64_t Job = 0;
  char Buf[32];
  for (const RankFigures &RF : R.Ranks) {
    const ProcessStat &P = *RF.P;
    if (!sameJobKey(Last, P, A.FileNames, Program))
      Job = jobHash(jobKey(P, A.FileNames));
    Last = &P;
    RankJobs.push_back(Job);
    ByRank.push_back(
        {rankHash(rankText(P, Buf)), static_cast<uint32_t>(ByRank.size())});
  }
  std::sort(ByRank.begin(), ByRank.end());
}

std::string Diagnoser::tagOf(const RankFigures &RF) const {
  // RF is one of R.Ranks (every caller's is): its job's hash, computed once
  // by the constructor.
  return jobTagOf(RankJobs[static_cast<size_t>(&RF - R.Ranks.data())]);
}

const RankFigures *Diagnoser::siteRankOf(std::string_view SiteRank) const {
  // "TAG:RANK", TAG the 16 lowercase hex digits of jobTagOf: any other
  // text names no process (as a lookup of siteRank's strings found none).
  size_t Colon = SiteRank.find(':');
  uint64_t Job;
  if (Colon == std::string_view::npos ||
      !jobHashOfTag(SiteRank.substr(0, Colon), Job))
    return nullptr;
  std::string_view Rank = SiteRank.substr(Colon + 1);
  size_t H = rankHash(Rank);
  char Buf[32];
  for (auto It = std::lower_bound(ByRank.begin(), ByRank.end(),
                                  std::make_pair(H, uint32_t(0)));
       It != ByRank.end() && It->first == H; ++It) {
    const RankFigures &RF = R.Ranks[It->second];
    if (RankJobs[It->second] == Job && rankText(*RF.P, Buf) == Rank)
      return &RF;
  }
  return nullptr;
}

std::string Diagnoser::rankLabel(const std::string &Tag,
                                 const std::string &Rank) const {
  const RankFigures *RF = siteRankOf(siteRank(Tag, Rank));
  return RF ? RF->Label : Rank;
}

std::vector<Finding> Diagnoser::run() {
  for (const KindEntry &K : Kinds) {
    auto It = Rules.Rules.find(K.Name);
    if (It != Rules.Rules.end())
      (this->*K.Run)(It->second);
  }
  std::stable_sort(Out.begin(), Out.end(),
                   [](const Finding &X, const Finding &Y) {
                     return std::tie(Y.RecoverableUs, X.Kind, X.Summary) <
                            std::tie(X.RecoverableUs, Y.Kind, Y.Summary);
                   });
  return std::move(Out);
}

bool Diagnoser::atLeast(const DiagnosisRule &Rule, Finding &F,
                        const char *Evidence, double Value, const char *Param,
                        double Default) {
  double Threshold = Rule.param(Param, Default);
  if (Value < Threshold)
    return false;
  F.Proof.push_back({Evidence, Value, ">=", Threshold});
  return true;
}

bool Diagnoser::below(const DiagnosisRule &Rule, Finding &F,
                      const char *Evidence, double Value, const char *Param,
                      double Default) {
  double Threshold = Rule.param(Param, Default);
  if (Value >= Threshold)
    return false;
  F.Proof.push_back({Evidence, Value, "<", Threshold});
  return true;
}

bool Diagnoser::supported(const DiagnosisRule &Rule, Finding &F, uint64_t Ops,
                          uint64_t Bytes, uint64_t TimeUs) {
  struct Min {
    const char *Name;
    double Value;
  };
  const Min Mins[] = {{"min_ops", static_cast<double>(Ops)},
                      {"min_bytes", static_cast<double>(Bytes)},
                      {"min_seconds", TimeUs / 1e6}};
  for (const Min &M : Mins) {
    auto It = Rule.Params.find(M.Name);
    if (It == Rule.Params.end())
      continue;
    if (M.Value < It->second)
      return false;
    F.Support.push_back(
        {std::string(M.Name).substr(4), M.Value, ">=", It->second});
  }
  cost(F, Ops, Bytes, TimeUs);
  return true;
}

bool Diagnoser::atBottom(const SiteRef &S) const {
  Layer L = S.L();
  return dftrace::isIoLayer(L) && (Bottom >> ioSlot(L) & 1u);
}

std::vector<FindingSite>
Diagnoser::topSites(const std::function<bool(const SiteRef &)> &Keep,
                    const std::function<uint64_t(const SiteRef &)> &Weight,
                    bool SmallOnly) const {
  std::vector<const SiteRef *> Picked;
  for (const SiteRef &S : Sites)
    if (Keep(S))
      Picked.push_back(&S);
  std::stable_sort(Picked.begin(), Picked.end(),
                   [&](const SiteRef *X, const SiteRef *Y) {
                     return Weight(*X) > Weight(*Y);
                   });
  std::vector<FindingSite> Out;
  for (const SiteRef *S : Picked) {
    if (Out.size() == 8)
      break;
    const SiteCounts &C = S->S->C;
    if (SmallOnly)
      Out.push_back(
          {*S->Function, *S->Chain, C.SmallOps, C.SmallBytes, C.SmallTimeUs});
    else
      Out.push_back({*S->Function, *S->Chain, C.Ops, C.Bytes, C.TimeUs});
  }
  return Out;
}

bool Diagnoser::siteOfJob(const SiteRef &S, const JobView &Job) const {
  if (Job.Program.empty())
    return true;
  for (const std::string &Rank : S.S->Ranks) {
    const RankFigures *RF = siteRankOf(Rank);
    if (RF && RF->Program == Job.Program)
      return true;
  }
  return false;
}

std::vector<FindingSite> Diagnoser::dataSites(const JobView *Job) const {
  return topSites(
      [&](const SiteRef &S) {
        return atBottom(S) && dftrace::isDataOp(S.O()) &&
               (!Job || siteOfJob(S, *Job));
      },
      byTime);
}

/// Ranks of the sites of F (the sites' rank lists, merged and sorted).
std::vector<std::string> Diagnoser::siteRanks(const Finding &F) const {
  std::vector<std::string> Ranks;
  for (const FindingSite &FS : F.Sites) {
    auto It = A.Diag.Sites.find({FS.Function, FS.Chain});
    if (It != A.Diag.Sites.end())
      for (const std::string &Rank : It->second.Ranks) {
        const RankFigures *RF = siteRankOf(Rank);
        Ranks.push_back(RF ? RF->Label : Rank);
      }
  }
  std::sort(Ranks.begin(), Ranks.end(), rankLess);
  Ranks.erase(std::unique(Ranks.begin(), Ranks.end()), Ranks.end());
  return Ranks;
}

bool Diagnoser::rankLess(const std::string &X, const std::string &Y) {
  bool XN =
      !X.empty() && X.find_first_not_of("0123456789") == std::string::npos;
  bool YN =
      !Y.empty() && Y.find_first_not_of("0123456789") == std::string::npos;
  if (XN && YN && X.size() != Y.size())
    return X.size() < Y.size();
  if (XN != YN)
    return XN;
  return X < Y;
}

/// The FS record's type (docs/trace-format.md), "unknown" without one.
std::string Diagnoser::fsType(const std::string &Path) const {
  auto It = A.Files.find(Path);
  if (It == A.Files.end() || It->second.Fs.Type.empty())
    return "unknown";
  return It->second.Fs.Type;
}

/// The files where sites of the finding's functions did I/O are not
/// known per site; the files given are the ones the rule looked at.
FindingFile Diagnoser::file(const FileFigures &F) const {
  return {F.Path, fsType(F.Path), F.Reached.Ops, F.Reached.bytes(),
          F.Reached.TimeUs};
}

void Diagnoser::listFile(Finding &F, const FileFigures &FF, size_t Max) const {
  if (F.Files.size() < Max)
    F.Files.push_back(file(FF));
}

void Diagnoser::listFile(Finding &F, const std::string &Path,
                         size_t Max) const {
  auto It = A.Files.find(Path);
  if (It != A.Files.end() && F.Files.size() < Max)
    F.Files.push_back({Path, fsType(Path), It->second.reached().Ops,
                       It->second.reached().bytes(),
                       It->second.reached().TimeUs});
}

/// MPI's shared-memory segments are not the program's files: MPICH's
/// /dev/shm/mpich_shar_tmpXXXXXX (seen in every mpiexec -n 2 trace here),
/// UCX's /dev/shm/ucx_shm_posix_<hex> (MPICH's ch4:ucx transport, opened
/// with shm_open: in the traces since descriptors the runtime did not open
/// are classified, issue 37), Open MPI's vader_segment.* (4.x) and
/// sm_segment.* (5.x). Their names differ from run to run. Any other file
/// under /dev/shm is the program's: data staged in memory counts.
bool Diagnoser::mpiSharedMemory(const std::string &Path) {
  return dftanalyze::mpiSharedMemory(Path); // Caveats.h: the reports mark them
}

/// The N files that moved data with the most I/O time; the others (MPI's
/// shared-memory segments, paths only stat'ed) only when none did. The
/// data-calls findings use these: listing /dev/shm/mpich_shar_tmp* made
/// the advice say "the files are on tmpfs" for IOR's data on ext4, and
/// "/" (stat'ed by IOR) was listed as a file of its small requests.
std::vector<FindingFile> Diagnoser::busiestFiles(size_t N) const {
  std::vector<FindingFile> Out;
  for (bool Data : {true, false})
    for (const FileFigures &F : R.FilesByTime) {
      if (Out.size() == N || (!Data && !Out.empty()))
        return Out;
      bool Moved = (F.Reached.BytesRead || F.Reached.BytesWritten) &&
                   !mpiSharedMemory(F.Path);
      if (Moved == Data)
        Out.push_back(file(F));
    }
  return Out;
}

std::vector<JobView> Diagnoser::jobs() const {
  std::map<std::string, JobView> ByProgram;
  if (A.JobFiles.empty()) {
    JobView &J = ByProgram[""];
    for (const auto &[Path, FS] : A.Files)
      J.Files[Path].add(FS);
  } else {
    // jobHash -> the label of its first rank: the hashes the constructor
    // made, not a job key per rank (issue 41); the hash names the job as
    // the facts' tags do.
    std::map<uint64_t, const std::string *> Program;
    for (size_t I = 0; I < R.Ranks.size(); ++I)
      if (I == 0 || RankJobs[I] != RankJobs[I - 1])
        Program.emplace(RankJobs[I], &R.Ranks[I].Program);
    const std::string *LastKey = nullptr;
    uint64_t Job = 0;
    for (const auto &[Key, J] : A.JobFiles) {
      if (!LastKey || Key.first != *LastKey) // by job, then path
        Job = jobHash(Key.first);
      LastKey = &Key.first;
      auto It = Program.find(Job);
      std::string Label = It == Program.end() ? "" : *It->second;
      JobView &V = ByProgram[Label];
      V.Program = Label;
      V.Files[Key.second].merge(J);
    }
  }
  std::vector<JobView> Out;
  for (auto &[Label, V] : ByProgram)
    Out.push_back(std::move(V));
  return Out;
}

std::vector<std::string> Diagnoser::jobRanks(const JobView &Job,
                                             const Finding &F) const {
  std::map<std::pair<uint32_t, int64_t>, size_t> Of; // into R.Ranks
  for (size_t I = 0; I < R.Ranks.size(); ++I)
    if (R.Ranks[I].Program == Job.Program)
      Of[{R.Ranks[I].P->FileIndex, R.Ranks[I].P->Pid}] = I;
  std::vector<size_t> Index; // into R.Ranks, which is in rank order
  for (const FindingFile &FF : F.Files) {
    auto It = A.Files.find(FF.Path);
    if (It == A.Files.end())
      continue;
    for (const FileRank &FR : It->second.Ranks) {
      auto RI = Of.find({FR.FileIndex, FR.Pid});
      if (RI != Of.end())
        Index.push_back(RI->second);
    }
  }
  std::sort(Index.begin(), Index.end());
  Index.erase(std::unique(Index.begin(), Index.end()), Index.end());
  std::vector<std::string> Ranks;
  for (size_t I : Index)
    if (Ranks.size() < MaxSiteRanks)
      Ranks.push_back(R.Ranks[I].Label);
  return Ranks;
}

void Diagnoser::accessFiles(
    Finding &Out,
    const std::function<uint64_t(const FileFigures &)> &Weight) const {
  std::vector<std::pair<uint64_t, const FileFigures *>> Fs;
  for (const FileFigures &FF : R.FilesByTime)
    if (uint64_t W = Weight(FF))
      Fs.push_back({W, &FF});
  std::stable_sort(Fs.begin(), Fs.end(), [](const auto &X, const auto &Y) {
    return X.first > Y.first;
  });
  for (const auto &[W, FF] : Fs)
    listFile(Out, *FF);
}

void Diagnoser::add(const DiagnosisRule &Rule, Finding F,
                    std::map<std::string, std::string> Vars) {
  F.Kind = Rule.Kind;
  if (F.Ranks.empty())
    F.Ranks = siteRanks(F);
  F.Caveats.insert(F.Caveats.end(), Caveats.begin(), Caveats.end());
  std::set<std::string> Said; // a function has several sites (write, read)
  for (const FindingSite &S : F.Sites) {
    auto T = A.Functions.find(S.Function);
    if (T != A.Functions.end() && T->second.ThrottledCalls &&
        Said.insert(S.Function).second)
      F.Caveats.push_back(
          S.Function + ": " + std::to_string(T->second.ThrottledCalls) +
          " calls throttled (" + reasonsText(T->second.ThrottleReasons) +
          "): their I/O is counted under their caller");
  }
  // Sources the build left unannotated (coverage records, issue 38).
  std::vector<std::string> Fns;
  for (const FindingSite &S : F.Sites)
    Fns.push_back(S.Function);
  for (std::string &C : coverageSiteCaveats(R, Fns, F.Ranks))
    F.Caveats.push_back(std::move(C));
  advise(Rule, F, std::move(Vars));
  Out.push_back(std::move(F));
}

} // namespace diagnosis

bool isDiagnosisKind(const std::string &Kind) {
  for (const auto &K : diagnosis::Kinds)
    if (Kind == K.Name)
      return true;
  return false;
}

bool isDiagnosisParam(const std::string &Kind, const std::string &Key) {
  if (Key == "min_ops" || Key == "min_bytes" || Key == "min_seconds")
    return true;
  for (const auto &K : diagnosis::Kinds) {
    if (Kind != K.Name)
      continue;
    std::string Params = std::string(" ") + K.Params + " ";
    return Params.find(" " + Key + " ") != std::string::npos;
  }
  return false;
}

std::string diagnosisParams(const std::string &Kind) {
  for (const auto &K : diagnosis::Kinds)
    if (Kind == K.Name)
      return std::string(K.Params) + " min_ops min_bytes min_seconds";
  return "";
}

std::vector<Finding> diagnose(const Report &R, const DiagnosisRules &Rules) {
  return diagnosis::Diagnoser(R, Rules).run();
}

} // namespace dftanalyze
