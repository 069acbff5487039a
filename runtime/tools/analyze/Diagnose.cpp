//===- Diagnose.cpp - The rules of docs/diagnosis.md ----------------------===//
//
// Each kind is one function of the Report and its rule; it returns no
// finding unless the evidence crosses the rule's thresholds and the support
// (min_ops, min_bytes, min_seconds) is reached. Thresholds and texts are the
// rule file's; what is computed, and how seconds recoverable are estimated,
// is here and in docs/diagnosis.md.
//
//===----------------------------------------------------------------------===//

#include "Diagnose.h"

#include "FileAnalyzer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <set>
#include <tuple>

namespace dftanalyze {

namespace {

using dftrace::Layer;
using dftrace::Op;

struct SiteRef {
  const std::string *Function, *Chain;
  const SiteStat *S;
  Layer L() const { return static_cast<Layer>(S->Layer); }
  Op O() const { return static_cast<Op>(S->Op); }
  Layer Top() const { return static_cast<Layer>(S->TopLayer); }
};

std::string fmt(const char *F, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), F, V);
  return Buf;
}
std::string pct(double Fraction) { return fmt("%.1f%%", 100 * Fraction); }
std::string secs(uint64_t Us) { return fmt("%.6f", Us / 1e6); }
double ratio(double A, double B) { return B > 0 ? A / B : 0; }
uint64_t usOf(double Seconds) {
  return Seconds <= 0 ? 0 : static_cast<uint64_t>(std::llround(Seconds * 1e6));
}

class Diagnoser {
public:
  Diagnoser(const Report &R, const DiagnosisRules &Rules)
      : R(R), A(R.A), Rules(Rules) {
    Bottom = bottomLayers(A.Io.Layers);
    for (const auto &[Key, S] : A.Diag.Sites)
      Sites.push_back({&Key.first, &Key.second, &S});
    MpiIo = A.Layers[static_cast<size_t>(Layer::MpiIo)].Totals.Ops != 0;
    Hdf5 = A.Layers[static_cast<size_t>(Layer::Hdf5)].Totals.Ops != 0;
    traceCaveats();
  }

  std::vector<Finding> run() {
    using Fn = void (Diagnoser::*)(const DiagnosisRule &);
    const std::pair<const char *, Fn> Kinds[] = {
        {"small_requests", &Diagnoser::smallRequests},
        {"metadata_heavy", &Diagnoser::metadataHeavy},
        {"sync_per_write", &Diagnoser::syncPerWrite},
        {"rank_imbalance", &Diagnoser::rankImbalance},
        {"single_rank_io", &Diagnoser::singleRankIo},
        {"independent_mpiio", &Diagnoser::independentMpiio},
        {"small_hdf5_access", &Diagnoser::smallHdf5},
        {"stdio_bulk", &Diagnoser::stdioBulk},
        {"many_files", &Diagnoser::manyFiles},
        {"failed_calls", &Diagnoser::failedCalls},
        {"misaligned_requests", &Diagnoser::misaligned},
        {"hdf5_unaligned", &Diagnoser::hdf5Unaligned},
        {"random_access", &Diagnoser::randomAccess},
        {"redundant_traffic", &Diagnoser::redundant},
        {"cache_bound", &Diagnoser::cacheBound},
    };
    for (const auto &[Kind, F] : Kinds) {
      auto It = Rules.Rules.find(Kind);
      if (It != Rules.Rules.end())
        (this->*F)(It->second);
    }
    std::stable_sort(Out.begin(), Out.end(),
                     [](const Finding &X, const Finding &Y) {
                       return std::tie(Y.RecoverableUs, X.Kind, X.Summary) <
                              std::tie(X.RecoverableUs, Y.Kind, Y.Summary);
                     });
    return std::move(Out);
  }

private:
  bool atBottom(const SiteRef &S) const {
    Layer L = S.L();
    return dftrace::isIoLayer(L) && (Bottom >> ioSlot(L) & 1u);
  }

  /// The support figures; false (no finding) when one is below its minimum.
  bool supported(const DiagnosisRule &Rule, Finding &F, uint64_t Ops,
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
      F.Support.push_back({std::string(M.Name).substr(4), M.Value, ">=",
                           It->second});
    }
    return true;
  }

  /// Sites matching Keep, heaviest first by Weight (then name), at most 8.
  std::vector<FindingSite>
  topSites(const std::function<bool(const SiteRef &)> &Keep,
           const std::function<uint64_t(const SiteRef &)> &Weight,
           bool SmallOnly = false) const {
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
        Out.push_back({*S->Function, *S->Chain, C.SmallOps, C.SmallBytes,
                       C.SmallTimeUs});
      else
        Out.push_back({*S->Function, *S->Chain, C.Ops, C.Bytes, C.TimeUs});
    }
    return Out;
  }

  /// Ranks of the sites of F (the sites' rank lists, merged and sorted).
  std::vector<std::string> siteRanks(const Finding &F) const {
    std::vector<std::string> Ranks;
    for (const FindingSite &FS : F.Sites) {
      auto It = A.Diag.Sites.find({FS.Function, FS.Chain});
      if (It != A.Diag.Sites.end())
        Ranks.insert(Ranks.end(), It->second.Ranks.begin(),
                     It->second.Ranks.end());
    }
    std::sort(Ranks.begin(), Ranks.end(), rankLess);
    Ranks.erase(std::unique(Ranks.begin(), Ranks.end()), Ranks.end());
    return Ranks;
  }

  static bool rankLess(const std::string &X, const std::string &Y) {
    bool XN = !X.empty() && X.find_first_not_of("0123456789") == std::string::npos;
    bool YN = !Y.empty() && Y.find_first_not_of("0123456789") == std::string::npos;
    if (XN && YN && X.size() != Y.size())
      return X.size() < Y.size();
    if (XN != YN)
      return XN;
    return X < Y;
  }

  /// The FS record's type (docs/trace-format.md), "unknown" without one.
  std::string fsType(const std::string &Path) const {
    auto It = A.Files.find(Path);
    if (It == A.Files.end() || It->second.Fs.Type.empty())
      return "unknown";
    return It->second.Fs.Type;
  }

  /// The files where sites of the finding's functions did I/O are not
  /// known per site; the files given are the ones the rule looked at.
  FindingFile file(const FileFigures &F) const {
    return {F.Path, fsType(F.Path), F.Reached.Ops, F.Reached.bytes(),
            F.Reached.TimeUs};
  }

  /// MPI's shared-memory segments (/dev/shm/mpich_shar_tmp..., Open MPI's
  /// vader segments) are not the program's files.
  static bool mpiSharedMemory(const std::string &Path) {
    return Path.rfind("/dev/shm/", 0) == 0;
  }

  /// The N files that moved data with the most I/O time; the others (MPI's
  /// shared-memory segments, paths only stat'ed) only when none did. The
  /// data-calls findings use these: listing /dev/shm/mpich_shar_tmp* made
  /// the advice say "the files are on tmpfs" for IOR's data on ext4, and
  /// "/" (stat'ed by IOR) was listed as a file of its small requests.
  std::vector<FindingFile> busiestFiles(size_t N) const {
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

  /// Advice whose conditions hold, with the placeholders filled in.
  void advise(const DiagnosisRule &Rule, Finding &F,
              std::map<std::string, std::string> Vars) {
    std::vector<std::string> Fs;
    for (const FindingFile &File : F.Files)
      Fs.push_back(File.FsType);
    if (Fs.empty())
      Fs.push_back("unknown");
    std::string TopLayer;
    if (!F.Sites.empty()) {
      auto It = A.Diag.Sites.find({F.Sites[0].Function, F.Sites[0].Chain});
      if (It != A.Diag.Sites.end())
        TopLayer = dftrace::layerName(static_cast<Layer>(It->second.TopLayer));
    }
    if (!F.Sites.empty()) {
      Vars.emplace("function", F.Sites[0].Function);
      Vars.emplace("chain", F.Sites[0].Function + " > " + F.Sites[0].Chain);
    }
    if (!F.Files.empty()) {
      Vars.emplace("file", F.Files[0].Path);
      Vars.emplace("fs_type", F.Files[0].FsType);
    }
    Vars.emplace("small_bytes", std::to_string(Rules.SmallBytes));
    // A variable: Vars's, or "hint:NAME", the MPI-IO hint's value recorded
    // on the finding's files (MPIIO_HINTS records).
    auto Var = [&](const std::string &Name) -> const std::string * {
      auto V = Vars.find(Name);
      if (V == Vars.end() && Name.rfind("hint:", 0) == 0)
        V = Vars.emplace(Name, recordedHint(F, Name.substr(5))).first;
      return V == Vars.end() ? nullptr : &V->second;
    };
    auto Holds = [&](const Advice &Adv) {
      for (const auto &[Cond, Values] : Adv.When) {
        auto Any = [&](const std::string &V) {
          return std::find(Values.begin(), Values.end(), V) != Values.end();
        };
        if (Cond == "fs_type" &&
            std::none_of(Fs.begin(), Fs.end(), Any))
          return false;
        if (Cond == "fs_type_not" && std::any_of(Fs.begin(), Fs.end(), Any))
          return false;
        if (Cond == "layer" && !Any(TopLayer))
          return false;
        if (Cond == "mpiio" && !Any(MpiIo ? "true" : "false"))
          return false;
        if (Cond == "hdf5" && !Any(Hdf5 ? "true" : "false"))
          return false;
        // Any other key is the finding's own variable (hint:NAME, or a
        // flag the rule sets, e.g. hdf5_unaligned's "metadata").
        if (Cond != "fs_type" && Cond != "fs_type_not" && Cond != "layer" &&
            Cond != "mpiio" && Cond != "hdf5") {
          const std::string *V = Var(Cond);
          if (!V || !Any(*V))
            return false;
        }
      }
      return true;
    };
    for (const Advice &Adv : Rule.Advices) {
      if (!Holds(Adv))
        continue;
      std::string T;
      for (size_t I = 0; I < Adv.Text.size(); ++I) {
        size_t Close;
        if (Adv.Text[I] == '{' &&
            (Close = Adv.Text.find('}', I)) != std::string::npos) {
          if (const std::string *V = Var(Adv.Text.substr(I + 1, Close - I - 1))) {
            T += *V;
            I = Close;
            continue;
          }
        }
        T += Adv.Text[I];
      }
      F.Advices.push_back(std::move(T));
    }
  }

  /// The most common value of MPI-IO hint Name recorded (MPIIO_HINTS) on
  /// the finding's files, "unrecorded" when none has it.
  std::string recordedHint(const Finding &F, const std::string &Name) const {
    std::map<std::string, uint64_t> Opens;
    for (const FindingFile &File : F.Files) {
      auto It = A.Files.find(File.Path);
      if (It == A.Files.end())
        continue;
      auto H = It->second.MpiInfo.Hints.find(Name);
      if (H != It->second.MpiInfo.Hints.end())
        for (const auto &[Value, N] : H->second)
          Opens[Value] += N;
    }
    return mostCommon(Opens, "unrecorded");
  }

  /// The value with the largest count (the smallest among equals).
  static std::string mostCommon(const std::map<std::string, uint64_t> &Counts,
                                const std::string &None) {
    const std::string *Best = nullptr;
    uint64_t Most = 0;
    for (const auto &[Value, N] : Counts)
      if (N > Most) {
        Most = N;
        Best = &Value;
      }
    return Best ? *Best : None;
  }

  void add(const DiagnosisRule &Rule, Finding F,
           std::map<std::string, std::string> Vars = {}) {
    F.Kind = Rule.Kind;
    if (F.Ranks.empty())
      F.Ranks = siteRanks(F);
    F.Caveats.insert(F.Caveats.end(), Caveats.begin(), Caveats.end());
    std::set<std::string> Said; // a function has several sites (write, read)
    for (const FindingSite &S : F.Sites) {
      auto T = A.Functions.find(S.Function);
      if (T != A.Functions.end() && T->second.ThrottledCalls &&
          Said.insert(S.Function).second)
        F.Caveats.push_back(S.Function + ": " +
                            std::to_string(T->second.ThrottledCalls) +
                            " calls throttled (" +
                            reasonsText(T->second.ThrottleReasons) +
                            "): their I/O is counted under their caller");
    }
    advise(Rule, F, std::move(Vars));
    Out.push_back(std::move(F));
  }

  /// What the trace itself says it does not hold: on every finding.
  void traceCaveats() {
    if (!R.Throttled.empty())
      Caveats.push_back(std::to_string(R.Throttled.size()) +
                        " functions or calls throttled (records \"throttled\"):"
                        " their spans are counted, not placed");
    if (R.UntracedCalls)
      Caveats.push_back(std::to_string(R.UntracedCalls) + " calls (" +
                        std::to_string(R.UntracedBytes) +
                        " B) left untraced by the data-dir filter");
    if (!R.Stopped.empty())
      Caveats.push_back(std::to_string(R.Stopped.size()) +
                        " processes stopped tracing early (trace_stopped): "
                        "figures are lower bounds");
    for (const BypassFigures &B : R.Bypassed)
      Caveats.push_back(B.B->Layer + " calls bypass the tracer (" +
                        B.B->Symbol + ") in " +
                        std::to_string(B.Ranks.size()) +
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
    if (uint64_t N = A.issueTotal())
      Caveats.push_back(std::to_string(N) +
                        " problems in the input (truncated or invalid lines, "
                        "missing parents): see the issues");
  }

  // ---- the kinds -------------------------------------------------------

  void smallRequests(const DiagnosisRule &Rule) {
    uint64_t Ops = 0, SmallOps = 0, SmallUs = 0, SmallBytes = 0, Us = 0,
             Bytes = 0, IoUs = 0;
    for (const SiteRef &S : Sites) {
      if (!atBottom(S))
        continue;
      IoUs += S.S->C.TimeUs;
      if (!dftrace::isDataOp(S.O()))
        continue;
      Ops += S.S->C.Ops - S.S->C.Failed;
      Us += S.S->C.TimeUs;
      Bytes += S.S->C.Bytes;
      SmallOps += S.S->C.SmallOps;
      SmallUs += S.S->C.SmallTimeUs;
      SmallBytes += S.S->C.SmallBytes;
    }
    double Share = ratio(SmallOps, Ops);
    Finding F;
    if (!SmallOps || Share < Rule.param("min_share") ||
        !supported(Rule, F, SmallOps, SmallBytes, SmallUs))
      return;
    F.Proof.push_back({"small_call_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = SmallOps;
    F.Bytes = SmallBytes;
    F.TimeUs = SmallUs;
    uint64_t LargeUs = Us - SmallUs, LargeBytes = Bytes - SmallBytes;
    if (LargeBytes && LargeUs) {
      double Bw = double(LargeBytes) / double(LargeUs); // bytes per us
      F.RecoverableUs = usOf((double(SmallUs) - double(SmallBytes) / Bw) / 1e6);
      F.Method = "the small calls' time minus the same bytes at the "
                 "bandwidth the large calls of this run reached (" +
                 fmt("%.1f", mebibytesPerSecond(LargeBytes, LargeUs)) +
                 " MiB/s per call)";
    } else {
      double After = std::ceil(double(SmallBytes) / double(Rules.SmallBytes));
      F.RecoverableUs =
          usOf(SmallUs / 1e6 * (1.0 - std::min(1.0, After / SmallOps)));
      F.Method = "no large call in this run to compare with: the per-call "
                 "cost kept, " + std::to_string(SmallOps) + " calls become " +
                 fmt("%.0f", After) + " of small_bytes each";
    }
    F.Sites = topSites(
        [&](const SiteRef &S) { return atBottom(S) && S.S->C.SmallOps; },
        [](const SiteRef &S) { return S.S->C.SmallTimeUs; }, true);
    F.Files = busiestFiles(3);
    uint64_t Mean = SmallBytes / SmallOps;
    F.Summary = std::to_string(SmallOps) + " data calls under " +
                std::to_string(Rules.SmallBytes) + " B (mean " +
                std::to_string(Mean) + " B), " + pct(Share) +
                " of the data calls, " + pct(ratio(SmallUs, IoUs)) +
                " of the bottom layer's I/O time";
    if (!F.Sites.empty())
      F.Summary += ", issued by " + F.Sites[0].Function + " (" +
                   F.Sites[0].Chain + ")";
    add(Rule, std::move(F), {{"size", std::to_string(Mean)}});
  }

  void metadataHeavy(const DiagnosisRule &Rule) {
    uint64_t MetaOps = 0, MetaUs = 0, IoUs = 0;
    for (const SiteRef &S : Sites) {
      if (!atBottom(S))
        continue;
      IoUs += S.S->C.TimeUs;
      if (dftrace::isMetadataOp(S.O())) {
        MetaOps += S.S->C.Ops;
        MetaUs += S.S->C.TimeUs;
      }
    }
    // Repeats: the same path opened and stat'ed again and again by each
    // process; Repeated: its metadata calls beyond one open, one stat and
    // one close per file and process. Seeks are neither: IOR's POSIX_Xfer
    // seeks before every transfer (8192 lseek per process on one file at
    // -t 4k), which is no reopening; their time stays in the share test.
    uint64_t Repeated = 0;
    const FileFigures *Worst = nullptr;
    double WorstPer = 0;
    for (const FileFigures &F : R.FilesByTime) {
      if (!F.S->Processes || mpiSharedMemory(F.Path))
        continue;
      uint64_t Meta = F.MetaOps - F.S->reachedCalls(Op::Seek);
      double Per = double(F.S->reachedCalls(Op::Open) +
                          F.S->reachedCalls(Op::Stat)) /
                   double(F.S->Processes);
      if (Per > WorstPer) {
        WorstPer = Per;
        Worst = &F;
      }
      if (Meta > 3 * F.S->Processes)
        Repeated += Meta - 3 * F.S->Processes;
    }
    double Share = ratio(MetaUs, IoUs);
    bool ByShare = Share >= Rule.param("min_share", 1);
    bool ByRepeat = WorstPer >= Rule.param("min_repeats", 1e18);
    Finding F;
    if (!MetaOps || (!ByShare && !ByRepeat) ||
        !supported(Rule, F, MetaOps, 0, MetaUs))
      return;
    if (ByShare)
      F.Proof.push_back({"metadata_time_share", Share, ">=",
                         Rule.param("min_share")});
    if (ByRepeat)
      F.Proof.push_back({"metadata_calls_per_file_and_process", WorstPer,
                         ">=", Rule.param("min_repeats")});
    F.Ops = MetaOps;
    F.TimeUs = MetaUs;
    F.RecoverableUs = usOf(MetaUs / 1e6 * ratio(Repeated, MetaOps));
    F.Method = "the metadata time of the calls beyond one open, one stat and "
               "one close per file and process (" + std::to_string(Repeated) +
               " of " + std::to_string(MetaOps) + " calls)";
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return atBottom(S) && dftrace::isMetadataOp(S.O());
        },
        [](const SiteRef &S) { return S.S->C.TimeUs; });
    if (Worst)
      F.Files.push_back(file(*Worst));
    F.Summary = std::to_string(MetaOps) + " metadata calls, " + pct(Share) +
                " of the bottom layer's I/O time";
    if (Worst)
      F.Summary += "; " + fmt("%.1f", WorstPer) + " per process on " +
                   Worst->Path;
    if (!F.Sites.empty())
      F.Summary += ", most from " + F.Sites[0].Function + " (" +
                   F.Sites[0].Chain + ")";
    add(Rule, std::move(F), {{"ratio", pct(Share)}});
  }

  void syncPerWrite(const DiagnosisRule &Rule) {
    // Per function: its sync calls and its write calls (any layer).
    std::map<std::string, std::pair<uint64_t, uint64_t>> Per; // sync, write
    std::map<std::string, uint64_t> SyncUs;
    for (const SiteRef &S : Sites) {
      if (S.O() == Op::Sync) {
        Per[*S.Function].first += S.S->C.Ops;
        SyncUs[*S.Function] += S.S->C.TimeUs;
      } else if (S.O() == Op::Write && S.L() == S.Top()) {
        Per[*S.Function].second += S.S->C.Ops;
      }
    }
    for (const auto &[Fn, C] : Per) {
      auto [Syncs, Writes] = C;
      double Ratio = ratio(Syncs, Writes);
      Finding F;
      if (!Syncs || !Writes || Ratio < Rule.param("min_ratio", 1e18) ||
          !supported(Rule, F, Syncs, 0, SyncUs[Fn]))
        continue;
      F.Proof.push_back({"syncs_per_write", Ratio, ">=",
                         Rule.param("min_ratio")});
      F.Ops = Syncs;
      F.TimeUs = SyncUs[Fn];
      F.RecoverableUs = usOf(F.TimeUs / 1e6 * (1.0 - 1.0 / double(Syncs)));
      F.Method = "the sync calls' time but one";
      F.Sites = topSites(
          [&](const SiteRef &S) {
            return *S.Function == Fn && S.O() == Op::Sync;
          },
          [](const SiteRef &S) { return S.S->C.TimeUs; });
      F.Files = busiestFiles(1);
      F.Summary = Fn + " makes " + std::to_string(Syncs) + " sync calls for " +
                  std::to_string(Writes) + " writes";
      add(Rule, std::move(F));
    }
  }

  void rankImbalance(const DiagnosisRule &Rule) {
    std::vector<std::pair<uint64_t, const RankFigures *>> Times;
    for (const RankFigures &RF : R.Ranks)
      if (RF.P->Io.Once.Ops)
        Times.push_back({RF.P->IoUnionUs, &RF});
    if (Times.size() < std::max(2.0, Rule.param("min_ranks", 2)))
      return;
    std::stable_sort(Times.begin(), Times.end(),
                     [](const auto &X, const auto &Y) { return X.first < Y.first; });
    uint64_t Median = Times[(Times.size() - 1) / 2].first;
    auto [Max, Slow] = Times.back();
    double Ratio = ratio(Max, Median);
    Finding F;
    if (Ratio < Rule.param("min_ratio", 1e18) ||
        !supported(Rule, F, 0, 0, Max - Median)) {
      phaseImbalance(Rule, Times.size(), "");
      return;
    }
    F.Proof.push_back({"slowest_over_median_io_time", Ratio, ">=",
                       Rule.param("min_ratio")});
    F.Ops = Slow->P->Io.Once.Ops;
    F.Bytes = Slow->P->Io.reached().bytes();
    F.TimeUs = Max;
    F.RecoverableUs = Max - Median;
    F.Method = "the slowest rank's I/O time minus the median rank's: what the "
               "other ranks wait for at the next synchronisation";
    F.Ranks = {Slow->Label};
    std::string RankLabel = Slow->P->Rank.empty()
                                ? "pid " + std::to_string(Slow->P->Pid)
                                : Slow->P->Rank;
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return atBottom(S) &&
                 std::binary_search(S.S->Ranks.begin(), S.S->Ranks.end(),
                                    RankLabel);
        },
        [](const SiteRef &S) { return S.S->C.TimeUs; });
    // Per shared file: the slowest process against the mean of the others.
    for (const auto &[Path, FR] : A.Diag.FileRanks) {
      if (FR.Processes < 2)
        continue;
      double Others = double(FR.SumTimeUs - FR.MaxTimeUs) / (FR.Processes - 1);
      if (ratio(FR.MaxTimeUs, Others) >= Rule.param("min_ratio") &&
          FR.MaxTimeUs - Others >= Rule.param("min_seconds") * 1e6) {
        auto It = A.Files.find(Path);
        if (It != A.Files.end() && F.Files.size() < 5)
          F.Files.push_back({Path, fsType(Path), It->second.reached().Ops,
                             It->second.reached().bytes(),
                             It->second.reached().TimeUs});
      }
    }
    F.Summary = processName(Slow->Label) + " spends " + secs(Max) +
                " s in I/O against the median rank's " + secs(Median) +
                " s (" + fmt("%.2f", Ratio) + "x, " +
                std::to_string(Times.size()) + " ranks with I/O)";
    std::string JobFunction = F.Sites.empty() ? "" : F.Sites[0].Function;
    add(Rule, std::move(F),
        {{"rank", Slow->Label}, {"ratio", fmt("%.2fx", Ratio)}});
    phaseImbalance(Rule, Times.size(), JobFunction);
  }

  /// Per phase: an annotated function that every rank with I/O ran, its
  /// slowest process's time in the function's own I/O calls against the
  /// mean of the others' (as per file). A rank slow in one phase only is
  /// found even when the job's totals even out; a phase the job-level
  /// finding already names (its first site's function) is not repeated.
  void phaseImbalance(const DiagnosisRule &Rule, size_t RanksWithIo,
                      const std::string &Named) {
    for (const auto &[Fn, FR] : A.Diag.FunctionRanks) {
      if (Fn == NoFunction || Fn == Named || FR.Processes < 2 ||
          FR.Processes < RanksWithIo)
        continue;
      double Others = double(FR.SumTimeUs - FR.MaxTimeUs) / (FR.Processes - 1);
      double Ratio = ratio(FR.MaxTimeUs, Others);
      uint64_t Excess = usOf((FR.MaxTimeUs - Others) / 1e6);
      Finding F;
      if (Ratio < Rule.param("min_ratio", 1e18) ||
          !supported(Rule, F, 0, 0, Excess))
        continue;
      F.Proof.push_back({"phase_slowest_over_others_io_time", Ratio, ">=",
                         Rule.param("min_ratio")});
      F.TimeUs = FR.MaxTimeUs;
      F.RecoverableUs = Excess;
      F.Method = "the slowest rank's I/O time in " + Fn +
                 " minus the mean of the other ranks': what they wait for "
                 "at the end of the phase";
      F.Ranks = {FR.MaxTimeRank};
      const std::string &Fun = Fn, &Rank = FR.MaxTimeRank;
      F.Sites = topSites(
          [&](const SiteRef &S) {
            return *S.Function == Fun && atBottom(S) &&
                   std::binary_search(S.S->Ranks.begin(), S.S->Ranks.end(),
                                      Rank);
          },
          [](const SiteRef &S) { return S.S->C.TimeUs; });
      if (F.Sites.empty()) // I/O called in the function, none below it
        F.Sites = topSites([&](const SiteRef &S) { return *S.Function == Fun; },
                           [](const SiteRef &S) { return S.S->C.TimeUs; });
      F.Summary = "phase " + Fn + ": " + processName(Rank) + " spends " +
                  secs(FR.MaxTimeUs) + " s in its I/O against the others' " +
                  fmt("%.6f", Others / 1e6) + " s (" + fmt("%.2f", Ratio) +
                  "x, " + std::to_string(FR.Processes) + " ranks ran it)";
      add(Rule, std::move(F),
          {{"rank", Rank}, {"ratio", fmt("%.2fx", Ratio)}});
    }
  }

  void singleRankIo(const DiagnosisRule &Rule) {
    for (const auto &[Path, FR] : A.Diag.FileRanks) {
      if (FR.Processes < 2 || !FR.SumBytes)
        continue;
      double Share = ratio(FR.MaxBytes, FR.SumBytes);
      Finding F;
      if (Share < Rule.param("min_share", 1e18) ||
          !supported(Rule, F, 0, FR.SumBytes, FR.SumTimeUs))
        continue;
      F.Proof.push_back({"one_rank_byte_share", Share, ">=",
                         Rule.param("min_share")});
      F.Bytes = FR.SumBytes;
      F.TimeUs = FR.SumTimeUs;
      uint64_t Balanced = FR.SumTimeUs / FR.Processes;
      F.RecoverableUs = FR.MaxTimeUs > Balanced ? FR.MaxTimeUs - Balanced : 0;
      F.Method = "the busiest rank's time on the file minus the time if every "
                 "one of the " + std::to_string(FR.Processes) +
                 " ranks had an equal share";
      F.Ranks = {FR.MaxBytesRank};
      auto It = A.Files.find(Path);
      if (It != A.Files.end())
        F.Files.push_back({Path, fsType(Path), It->second.reached().Ops,
                           It->second.reached().bytes(),
                           It->second.reached().TimeUs});
      const std::string Rank = FR.MaxBytesRank;
      F.Sites = topSites(
          [&](const SiteRef &S) {
            return S.L() == S.Top() && dftrace::isDataOp(S.O()) &&
                   S.S->Processes == 1 && S.S->Ranks.size() == 1 &&
                   S.S->Ranks[0] == Rank;
          },
          [](const SiteRef &S) { return S.S->C.Bytes; });
      F.Summary = processName(Rank) + " moves " + pct(Share) + " of the " +
                  std::to_string(FR.SumBytes) + " B of " + Path + " (" +
                  std::to_string(FR.Processes) + " processes opened it)";
      add(Rule, std::move(F),
          {{"rank", Rank}, {"ratio", pct(Share)}, {"file", Path}});
    }
  }

  void independentMpiio(const DiagnosisRule &Rule) {
    uint64_t Indep = 0, IndepUs = 0, IndepBytes = 0, Coll = 0, CollUs = 0,
             CollBytes = 0;
    std::vector<const FileFigures *> Shared;
    for (const FileFigures &F : R.FilesByTime) {
      if (F.S->Processes < 2)
        continue;
      const OpStat &I = F.S->Mpi.Kinds[static_cast<size_t>(MpiKind::Independent)];
      const OpStat &NB = F.S->Mpi.Kinds[static_cast<size_t>(MpiKind::NonBlocking)];
      if (!I.Ops && !NB.Ops)
        continue;
      Indep += I.Ops + NB.Ops;
      IndepUs += I.TimeUs + NB.TimeUs;
      IndepBytes += I.Bytes + NB.Bytes;
      for (size_t K = 0; K < NumMpiKinds; ++K)
        if (dftrace::isCollective(static_cast<MpiKind>(K))) {
          Coll += F.S->Mpi.Kinds[K].Ops;
          CollUs += F.S->Mpi.Kinds[K].TimeUs;
          CollBytes += F.S->Mpi.Kinds[K].Bytes;
        }
      Shared.push_back(&F);
    }
    double Share = ratio(Indep, Indep + Coll);
    Finding F;
    if (!Indep || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, Indep, IndepBytes, IndepUs))
      return;
    F.Proof.push_back({"independent_share_on_shared_files", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = Indep;
    F.Bytes = IndepBytes;
    F.TimeUs = IndepUs;
    if (CollBytes && CollUs) {
      double Bw = double(CollBytes) / double(CollUs);
      double Rec = IndepUs - IndepBytes / Bw;
      F.RecoverableUs = Rec > 0 ? usOf(Rec / 1e6) : 0;
      F.Method = "the independent calls' time minus their bytes at the "
                 "bandwidth the collective calls of this run reached";
    } else {
      F.RecoverableUs = 0;
      F.Method = "not estimated: no collective call in this run to compare "
                 "with (compare a run with collective calls: --compare)";
    }
    for (const FileFigures *S : Shared)
      if (F.Files.size() < 5)
        F.Files.push_back(file(*S));
    F.Sites = topSites(
        [](const SiteRef &S) {
          // Whatever the code called: HDF5's independent transfers reach
          // MPI-IO as independent calls too, under the function that
          // called H5Dwrite, and the advice follows the layer called.
          return S.L() == Layer::MpiIo &&
                 (S.S->Mpi == uint8_t(MpiKind::Independent) ||
                  S.S->Mpi == uint8_t(MpiKind::NonBlocking));
        },
        [](const SiteRef &S) { return S.S->C.TimeUs; });
    F.Summary = std::to_string(Indep) + " independent MPI-IO data calls (" +
                pct(Share) + ") on " + std::to_string(Shared.size()) +
                " shared files";
    if (!F.Sites.empty())
      F.Summary += ", from " + F.Sites[0].Function + " (" + F.Sites[0].Chain +
                   ")";
    add(Rule, std::move(F));
  }

  void smallHdf5(const DiagnosisRule &Rule) {
    uint64_t Ops = 0, Small = 0, SmallUs = 0, SmallBytes = 0;
    for (const SiteRef &S : Sites)
      if (S.L() == Layer::Hdf5 && dftrace::isDataOp(S.O())) {
        Ops += S.S->C.Ops - S.S->C.Failed;
        Small += S.S->C.SmallOps;
        SmallUs += S.S->C.SmallTimeUs;
        SmallBytes += S.S->C.SmallBytes;
      }
    double Share = ratio(Small, Ops);
    Finding F;
    if (!Small || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, Small, SmallBytes, SmallUs))
      return;
    F.Proof.push_back({"small_hdf5_call_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = Small;
    F.Bytes = SmallBytes;
    F.TimeUs = SmallUs;
    double After = std::ceil(double(SmallBytes) / double(Rules.SmallBytes));
    F.RecoverableUs = usOf(SmallUs / 1e6 * (1.0 - std::min(1.0, After / Small)));
    F.Method = "the per-call cost kept: " + std::to_string(Small) +
               " H5Dwrite/H5Dread calls become " + fmt("%.0f", After) +
               " of small_bytes each";
    F.Sites = topSites(
        [](const SiteRef &S) {
          return S.L() == Layer::Hdf5 && S.S->C.SmallOps;
        },
        [](const SiteRef &S) { return S.S->C.SmallTimeUs; }, true);
    F.Files = busiestFiles(3);
    uint64_t Mean = SmallBytes / Small;
    F.Summary = std::to_string(Small) + " HDF5 data calls under " +
                std::to_string(Rules.SmallBytes) + " B (mean " +
                std::to_string(Mean) + " B), " + pct(Share) + " of them";
    if (!F.Sites.empty())
      F.Summary += ", from " + F.Sites[0].Function;
    add(Rule, std::move(F), {{"size", std::to_string(Mean)}});
  }

  void stdioBulk(const DiagnosisRule &Rule) {
    uint64_t Stdio = 0, StdioUs = 0, StdioOps = 0, All = 0;
    for (const SiteRef &S : Sites) {
      if (!atBottom(S) || !dftrace::isDataOp(S.O()))
        continue;
      All += S.S->C.Bytes;
      if (S.L() == Layer::Stdio) {
        Stdio += S.S->C.Bytes;
        StdioUs += S.S->C.TimeUs;
        StdioOps += S.S->C.Ops;
      }
    }
    double Share = ratio(Stdio, All);
    Finding F;
    if (!Stdio || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, StdioOps, Stdio, StdioUs))
      return;
    F.Proof.push_back({"stdio_byte_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = StdioOps;
    F.Bytes = Stdio;
    F.TimeUs = StdioUs;
    const IoTotals &P = A.Layers[static_cast<size_t>(Layer::Posix)].Totals;
    const OpStat &PR = A.Layers[static_cast<size_t>(Layer::Posix)]
                           .ByOp[static_cast<size_t>(Op::Read)];
    const OpStat &PW = A.Layers[static_cast<size_t>(Layer::Posix)]
                           .ByOp[static_cast<size_t>(Op::Write)];
    (void)P;
    uint64_t PBytes = PR.Bytes + PW.Bytes, PUs = PR.TimeUs + PW.TimeUs;
    if (PBytes >= Stdio && PUs) {
      double Rec = StdioUs - double(Stdio) / (double(PBytes) / double(PUs));
      F.RecoverableUs = Rec > 0 ? usOf(Rec / 1e6) : 0;
      F.Method = "the stdio calls' time minus their bytes at the bandwidth "
                 "of this run's POSIX data calls";
    } else {
      F.RecoverableUs = 0;
      F.Method = "not estimated: too few POSIX data calls in this run to "
                 "compare with";
    }
    F.Sites = topSites(
        [](const SiteRef &S) {
          return S.L() == Layer::Stdio && dftrace::isDataOp(S.O());
        },
        [](const SiteRef &S) { return S.S->C.Bytes; });
    F.Files = busiestFiles(3);
    F.Summary = pct(Share) + " of the bytes (" + std::to_string(Stdio) +
                " B in " + std::to_string(StdioOps) + " calls) go through stdio";
    if (!F.Sites.empty())
      F.Summary += ", from " + F.Sites[0].Function;
    add(Rule, std::move(F));
  }

  void manyFiles(const DiagnosisRule &Rule) {
    uint64_t Files = 0, MetaUs = 0, MetaOps = 0;
    for (const FileFigures &F : R.FilesByTime)
      if (F.S->Processes == 1) {
        ++Files;
        MetaUs += F.MetaTimeUs;
        MetaOps += F.MetaOps;
      }
    uint64_t IoUs = 0;
    for (size_t Slot = 0; Slot < NumIoLayers; ++Slot)
      if (Bottom >> Slot & 1u)
        IoUs += A.Io.Layers[Slot].TimeUs;
    double Share = ratio(MetaUs, IoUs);
    Finding F;
    if (Files < Rule.param("min_files", 1e18) ||
        Share < Rule.param("min_share") ||
        !supported(Rule, F, MetaOps, 0, MetaUs))
      return;
    F.Proof.push_back({"files_used_by_one_process", double(Files), ">=",
                       Rule.param("min_files")});
    F.Proof.push_back({"their_metadata_time_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = MetaOps;
    F.TimeUs = MetaUs;
    uint64_t Ranks = std::max<uint64_t>(1, R.Ranks.size());
    F.RecoverableUs =
        usOf(MetaUs / 1e6 * (1.0 - std::min(1.0, double(Ranks) / Files)));
    F.Method = "the metadata time of the files beyond one per process (" +
               std::to_string(Files) + " files become " +
               std::to_string(Ranks) + ")";
    F.Sites = topSites(
        [&](const SiteRef &S) { return atBottom(S) && S.O() == Op::Open; },
        [](const SiteRef &S) { return S.S->C.Ops; });
    for (const FileFigures &FF : R.FilesByTime)
      if (FF.S->Processes == 1 && F.Files.size() < 3)
        F.Files.push_back(file(FF));
    F.Summary = std::to_string(Files) + " files each used by one process, " +
                "their metadata " + pct(Share) + " of the I/O time";
    add(Rule, std::move(F), {{"ratio", std::to_string(Files)}});
  }

  void failedCalls(const DiagnosisRule &Rule) {
    uint64_t Failed = 0, Calls = 0, FailedUs = 0;
    for (const SiteRef &S : Sites) {
      Calls += S.S->C.Ops;
      if (S.S->C.Failed) {
        Failed += S.S->C.Failed;
        // A failed call's own time is not kept apart: its site's share.
        FailedUs += S.S->C.TimeUs * S.S->C.Failed / S.S->C.Ops;
      }
    }
    double Share = ratio(Failed, Calls);
    Finding F;
    if (!Failed || Share < Rule.param("min_share") ||
        !supported(Rule, F, Failed, 0, FailedUs))
      return;
    F.Proof.push_back({"failed_call_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = Failed;
    F.TimeUs = FailedUs;
    F.RecoverableUs = FailedUs;
    F.Method = "the failing calls' time (their sites' mean duration): none "
               "of it moved data";
    F.Sites = topSites([](const SiteRef &S) { return S.S->C.Failed != 0; },
                       [](const SiteRef &S) { return S.S->C.Failed; });
    for (FindingSite &S : F.Sites) {
      auto It = A.Diag.Sites.find({S.Function, S.Chain});
      S.Ops = It->second.C.Failed;
    }
    F.Summary = "this run measured an error path: " + std::to_string(Failed) +
                " of " + std::to_string(Calls) + " I/O calls failed (" +
                pct(Share) + ")";
    if (!F.Sites.empty())
      F.Summary += ", first " + F.Sites[0].Function + " (" + F.Sites[0].Chain +
                   ")";
    add(Rule, std::move(F));
  }

  /// Bottom-layer data sites, heaviest first: who issued the calls the
  /// access figures (per file, not per site) describe.
  std::vector<FindingSite> dataSites() const {
    return topSites(
        [&](const SiteRef &S) { return atBottom(S) && dftrace::isDataOp(S.O()); },
        [](const SiteRef &S) { return S.S->C.TimeUs; });
  }

  /// Files sorted by a figure, the files of which pass Keep.
  template <class F>
  void accessFiles(Finding &Out, const F &Weight) const {
    std::vector<std::pair<uint64_t, const FileFigures *>> Fs;
    for (const FileFigures &FF : R.FilesByTime)
      if (uint64_t W = Weight(FF))
        Fs.push_back({W, &FF});
    std::stable_sort(Fs.begin(), Fs.end(), [](const auto &X, const auto &Y) {
      return X.first > Y.first;
    });
    for (const auto &[W, FF] : Fs)
      if (Out.Files.size() < 5)
        Out.Files.push_back(file(*FF));
  }

  /// What misaligned calls cost: their figures; the seconds are not
  /// estimated (misaligned_requests, hdf5_unaligned).
  static void misalignedCost(Finding &F, uint64_t Ops, uint64_t Bytes,
                             uint64_t Us) {
    F.Ops = Ops;
    F.Bytes = Bytes;
    F.TimeUs = Us;
    F.RecoverableUs = 0;
    F.Method = "not estimated: the cost of a misaligned call depends on the "
               "file system's locking and read-modify-write; compare an "
               "aligned run (--compare)";
  }

  void misaligned(const DiagnosisRule &Rule) {
    uint64_t Calls = 0, Not = 0, NotBytes = 0, Assumed = 0, Us = 0;
    for (const FileFigures &FF : R.FilesByTime) {
      AccessStats S = FF.S->reachedAccess();
      // Without an FS record the unit is an assumption (1 MiB): such a
      // file is a caveat, not evidence.
      if (S.AlignAssumed && !Rule.param("judge_assumed")) {
        Assumed += S.AlignAssumed;
        continue;
      }
      Calls += S.Reads + S.Writes;
      Not += S.NotAligned;
      NotBytes += S.NotAlignedBytes;
      if (S.Reads + S.Writes)
        Us += FF.Reached.TimeUs * S.NotAligned / (S.Reads + S.Writes);
    }
    double Share = ratio(Not, Calls);
    Finding F;
    if (!Not || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, Not, NotBytes, Us))
      return;
    F.Proof.push_back({"not_aligned_share", Share, ">=",
                       Rule.param("min_share")});
    misalignedCost(F, Not, NotBytes, Us);
    if (Assumed)
      F.Caveats.push_back(std::to_string(Assumed) +
                          " calls on files without an FS record (block or "
                          "stripe size unknown) were not judged");
    F.Sites = dataSites();
    accessFiles(F, [](const FileFigures &FF) {
      return FF.S->reachedAccess().NotAligned;
    });
    F.Summary = std::to_string(Not) + " of " + std::to_string(Calls) +
                " data calls (" + pct(Share) +
                ") start off the file system's block or stripe boundary";
    add(Rule, std::move(F));
  }

  /// HDF5 files whose objects are not aligned to the file system's unit
  /// (FS record: stripe, else block): the recorded alignment (HDF5_FILE)
  /// is not a multiple of the unit, and most bytes reaching the file start
  /// off a unit boundary.
  void hdf5Unaligned(const DiagnosisRule &Rule) {
    struct Hit {
      const FileFigures *F;
      uint64_t Unit, Alignment, Threshold, NotBytes;
    };
    std::vector<Hit> Hits;
    uint64_t Calls = 0, Not = 0, NotBytes = 0, Bytes = 0, Us = 0;
    size_t NoFsRecord = 0;
    for (const FileFigures &FF : R.FilesByTime) {
      if (!FF.S->Hdf5Opens)
        continue;
      uint64_t Unit = FF.S->Fs.alignUnit();
      if (!Unit) {
        ++NoFsRecord;
        continue;
      }
      auto Prop = [&](const char *Key, uint64_t Default) -> uint64_t {
        auto It = FF.S->Hdf5Props.find(Key);
        if (It == FF.S->Hdf5Props.end())
          return Default;
        std::string V = mostCommon(It->second, "");
        return V.empty() || V.find_first_not_of("0123456789") != V.npos
                   ? Default
                   : std::stoull(V);
      };
      uint64_t Alignment = Prop("alignment", 1);
      if (Alignment >= Unit && Alignment % Unit == 0)
        continue; // aligned as the file system wants
      AccessStats S = FF.S->reachedAccess();
      uint64_t N = S.Reads + S.Writes, B = S.BytesRead + S.BytesWritten;
      if (!N || !S.NotAligned)
        continue;
      Calls += N;
      Bytes += B;
      Not += S.NotAligned;
      NotBytes += S.NotAlignedBytes;
      Us += FF.Reached.TimeUs * S.NotAlignedBytes / std::max<uint64_t>(1, B);
      Hits.push_back({&FF, Unit, Alignment, Prop("alignment_threshold", 1),
                      S.NotAlignedBytes});
    }
    double Share = ratio(NotBytes, Bytes);
    Finding F;
    if (Hits.empty() || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, Not, NotBytes, Us))
      return;
    std::stable_sort(Hits.begin(), Hits.end(), [](const Hit &X, const Hit &Y) {
      return X.NotBytes > Y.NotBytes;
    });
    const Hit &First = Hits[0];
    F.Proof.push_back({"not_aligned_byte_share", Share, ">=",
                       Rule.param("min_share")});
    F.Proof.push_back({"hdf5_alignment", double(First.Alignment), "<",
                       double(First.Unit)});
    misalignedCost(F, Not, NotBytes, Us);
    if (NoFsRecord)
      F.Caveats.push_back(std::to_string(NoFsRecord) +
                          " HDF5 files without an FS record (unit unknown) "
                          "were not judged");
    // Who issued the calls below HDF5: raw data under H5Dwrite/H5Dread,
    // the rest is HDF5's metadata (object headers, B-trees, heaps).
    uint64_t Raw = 0, Meta = 0;
    for (const SiteRef &S : Sites)
      if (atBottom(S) && dftrace::isDataOp(S.O()) && S.Top() == Layer::Hdf5)
        (isRawHdf5(*S.Chain) ? Raw : Meta) += S.S->C.Ops;
    F.Sites = topSites(
        [&](const SiteRef &S) {
          return atBottom(S) && dftrace::isDataOp(S.O()) &&
                 S.Top() == Layer::Hdf5;
        },
        [](const SiteRef &S) { return S.S->C.TimeUs; });
    for (const Hit &H : Hits)
      if (F.Files.size() < 5)
        F.Files.push_back(file(*H.F));
    F.Summary = std::to_string(Hits.size()) + " HDF5 files with alignment " +
                std::to_string(First.Alignment) + " on a " +
                std::to_string(First.Unit) + " B file system unit: " +
                std::to_string(Not) + " of " + std::to_string(Calls) +
                " data calls, " + pct(Share) +
                " of the bytes, start off a unit boundary";
    if (!F.Sites.empty())
      F.Summary += ", most from " + F.Sites[0].Function + " (" +
                   F.Sites[0].Chain + ")";
    add(Rule, std::move(F),
        {{"unit", std::to_string(First.Unit)},
         {"threshold", std::to_string(First.Unit)},
         {"alignment", std::to_string(First.Alignment)},
         {"alignment_threshold", std::to_string(First.Threshold)},
         {"ratio", pct(Share)},
         {"metadata_calls", std::to_string(Meta)},
         {"metadata", Meta > Raw ? "true" : "false"}});
  }

  /// A chain that starts with an HDF5 raw-data call.
  static bool isRawHdf5(const std::string &Chain) {
    return Chain.rfind("H5Dwrite", 0) == 0 || Chain.rfind("H5Dread", 0) == 0;
  }

  void randomAccess(const DiagnosisRule &Rule) {
    uint64_t Calls = 0, Random = 0, Us = 0, Bytes = 0;
    for (const FileFigures &FF : R.FilesByTime) {
      AccessStats S = FF.S->reachedAccess();
      uint64_t N = S.Reads + S.Writes, Seq = S.SeqReads + S.SeqWrites;
      Calls += N;
      if (N > Seq) {
        Random += N - Seq;
        Us += FF.Reached.TimeUs * (N - Seq) / N;
        Bytes += (S.BytesRead + S.BytesWritten) * (N - Seq) / N;
      }
    }
    double Share = ratio(Random, Calls);
    Finding F;
    if (!Random || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, Random, Bytes, Us))
      return;
    F.Proof.push_back({"non_sequential_share", Share, ">=",
                       Rule.param("min_share")});
    F.Ops = Random;
    F.Bytes = Bytes;
    F.TimeUs = Us;
    F.RecoverableUs = 0;
    F.Method = "not estimated: what sequential access would cost depends on "
               "the device and the read-ahead; compare a run (--compare)";
    F.Sites = dataSites();
    accessFiles(F, [](const FileFigures &FF) {
      AccessStats S = FF.S->reachedAccess();
      uint64_t N = S.Reads + S.Writes, Seq = S.SeqReads + S.SeqWrites;
      return N > Seq ? N - Seq : 0;
    });
    F.Summary = std::to_string(Random) + " of " + std::to_string(Calls) +
                " data calls (" + pct(Share) +
                ") start before the end of the previous call (not sequential)";
    add(Rule, std::move(F));
  }

  void redundant(const DiagnosisRule &Rule) {
    uint64_t Again = 0, Bytes = 0, Us = 0;
    for (const FileFigures &FF : R.FilesByTime) {
      AccessStats S = FF.S->reachedAccess();
      uint64_t Moved = S.BytesRead + S.BytesWritten;
      uint64_t Rep = S.RedundantRead + S.RedundantWritten + S.CrossRead +
                     S.CrossWritten;
      Rep = std::min(Rep, Moved);
      Again += Rep;
      Bytes += Moved;
      if (Moved)
        Us += FF.Reached.TimeUs * Rep / Moved;
    }
    double Share = ratio(Again, Bytes);
    Finding F;
    if (!Again || Share < Rule.param("min_share", 1e18) ||
        !supported(Rule, F, 0, Again, Us))
      return;
    F.Proof.push_back({"bytes_moved_again_share", Share, ">=",
                       Rule.param("min_share")});
    F.Bytes = Again;
    F.TimeUs = Us;
    F.RecoverableUs = Us;
    F.Method = "the files' I/O time in proportion to the bytes read or "
               "written again over the same range";
    F.Sites = dataSites();
    accessFiles(F, [](const FileFigures &FF) {
      AccessStats S = FF.S->reachedAccess();
      return S.RedundantRead + S.RedundantWritten + S.CrossRead +
             S.CrossWritten;
    });
    F.Summary = std::to_string(Again) + " B (" + pct(Share) +
                " of the bytes) read or written again over a range already "
                "moved, by the same or another process";
    add(Rule, std::move(F));
  }

  /// Data read back after it was written, the job's data under a share of
  /// the nodes' memory: the reads measured the page cache.
  void cacheBound(const DiagnosisRule &Rule) {
    std::map<std::string, uint64_t> Mem; // host -> mem_total
    for (const RankFigures &RF : R.Ranks)
      if (RF.P->MemTotal)
        Mem[RF.P->Host] = std::max(Mem[RF.P->Host], RF.P->MemTotal);
    uint64_t Memory = 0;
    for (const auto &[H, M] : Mem)
      Memory += M;
    uint64_t Written = 0, ReadBack = 0, ReadUs = 0;
    std::vector<const FileFigures *> Both;
    for (const FileFigures &FF : R.FilesByTime) {
      Written += FF.Reached.BytesWritten;
      if (FF.Reached.BytesWritten && FF.Reached.BytesRead) {
        ReadBack += FF.Reached.BytesRead;
        for (size_t Slot = 0; Slot < NumIoLayers; ++Slot)
          if (Bottom >> Slot & 1u)
            ReadUs += FF.S->ReadTimeUs[Slot];
        Both.push_back(&FF);
      }
    }
    double Share = ratio(Written, Memory);
    Finding F;
    if (!Memory || !ReadBack || Share >= Rule.param("max_memory_share", 0) ||
        !supported(Rule, F, 0, ReadBack, ReadUs))
      return;
    F.Proof.push_back({"data_over_node_memory", Share, "<",
                       Rule.param("max_memory_share")});
    F.Bytes = ReadBack;
    F.TimeUs = ReadUs;
    F.RecoverableUs = 0;
    F.Method = "not a cost: the read bandwidth of this run ("
               + fmt("%.1f", mebibytesPerSecond(ReadBack, ReadUs)) +
               " MiB/s per call) is the page cache's, not the file system's";
    for (const FileFigures *FF : Both)
      if (F.Files.size() < 5)
        F.Files.push_back(file(*FF));
    F.Sites = topSites(
        [&](const SiteRef &S) { return atBottom(S) && S.O() == Op::Read; },
        [](const SiteRef &S) { return S.S->C.Bytes; });
    F.Summary = std::to_string(ReadBack) + " B read back after being written "
                "in the same job, whose " + std::to_string(Written) +
                " B written are " + pct(Share) + " of the nodes' memory";
    add(Rule, std::move(F));
  }

  const Report &R;
  const Aggregate &A;
  const DiagnosisRules &Rules;
  unsigned Bottom = 0;
  std::vector<SiteRef> Sites; // by (function, chain)
  bool MpiIo = false, Hdf5 = false;
  std::vector<std::string> Caveats;
  std::vector<Finding> Out;
};

} // namespace

std::vector<Finding> diagnose(const Report &R, const DiagnosisRules &Rules) {
  return Diagnoser(R, Rules).run();
}

} // namespace dftanalyze
