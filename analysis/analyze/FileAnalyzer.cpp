//===- FileAnalyzer.cpp - One trace file into an Aggregate ----------------===//

#include "FileAnalyzer.h"

#include "AccessPattern.h"
#include "CallSites.h"
#include "Caveats.h"
#include "FoldWatermark.h"
#include "IntervalUnion.h"
#include "NameTable.h"
#include "Remake.h"
#include "Timeline.h"
#include "reader/MetadataRecords.h"
#include "reader/SpanNesting.h"
#include "reader/TraceScanner.h"

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <memory>
#include <unordered_map>

namespace dftanalyze {

using dftrace::Event;
using dftrace::SpanKey;

namespace {

/// Inclusive I/O already credited below a span, per function id. Most
/// spans have a few functions below them: a short list, searched in order.
/// A span with many (a region named per iteration puts one per iteration
/// under main) gets a hash index, and lists merge the smaller into the
/// larger, so the cost stays linear in the spans.
class ChargedList {
public:
  size_t size() const { return Items.size(); }
  /// Fn's credit, or null.
  IoBreakdown *find(uint32_t Fn) {
    if (Index) {
      auto It = Index->find(Fn);
      return It == Index->end() ? nullptr : &Items[It->second].second;
    }
    for (auto &[Id, Credit] : Items)
      if (Id == Fn)
        return &Credit;
    return nullptr;
  }
  /// Adds Credit to Fn's.
  void add(uint32_t Fn, const IoBreakdown &Credit) {
    if (IoBreakdown *Known = find(Fn))
      Known->merge(Credit);
    else
      append(Fn, Credit);
  }
  /// Adds Fn's first credit (find(Fn) is null).
  void append(uint32_t Fn, const IoBreakdown &Credit) {
    Items.emplace_back(Fn, Credit);
    if (Index) {
      Index->emplace(Fn, Items.size() - 1);
    } else if (Items.size() > IndexAbove) {
      Index = std::make_unique<std::unordered_map<uint32_t, size_t>>();
      for (size_t I = 0; I < Items.size(); ++I)
        Index->emplace(Items[I].first, I);
    }
  }
  /// Adds every credit of O (emptying it).
  void take(ChargedList &O) {
    if (size() < O.size())
      std::swap(*this, O);
    for (const auto &[Fn, Credit] : O.Items)
      add(Fn, Credit);
    O.clear();
  }
  void clear() {
    Items.clear(); // keeps its memory for the next span
    Index.reset();
  }

private:
  static constexpr size_t IndexAbove = 16;
  std::vector<std::pair<uint32_t, IoBreakdown>> Items;
  std::unique_ptr<std::unordered_map<uint32_t, size_t>> Index;
};

/// What a span's children told it, until the span itself is read.
struct Pending {
  IoBreakdown Io;        // I/O calls below
  IoBreakdown Unclaimed; // of which no annotated span below claimed
  ChargedList Charged;
  SiteList Sites;         // call sites below that no annotated span claimed
  LazyTally Access;       // data calls below that no annotated span claimed
  uint64_t FirstLine = 0; // of the first child, for the missing-parent issue

  /// Back to Pending{} (SpanTable reuses entries), keeping the lists' memory.
  void reset() {
    Io.clear();
    Unclaimed.clear();
    Charged.clear();
    Sites.clear();
    Access.clear();
    FirstLine = 0;
  }

  void take(Pending &&Up) {
    if (!Up.Io.empty())
      Io.merge(Up.Io);
    if (!Up.Unclaimed.empty())
      Unclaimed.merge(Up.Unclaimed);
    if (Up.Charged.size())
      Charged.take(Up.Charged);
    if (Up.Sites.size())
      Sites.take(Up.Sites);
    Access.take(Up.Access);
  }
};

/// This span's own figures, as handUp needs them.
struct SpanIo {
  IoTotals Call;                // one operation, its time and bytes
  size_t Slot = 0;              // I/O layer
  const MpiCall *Mpi = nullptr; // an MPI-IO read, write or open
  uint32_t Chain = 0;           // its call site's chain (0: not kept)
  SiteCounts Site;
  const AccessCall *Access = nullptr; // a classified POSIX or STDIO data call
};

/// A span with nothing below it, by value: what a subtree of one span
/// hands up, in 64 bytes instead of a Pending.
struct Leaf {
  IoTotals Call;
  uint8_t Slot = 0;
  bool Io = false; // an I/O call; else it hands nothing up
  MpiKind Kind = MpiKind::None;
  bool Open = false, Sized = false;
  uint64_t CommSize = 0;
  uint32_t Chain = 0;
  bool Failed = false, Small = false;
  AccessCall Access; // when valid()
};

/// A subtree read on a thread without p_idx that no span around it has
/// claimed yet (see claim()). Most are single spans (the I/O calls of a
/// loop under main): those keep a Leaf and no Pending.
struct Subtree {
  int64_t Ts, End;
  uint64_t Line;
  Leaf One;              // when Up is null
  Pending *Up = nullptr; // a span with something below it (Nest's pool)
  int64_t end() const { return End; }
};

/// The spans' tree (reader/SpanNesting.h, as dftracer-check builds it):
/// what children hand up is a Pending, a thread's unclaimed span a Subtree.
using Nesting = dftrace::SpanNesting<Pending, Subtree>;

struct FileAcc {
  FileStat Stat;
  uint64_t FirstLine = 0;
  uint64_t Align = 0; // the FS record's unit (0: none yet)
  bool MpiShm = false; // MPI's shared memory, named before its first call
  // Data calls with byte offsets, per layer: POSIX and STDIO (MPI-IO's
  // offsets count etypes of the view, HDF5's calls have none).
  AccessStream Streams[2];

  /// Back to a new FileAcc's state (FileAnalyzer reuses these: building
  /// and freeing a 4 KB record per path of every trace file was a
  /// fourteenth of the instructions on 3,000 small files; issue 41).
  void reset() {
    // Its one rank entry's vector is kept (merge() copies the entries).
    std::vector<FileRank> Ranks = std::move(Stat.Ranks);
    Ranks.clear();
    remake(Stat);
    Stat.Ranks = std::move(Ranks);
    FirstLine = 0;
    Align = 0;
    MpiShm = false;
    for (AccessStream &A : Streams)
      A.reset();
  }
};

/// Entries of a node-based map kept for reuse: a map of a ProcState is
/// emptied into its spares at the end of a file and refilled from them in
/// the next, so the nodes (and a path's string) are not freed and made
/// again for every small file (issue 41). Keeps at most Keep of them, so a
/// large file leaves no large pool behind. The map's iteration order is
/// that of clear() and emplace(): the bucket array is kept either way.
template <class Map> class NodeSpares {
public:
  using Node = typename Map::node_type;
  /// Empties M into the spares.
  void take(Map &M) {
    while (!M.empty()) {
      Node N = M.extract(M.begin());
      if (Spare.size() < Keep)
        Spare.push_back(std::move(N));
    }
  }
  /// M's entry for K, inserted with a value Init() returns, or set by
  /// Reuse(value&) on a spare node, when K is new; New says which.
  template <class InitFn, class ReuseFn>
  typename Map::mapped_type &get(Map &M, const typename Map::key_type &K,
                                 bool &New, InitFn Init, ReuseFn Reuse) {
    auto It = M.find(K);
    New = It == M.end();
    if (!New)
      return It->second;
    if (Spare.empty())
      return M.emplace(K, Init()).first->second;
    Node N = std::move(Spare.back());
    Spare.pop_back();
    N.key() = K;
    Reuse(N.mapped());
    return M.insert(std::move(N)).position->second;
  }

private:
  static constexpr size_t Keep = 256;
  std::vector<Node> Spare;
};

/// A dataset of this process (HDF5_DSET), by dhash.
struct DsetAcc {
  uint64_t FHash = 0;
  std::string Dset;
  DatasetStat Stat;
};

/// Appends a stream's kept values to All and the calls of those it did not
/// keep (OtherCalls) to To's Other: To keeps the top values of All in the
/// end (ValueCounts::keepTopOf).
void gatherValues(const std::vector<ValueCounts::Value> &Kept,
                  uint64_t OtherCalls, ValueCounts &To,
                  std::vector<ValueCounts::Value> &All) {
  All.insert(All.end(), Kept.begin(), Kept.end());
  To.Other += OtherCalls;
}

/// The slot of Streams for an I/O layer slot, or -1.
int streamSlot(size_t Slot) {
  if (Slot == ioSlot(Layer::Posix))
    return 0;
  if (Slot == ioSlot(Layer::Stdio))
    return 1;
  return -1;
}

struct ProcState {
  ProcessStat Stat;
  FoldWatermark Ends; // how far the unions may fold; the threads
  IntervalUnion Unions[NumLayers];
  IntervalUnion IoUnion;
  // By fhash; the records come from and go back to FileAnalyzer's spares.
  std::unordered_map<uint64_t, std::unique_ptr<FileAcc>> Files;
  FileAcc *LastFile = nullptr;                 // Files[LastFHash]
  uint64_t LastFHash = 0;
  std::unordered_map<uint64_t, std::string> Paths;
  std::unordered_map<uint64_t, FsInfo> Fs;      // FS records, by fhash
  std::unordered_map<uint64_t, DsetAcc> Dsets;  // by dhash
  std::unique_ptr<TimelineBuilder> Picture;
  // Call sites claimed: (function id << 32 | chain) -> figures.
  std::unordered_map<uint64_t, SiteCounts> Sites;
  uint64_t MemAlignment = 0; // CM "mem_alignment" (0: not recorded)
  // Per "tuning" record of Stat.Config.Tuning: its fhash, when it has one
  // (the path is named at finish(): an FH line may come later).
  std::vector<std::pair<bool, uint64_t>> TuningFiles;

  // The maps' nodes, kept for the next file's entries (NodeSpares).
  NodeSpares<decltype(Files)> SpareFileNodes;
  NodeSpares<decltype(Paths)> SparePaths;
  NodeSpares<decltype(Sites)> SpareSites;

  /// Site Key's figures (a new entry: zero).
  SiteCounts &site(uint64_t Key) {
    bool New;
    return SpareSites.get(
        Sites, Key, New, [] { return SiteCounts(); },
        [](SiteCounts &C) { C = SiteCounts(); });
  }

  /// Back to a new process's state (FileAnalyzer reuses these), keeping
  /// the memory of its tables.
  void reset() {
    Stat = ProcessStat();
    Ends = FoldWatermark();
    for (IntervalUnion &U : Unions)
      U.clear();
    IoUnion.clear();
    SpareFileNodes.take(Files);
    LastFile = nullptr;
    LastFHash = 0;
    SparePaths.take(Paths);
    Fs.clear();
    Dsets.clear();
    Picture.reset();
    SpareSites.take(Sites);
    MemAlignment = 0;
    TuningFiles.clear();
  }
};

} // namespace

/// One worker's reader of trace files, file after file (WorkerAnalyzer).
/// What a file leaves behind is cleared, not freed, for the next: the
/// tables of open spans, the processes' states, the span names with their
/// function and chain ids (kept from file to file, so a name is looked up
/// and copied once per worker, not per file). Building and destroying
/// them was an eighth of the instructions on 3,000 small files (issue 41).
class FileAnalyzer : public dftrace::TraceScanner {
public:
  explicit FileAnalyzer(const AnalyzeOptions &Options) : Options(Options) {}

  /// Readies a scan() of TracePath (again, with Exact, after finish()
  /// returned false). The previous scan must have ended in finish().
  void start(const std::string &Path, uint32_t Index, bool ExactUnions);
  /// Merges the figures into Out (Opened: scan() could open the file);
  /// false, with Out untouched, when a union needs an exact rerun.
  bool finish(Aggregate &Out, bool Opened);

protected:
  void onEvent(const Event &E, uint64_t Line) override;
  void onProblem(Issue Kind, uint64_t Line, std::string Message) override {
    Agg.addIssue(FileIndex, Line, Kind, std::move(Message));
  }
  void onCaveat(std::string Message) override {
    Agg.Caveats.push_back({FileIndex, std::move(Message)});
  }

private:
  ProcState &process(int64_t Pid) {
    // Files usually hold one pid: the last one is asked first.
    if (LastProc < Procs.size() && Procs[LastProc]->Stat.Pid == Pid)
      return *Procs[LastProc];
    return newProcess(Pid);
  }
  ProcState &newProcess(int64_t Pid); // any other pid, made on first sight
  uint32_t functionId(std::string_view Name);
  /// Function Id's figures in this file (cleared at its first use in it).
  FunctionStat &fn(uint32_t Id) {
    if (FnScan[Id] != Scan) {
      FnScan[Id] = Scan;
      remake(Fns[Id]);
      FnAccess[Id].reset();
      FnUsed.push_back(Id);
    }
    return Fns[Id];
  }
  uint32_t noFunction() {
    if (NoFn == NameTable::NoId)
      NoFn = functionId(NoFunction);
    return NoFn;
  }
  void span(ProcState &P, const Event &E, uint64_t Line);
  void metadata(ProcState &P, const Event &E, uint64_t Line);
  void aggregated(ProcState &P, const Event &E);
  void record(ProcState &P, dftrace::RecordKind K, uint64_t Line);
  void addInterval(ProcState &P, IntervalUnion &U, int64_t Begin, int64_t End);
  FileAcc &file(ProcState &P, uint64_t FHash, uint64_t Line) {
    if (P.LastFile && P.LastFHash == FHash) // calls on a file come in runs
      return *P.LastFile;
    return otherFile(P, FHash, Line);
  }
  FileAcc &otherFile(ProcState &P, uint64_t FHash, uint64_t Line);
  void fileCall(ProcState &P, FileAcc &F, const Event &E,
                const dftrace::IoCall &C, size_t Slot, int64_t Ts,
                uint64_t Dur, AccessCall &Classified);
  void datasetCall(ProcState &P, const Event &E, const dftrace::IoCall &C,
                   uint64_t Dur);
  // Inline: span() is its one caller, and the call passed eight arguments.
  [[gnu::always_inline]] inline void attribute(ProcState &P, const Event &E,
                                               const SpanIo &Call, bool IsIo,
                                               uint32_t Fn, uint64_t Line,
                                               int64_t Ts, int64_t End);
  bool claim(std::vector<Subtree> &Stack, Pending &Mine, const Event &E,
             uint64_t Line, int64_t Ts, int64_t End);
  // claim()'s report, out of line: it kept claim() from being inlined.
  [[gnu::cold]] void unnested(const Event &E, uint64_t Line, int64_t Ts,
                              int64_t End, const Subtree &Top);
  void root(ProcState &P, Pending &Up);
  void rootCall(ProcState &P, const SpanIo &Call);
  void claimSites(ProcState &P, uint32_t Fn, SiteList &Sites);
  /// The data calls below an annotated span (or a root) are function Fn's.
  void claimAccess(uint32_t Fn, LazyTally &Calls);

  const std::string *TracePath = nullptr; // its program names a job
  uint32_t FileIndex = 0;
  const AnalyzeOptions &Options;
  bool Exact = false;
  Aggregate Agg;
  std::vector<std::unique_ptr<ProcState>> Procs;
  std::vector<std::unique_ptr<ProcState>> SpareProcs; // reset(), for reuse
  std::vector<std::unique_ptr<FileAcc>> SpareFiles;   // reset(), for reuse
  std::unordered_map<int64_t, size_t> ProcIndex; // pid -> Procs index
  // Spans another thread still had open when its process finished (never
  // written), by (pid, span id): the open_at_exit records.
  dftrace::OpenAtExitSpans OpenAtExit;
  size_t LastProc = 0; // the last one used: files usually hold one pid
  // Spans whose children were read, by (pid, id), and per thread the
  // subtrees without p_idx not yet claimed.
  Nesting Nest;
  std::deque<std::string> FnNames;
  std::unordered_map<std::string_view, uint32_t> FnIds;
  NameTable Names; // the spans' names, with their function and chain ids
  uint32_t NoFn = NameTable::NoId; // functionId(NoFunction), once asked
  // By function id: this scan's figures where FnScan is Scan (fn()).
  std::vector<FunctionStat> Fns;
  std::vector<AccessSum> FnAccess; // the data calls of Fns' Direct I/O
  std::vector<uint64_t> FnScan;
  std::vector<uint32_t> FnUsed; // the ids fn() cleared in this scan
  uint64_t Scan = 0;
  dftrace::RecordDecoder Records;
  dftrace::MetadataRecord Record;
  ChainTable Chains;

  // Where finish() put this worker's figures in Out (CacheOut): entries
  // of Out's maps, which are never erased while the worker reads, found
  // by ids instead of by their text keys. The keys were built, copied
  // and compared for every site and function of every file (string pairs
  // of a 16-digit job tag and a name: a heap string each; issue 41).
  const Aggregate *CacheOut = nullptr;
  struct JobIds {
    std::unordered_map<std::string, uint32_t> Ids; // jobKey -> id
    std::vector<std::string> Tags;                 // by id: jobTag
  } Jobs;
  // (function id << 32 | chain id) -> Out.Diag.Sites' entry
  std::unordered_map<uint64_t, SiteStat *> SiteOut;
  // (job id << 32 | function id) -> Out.Diag.FunctionRanks' entry
  std::unordered_map<uint64_t, FileRankStat *> PhaseOut;
  std::vector<FunctionStat *> FunctionOut; // by function id: Out.Functions
  // Path (a view of Out.Files' key) -> its entries in Out, those of its
  // last job: Files', and the job's in JobFiles and Diag.FileRanks.
  struct PathOut {
    FileStat *File = nullptr;
    uint32_t Job = ~0u; // JobFile and Rank are this job's (~0u: none yet)
    JobFileStat *JobFile = nullptr;
    FileRankStat *Rank = nullptr; // with Options.Sites
  };
  std::unordered_map<std::string_view, PathOut> PathsOut;
  // finish()'s lists per process, kept for the next file: a process's
  // paths by fhash, and its functions' own I/O time.
  std::vector<std::pair<uint64_t, FileAcc *>> SortedFiles;
  std::vector<std::pair<uint32_t, uint64_t>> PhaseUs;
  // A process's streams' sizes and strides, for its top values.
  std::vector<ValueCounts::Value> RankSizes, RankStrides;
  // The kept values of the stream or function finish() is at.
  TopValues Top;
  /// The id of job key Job (its tag in Jobs.Tags).
  uint32_t jobId(const std::string &Job);
};

uint32_t FileAnalyzer::jobId(const std::string &Job) {
  auto [It, New] =
      Jobs.Ids.try_emplace(Job, static_cast<uint32_t>(Jobs.Tags.size()));
  if (New)
    Jobs.Tags.push_back(jobTag(Job));
  return It->second;
}

void FileAnalyzer::start(const std::string &Path, uint32_t Index,
                         bool ExactUnions) {
  TracePath = &Path;
  FileIndex = Index;
  Exact = ExactUnions;
  remake(Agg);
  for (std::unique_ptr<ProcState> &P : Procs) {
    for (auto &Entry : P->Files) {
      Entry.second->reset();
      SpareFiles.push_back(std::move(Entry.second));
    }
    P->reset();
    SpareProcs.push_back(std::move(P));
  }
  Procs.clear();
  ProcIndex.clear();
  OpenAtExit.clear();
  LastProc = 0;
  ++Scan;
  FnUsed.clear();
}

ProcState &FileAnalyzer::newProcess(int64_t Pid) {
  auto [It, New] = ProcIndex.try_emplace(Pid, Procs.size());
  LastProc = It->second;
  if (!New)
    return *Procs[LastProc];
  std::unique_ptr<ProcState> P;
  if (SpareProcs.empty()) {
    P = std::make_unique<ProcState>();
  } else {
    P = std::move(SpareProcs.back());
    SpareProcs.pop_back();
  }
  P->Stat.FileIndex = FileIndex;
  P->Stat.Pid = Pid;
  if (Options.Timeline)
    P->Picture = std::make_unique<TimelineBuilder>(P->Stat.Picture);
  Procs.push_back(std::move(P));
  return *Procs.back();
}

uint32_t FileAnalyzer::functionId(std::string_view Name) {
  auto It = FnIds.find(Name);
  if (It != FnIds.end())
    return It->second;
  FnNames.emplace_back(Name);
  uint32_t Id = static_cast<uint32_t>(Fns.size());
  FnIds.emplace(FnNames.back(), Id);
  Fns.emplace_back();
  FnAccess.emplace_back();
  FnScan.push_back(0); // fn() clears it for this scan
  return Id;
}

void FileAnalyzer::onEvent(const Event &E, uint64_t Line) {
  ++Agg.Events;
  bool Usable = checkedEvent(E, Line);
  ProcState *P = E.Pid.isInteger() ? &process(E.Pid.I) : nullptr;
  if (P)
    ++P->Stat.Events;
  if (!Usable)
    return;
  if (E.isComplete() && E.isTracerSpan()) // upstream's start/end
    ++Agg.TracerSpans;
  else if (E.isComplete()) // usable spans and metadata have an integer pid
    span(*P, E, Line);
  else if (E.isMetadata())
    metadata(*P, E, Line);
  else if (E.isAggregated())
    aggregated(*P, E);
  else
    ++Agg.OtherPhases;
}

/// Upstream's aggregated record: its calls, time and bytes go to the layer
/// and the function tables; with no place in a stack or on the time axis,
/// its I/O is (no function)'s and is left out of union time.
void FileAnalyzer::aggregated(ProcState &P, const Event &E) {
  ++Agg.AggregatedRecords;
  Layer L = dftrace::layerOf(E);
  dftrace::AggregatedCalls A = dftrace::aggregatedOf(L, E);
  IoTotals Calls{A.Calls, A.Io.O == Op::Read ? A.Io.Bytes : 0,
                 A.Io.O == Op::Write ? A.Io.Bytes : 0, A.DurUs};
  LayerStat &LS = Agg.Layers[static_cast<size_t>(L)];
  LS.Totals.merge(Calls);
  if (dftrace::isIoLayer(L)) {
    LS.ByOp[static_cast<size_t>(A.Io.O)].merge({A.Calls, A.DurUs, A.Io.Bytes});
    if (A.Io.O == Op::Unknown)
      Agg.UnknownOps[{static_cast<uint8_t>(L), std::string(E.Name.S)}] +=
          A.Calls;
    IoBreakdown Io; // the record's calls, once, in its own layer
    Io.addCall(ioSlot(L), Calls, nullptr);
    P.Stat.Io.merge(Io);
    uint32_t Id = noFunction();
    FunctionStat &F = fn(Id);
    F.Direct.merge(Io);
    F.Inclusive.merge(Io);
    if (Options.Sites) {
      uint32_t Chain = Chains.leaf(E.Name.S, L, A.Io.O, dftrace::mpiKindOf(E.Name.S));
      P.site((uint64_t(Id) << 32) | Chain).merge(
          {A.Calls, A.DurUs, A.Io.Bytes, 0, 0, 0, 0});
    }
    return;
  }
  FunctionStat &F = fn(functionId(E.Name.S));
  F.Calls += A.Calls;
  F.TimeUs += A.DurUs;
}

void FileAnalyzer::metadata(ProcState &P, const Event &E, uint64_t Line) {
  ++Agg.MetadataEvents;
  if (E.Name.S == "FH") {
    bool New; // the first FH line of an fhash names it (as emplace)
    P.SparePaths.get(
        P.Paths, E.ArgValue.U, New, [&] { return std::string(E.ArgName.S); },
        [&](std::string &Path) { Path.assign(E.ArgName.S); });
  }
  else if ((E.Name.S == "CM" || E.Name.S == "PR") && E.ArgName.S == "rank")
    P.Stat.Rank = dftrace::fieldText(E.ArgValue);
  else if (E.Name.S == "CM" && E.ArgName.S == "mem_alignment")
    P.MemAlignment = std::strtoull(dftrace::fieldText(E.ArgValue).c_str(),
                                   nullptr, 10);
  else if (dftrace::RecordKind K = dftrace::recordKind(E);
           K != dftrace::RecordKind::None)
    record(P, K, Line);
}

static uint8_t reasonBit(const std::string &Reason) {
  if (Reason == "throttle")
    return ThrottleBit;
  if (Reason == "size_limit")
    return SizeLimitBit;
  if (Reason == "write_error")
    return WriteErrorBit;
  return OtherReasonBit;
}

/// The runtime's records of what the trace leaves out: they are added to
/// the figures they belong to, so totals stay exact (docs/analysis.md).
void FileAnalyzer::record(ProcState &P, dftrace::RecordKind K, uint64_t Line) {
  using dftrace::RecordKind;
  if (!Records.decode(K, lineText(), Record)) {
    Agg.addIssue(FileIndex, Line, Issue::BadField, Records.error());
    return;
  }
  switch (K) {
  case RecordKind::Untraced:
    for (const dftrace::UntracedDir &D : Record.Dirs)
      Agg.Untraced[D.Dir].merge({D.Opens, D.Reads, D.Writes, D.BytesRead,
                                 D.BytesWritten, 1});
    break;
  case RecordKind::Throttled: {
    const dftrace::ThrottledRecord &T = Record.Throttled;
    uint8_t Bit = reasonBit(T.Reason);
    uint8_t Sampled = T.Time == "sampled";
    Agg.Throttled[{T.FCat, T.Function}].merge(
        {T.Calls, T.DurUs, T.Bytes, 1, Bit, Sampled});
    Layer L = dftrace::layerOfCategory(T.FCat);
    LayerStat &LS = Agg.Layers[static_cast<size_t>(L)];
    LS.Throttled.merge({T.Calls, T.DurUs, T.Bytes});
    LS.Totals.Ops += T.Calls;
    LS.Totals.TimeUs += T.DurUs;
    if (dftrace::isIoLayer(L)) {
      // Its operation by name; bytes as the runtime counted them. Union
      // time, files, ranks and size bins cannot hold calls without times.
      Op O = dftrace::opOf(L, T.Function);
      if (O == Op::Read)
        LS.Totals.BytesRead += T.Bytes;
      else if (O == Op::Write)
        LS.Totals.BytesWritten += T.Bytes;
      LS.ByOp[static_cast<size_t>(O)].merge(
          {T.Calls, T.DurUs, dftrace::isDataOp(O) ? T.Bytes : 0});
      break;
    }
    FunctionStat &F = fn(functionId(T.Function));
    F.Calls += T.Calls;
    F.TimeUs += T.DurUs;
    F.ThrottledCalls += T.Calls;
    F.ThrottledUs += T.DurUs;
    F.ThrottleReasons |= Bit;
    F.SampledTime |= Sampled;
    break;
  }
  case RecordKind::TraceEnd:
    P.Stat.Config.HasEnd = true;
    break;
  case RecordKind::OpenAtExit:
    OpenAtExit.emplace(std::make_pair(P.Stat.Pid, Record.OpenAtExit.SpanId),
                       Record.OpenAtExit);
    break;
  case RecordKind::TraceStopped: {
    const dftrace::StoppedRecord &S = Record.Stopped;
    Agg.Stopped.push_back({FileIndex, P.Stat.Pid, S.Reason, S.Error, S.Limit,
                           S.Written, S.TsUs});
    break;
  }
  case RecordKind::LayerBypassed: {
    const dftrace::BypassedRecord &B = Record.Bypassed;
    Agg.Bypassed.push_back(
        {FileIndex, P.Stat.Pid, B.Layer, B.Symbol, B.Library, B.Fix});
    break;
  }
  case RecordKind::FileSystem: {
    const dftrace::FsRecord &R = Record.Fs;
    FsInfo &F = P.Fs[R.FHash];
    F = {R.Type, R.Mount, R.Magic, R.BlockSize, R.StripeSize, R.StripeCount};
    auto It = P.Files.find(R.FHash); // the record came after an event
    if (It != P.Files.end()) {
      It->second->Stat.Fs = F;
      It->second->Align = F.alignUnit();
    }
    break;
  }
  case RecordKind::MpiioHints: {
    const dftrace::HintsRecord &R = Record.Hints;
    MpiFileInfo &M = file(P, R.FHash, Line).Stat.MpiInfo;
    ++M.Opens;
    if (R.HasCommSize)
      ++M.CommSizes[R.CommSize];
    if (R.HasAmode)
      ++M.Amodes[R.Amode];
    for (const auto &[K, V] : R.Hints)
      ++M.Hints[K][V];
    break;
  }
  case RecordKind::Hdf5File: {
    FileStat &F = file(P, Record.Hdf5File.FHash, Line).Stat;
    ++F.Hdf5Opens;
    for (const auto &[K, V] : Record.Hdf5File.Properties)
      ++F.Hdf5Props[K][V];
    break;
  }
  case RecordKind::Hdf5Dataset: {
    const dftrace::Hdf5DsetRecord &R = Record.Hdf5Dset;
    DsetAcc &D = P.Dsets[R.DHash];
    D.FHash = R.FHash;
    D.Dset = R.Dset;
    ++D.Stat.Opens;
    auto List = [](const std::vector<uint64_t> &V) {
      std::string T = "[";
      for (size_t I = 0; I < V.size(); ++I)
        T += (I ? "," : "") + std::to_string(V[I]);
      return T + "]";
    };
    if (!R.Layout.empty())
      ++D.Stat.Props["layout"][R.Layout];
    if (!R.Chunk.empty())
      ++D.Stat.Props["chunk"][List(R.Chunk)];
    if (!R.Dims.empty())
      ++D.Stat.Props["dims"][List(R.Dims)];
    if (R.TypeSize)
      ++D.Stat.Props["type_size"][std::to_string(R.TypeSize)];
    if (!R.FillTime.empty())
      ++D.Stat.Props["fill_time"][R.FillTime];
    break;
  }
  case RecordKind::Node: {
    P.Stat.Host = Record.Node.Hostname;
    P.Stat.MemTotal = Record.Node.MemTotal;
    P.Stat.Cpus = Record.Node.Cpus;
    break;
  }
  case RecordKind::Config: {
    // Once per trace file; a process's first wins (a forked child's file
    // holds its own).
    ProcessConfig &C = P.Stat.Config;
    if (C.HasConfig)
      break;
    dftrace::ConfigRecord &R = Record.Config;
    C.HasConfig = true;
    C.Exe = std::move(R.Exe);
    C.Cwd = std::move(R.Cwd);
    C.Glibc = std::move(R.Glibc);
    C.Launch = std::move(R.Launch);
    C.Argv = std::move(R.Argv);
    C.ArgvDropped = R.ArgvDropped;
    C.EnvDropped = R.EnvDropped;
    C.Env = std::move(R.Env);
    break;
  }
  case RecordKind::Version:
    P.Stat.Config.Versions.emplace(Record.Version.Library,
                                   Record.Version.Version);
    break;
  case RecordKind::MpiJob:
    P.Stat.Config.HasJob = true;
    P.Stat.Config.JobRank = Record.MpiJob.Rank;
    P.Stat.Config.JobSize = Record.MpiJob.Size;
    break;
  case RecordKind::Coverage: {
    // Once per trace file, like CONFIG: a process's first wins.
    CoverageStat &C = P.Stat.Config.Coverage;
    if (C.Has)
      break;
    dftrace::CoverageRecord &R = Record.Coverage;
    C = {true,     std::move(R.Program), R.Sources, R.Annotated,
         R.Failed, R.Excluded,           R.Truncated, {}};
    for (dftrace::CoverageFileRecord &F : R.Files)
      C.Files.push_back(
          {std::move(F.File), std::move(F.Status), std::move(F.Reason)});
    break;
  }
  case RecordKind::Tuning: {
    dftrace::TuningRecord &T = Record.Tuning;
    P.Stat.Config.Tuning.push_back(
        {"", std::move(T.Setting), std::move(T.Key), std::move(T.Requested),
         std::move(T.Op), std::move(T.Source), std::move(T.Before),
         std::move(T.Effect), std::move(T.Status), std::move(T.Reason)});
    P.TuningFiles.emplace_back(T.HasFHash, T.FHash);
    break;
  }
  default:
    break;
  }
}

void FileAnalyzer::addInterval(ProcState &P, IntervalUnion &U, int64_t Begin,
                               int64_t End) {
  if (!U.add(Begin, End))
    return;
  U.fold(Exact ? std::numeric_limits<int64_t>::min() : P.Ends.watermark());
}

void FileAnalyzer::span(ProcState &P, const Event &E, uint64_t Line) {
  ++Agg.Spans;
  // dftrace::layerOf(E), whose category test is inline: a span that got
  // here has a string "cat" (checkEvent).
  Layer L = dftrace::layerOfCategory(E.Cat.S);
  if (L == Layer::Other)
    L = dftrace::layerOf(E); // upstream dev's "type"
  int64_t Ts = dftrace::microseconds(E.Ts);
  int64_t DurI = dftrace::microseconds(E.Dur);
  uint64_t Dur = static_cast<uint64_t>(DurI);
  int64_t End = Ts + DurI;
  ProcessStat &S = P.Stat;
  ++S.Spans;
  S.FirstUs = std::min(S.FirstUs, Ts);
  S.LastUs = std::max(S.LastUs, End);
  P.Ends.ended(E.Tid.I, End);

  LayerStat &LS = Agg.Layers[static_cast<size_t>(L)];
  NameTable::Entry &Name = Names.find(L, E.Name.S);
  dftrace::IoCall C;
  C.L = L;
  bool IsIo = dftrace::isIoLayer(L);
  if (IsIo)
    C = dftrace::classifyIo(L, Name.Call, E);
  SpanIo Self;
  MpiCall Mpi;           // Self.Mpi, for an MPI-IO read, write or open
  AccessCall Classified; // Self.Access, for the function's access figures
  IoTotals &Call = Self.Call;
  Call.add(C, Dur);
  LS.Totals.merge(Call);
  if (IsIo) {
    size_t Slot = ioSlot(L);
    Self.Slot = Slot;
    if (L == Layer::MpiIo && (C.Mpi != MpiKind::None || C.O == Op::Open)) {
      Mpi.Kind = C.Mpi;
      Mpi.DurUs = Dur;
      Mpi.Bytes = C.Bytes;
      if (C.O == Op::Open) {
        Mpi.Open = true;
        uint64_t Size = 0;
        if (Records.commSize(lineText(), Size)) {
          Mpi.Sized = true;
          Mpi.CommSize = Size;
        }
      }
      LS.Mpi.add(Mpi);
      Self.Mpi = &Mpi;
    }
    LS.ByOp[static_cast<size_t>(C.O)].merge({1, Dur, C.Bytes});
    if (C.Failed)
      ++LS.Failed;
    else if (C.O == Op::Read)
      ++LS.ReadBins[dftrace::sizeBin(C.Bytes)];
    else if (C.O == Op::Write)
      ++LS.WriteBins[dftrace::sizeBin(C.Bytes)];
    if (C.O == Op::Unknown)
      ++Agg.UnknownOps[{static_cast<uint8_t>(L), std::string(E.Name.S)}];
    FileAcc *On = E.FHash.present() ? &file(P, E.FHash.U, Line) : nullptr;
    if (Options.Sites) {
      bool Shm = On && On->MpiShm;
      uint32_t &Leaf = Shm ? Name.ShmLeaf : Name.Leaf;
      if (Leaf == NameTable::NoId)
        Leaf = Shm ? Chains.leaf(std::string(E.Name.S) + MpiSharedMemoryCall,
                                 L, C.O, C.Mpi)
                   : Chains.leaf(E.Name.S, L, C.O, C.Mpi);
      Self.Chain = Leaf;
      bool Small = dftrace::isDataOp(C.O) && !C.Failed &&
                   C.Bytes < Options.SmallBytes;
      Self.Site = {1, Dur, C.Bytes, C.Failed ? 1u : 0u, Small ? 1u : 0u,
                   Small ? Dur : 0, Small ? C.Bytes : 0};
    }
    if (On) {
      FileAcc &F = *On;
      F.Stat.Layers[Slot].merge(Call);
      ++F.Stat.Calls[Slot][static_cast<size_t>(C.O)];
      if (dftrace::isMetadataOp(C.O)) {
        ++F.Stat.MetaOps[Slot];
        F.Stat.MetaTimeUs[Slot] += Dur;
      }
      if (Self.Mpi)
        F.Stat.Mpi.add(*Self.Mpi);
      fileCall(P, F, E, C, Slot, Ts, Dur, Classified);
      if (Classified.valid())
        Self.Access = &Classified;
    }
    if (L == Layer::Hdf5 && E.DHash.present() && dftrace::isDataOp(C.O))
      datasetCall(P, E, C, Dur);
    addInterval(P, P.Unions[static_cast<size_t>(L)], Ts, End);
    addInterval(P, P.IoUnion, Ts, End);
    if (P.Picture)
      P.Picture->io(L, Ts, Dur);
  } else if (!E.ParentIdx.present() || E.ParentIdx.U == 0) {
    // Application time: the outermost spans cover all of it.
    addInterval(P, P.Unions[static_cast<size_t>(L)], Ts, End);
  }
  if (P.Picture)
    P.Picture->span(E.Name.S, L, E.Level.isInteger() ? E.Level.I : 1, Ts, Dur,
                    Line);
  if (!IsIo && Name.Fn == NameTable::NoId)
    Name.Fn = functionId(E.Name.S);
  attribute(P, E, Self, IsIo, Name.Fn, Line, Ts, End);
}

FileAcc &FileAnalyzer::otherFile(ProcState &P, uint64_t FHash, uint64_t Line) {
  bool New;
  std::unique_ptr<FileAcc> &Acc = P.SpareFileNodes.get(
      P.Files, FHash, New, [] { return std::unique_ptr<FileAcc>(); },
      [](std::unique_ptr<FileAcc> &) {});
  if (New) {
    if (SpareFiles.empty()) {
      Acc = std::make_unique<FileAcc>();
    } else {
      Acc = std::move(SpareFiles.back());
      SpareFiles.pop_back();
    }
  }
  P.LastFHash = FHash;
  P.LastFile = Acc.get();
  FileAcc &F = *Acc;
  if (New) {
    F.FirstLine = Line;
    F.Stat.Processes = 1; // this one
    auto Named = P.Paths.find(FHash);
    F.MpiShm = Named != P.Paths.end() && mpiSharedMemory(Named->second);
    auto Fs = P.Fs.find(FHash);
    if (Fs != P.Fs.end()) {
      F.Stat.Fs = Fs->second;
      F.Align = Fs->second.alignUnit();
    }
  }
  return F;
}

/// A call's share of its file's figures: time by kind, first open and last
/// close, the slowest data call, and the access pattern of its offsets.
void FileAnalyzer::fileCall(ProcState &P, FileAcc &F, const Event &E,
                            const dftrace::IoCall &C, size_t Slot, int64_t Ts,
                            uint64_t Dur, AccessCall &Classified) {
  FileStat &S = F.Stat;
  if (C.O == Op::Open) {
    S.FirstOpenUs = std::min(S.FirstOpenUs, Ts);
    return;
  }
  if (C.O == Op::Close) {
    S.LastCloseUs = std::max(S.LastCloseUs, Ts + static_cast<int64_t>(Dur));
    return;
  }
  if (E.EtypeSize.isUnsigned() && E.FiletypeSize.isUnsigned()) {
    // MPI_File_set_view: the view it set.
    ++S.MpiInfo.Views[{E.EtypeSize.U, E.FiletypeSize.U,
                       E.FiletypeExtent.isUnsigned() ? E.FiletypeExtent.U : 0,
                       E.Contiguous.isUnsigned() ? E.Contiguous.U : 0}];
    return;
  }
  if (!dftrace::isDataOp(C.O))
    return;
  bool Write = C.O == Op::Write;
  (Write ? S.WriteTimeUs : S.ReadTimeUs)[Slot] += Dur;
  SlowCall &Slow = S.Slowest[Slot];
  if (Dur > Slow.DurUs || Slow.Name.empty()) { // the first of equals
    Slow.DurUs = Dur;
    Slow.Bytes = C.Bytes;
    Slow.Name.assign(E.Name.S);
    Slow.FileIndex = FileIndex;
    Slow.Pid = P.Stat.Pid;
  }
  int Stream = streamSlot(Slot);
  if (Stream < 0 || C.Failed)
    return;
  AccessStream &A = F.Streams[Stream];
  MemAlign Mem{P.MemAlignment, E.MemAlign.present()};
  Classified = E.Offset.isUnsigned()
                   ? A.data(Write, E.Offset.U, C.Bytes, F.Align, Mem)
                   : A.noOffset(Write, Mem);
}

/// An H5Dread or H5Dwrite on a dataset named by an HDF5_DSET record.
void FileAnalyzer::datasetCall(ProcState &P, const Event &E,
                               const dftrace::IoCall &C, uint64_t Dur) {
  DsetAcc &D = P.Dsets[E.DHash.U];
  if (D.Dset.empty() && E.FHash.present())
    D.FHash = E.FHash.U; // no HDF5_DSET record: at least the file
  DatasetStat &S = D.Stat;
  (C.O == Op::Write ? S.Writes : S.Reads).merge({1, Dur, C.Bytes});
  if (E.Xfer.isString()) {
    if (E.Xfer.S == "collective")
      ++S.Collective;
    else if (E.Xfer.S == "independent")
      ++S.Independent;
  }
  if (E.IoMode.isString())
    ++S.IoModes[std::string(E.IoMode.S)];
  if (E.Selection.isUnsigned())
    S.Selection += E.Selection.U;
  if (!C.Failed)
    S.Sizes.add(static_cast<int64_t>(C.Bytes));
}

/// What a span hands its parent, added into Dst (the parent's entry, a
/// subtree, or a root): an I/O call counts once with what it holds in
/// their own layers; an annotated span passes its I/O up (its direct I/O
/// is claimed). Done in place and by parts: these structures are large,
/// and most spans are leaves.
[[gnu::always_inline]] static inline void handUp(Pending &Dst, Pending *Mine,
                                                 const SpanIo &S, bool IsIo,
                                                 ChainTable &Chains) {
  if (IsIo) {
    Dst.Io.addCall(S.Slot, S.Call, S.Mpi);
    Dst.Unclaimed.addCall(S.Slot, S.Call, S.Mpi);
    if (S.Chain)
      Dst.Sites.add(S.Chain, S.Site);
    if (S.Access)
      Dst.Access.add(*S.Access);
    if (Mine) {
      Dst.Io.mergeLayers(Mine->Io);
      Dst.Unclaimed.mergeLayers(Mine->Unclaimed);
      Dst.Access.take(Mine->Access);
      // The calls below are this call's: their chains start with it.
      if (S.Chain && Mine->Sites.size()) {
        for (const auto &[Chain, C] : Mine->Sites.items())
          Dst.Sites.add(Chains.prepend(S.Chain, Chain), C);
        Mine->Sites.clear();
      }
    }
  } else if (Mine && !Mine->Io.empty()) {
    Dst.Io.merge(Mine->Io);
  }
  if (Mine && Mine->Charged.size())
    Dst.Charged.take(Mine->Charged);
}

static Leaf leafOf(const SpanIo &S, bool IsIo) {
  Leaf L;
  L.Call = S.Call;
  L.Slot = static_cast<uint8_t>(S.Slot);
  L.Io = IsIo;
  if (S.Mpi) {
    L.Kind = S.Mpi->Kind;
    L.Open = S.Mpi->Open;
    L.Sized = S.Mpi->Sized;
    L.CommSize = S.Mpi->CommSize;
  }
  L.Chain = S.Chain;
  L.Failed = S.Site.Failed != 0;
  L.Small = S.Site.SmallOps != 0;
  if (S.Access)
    L.Access = *S.Access;
  return L;
}

/// Dst takes what subtree T hands up (T's entry goes back to Nest's pool).
static void takeSubtree(Pending &Dst, Subtree &T, ChainTable &Chains,
                        Nesting &Nest) {
  if (T.Up) {
    Dst.take(std::move(*T.Up));
    Nest.give(T.Up);
    T.Up = nullptr;
    return;
  }
  const Leaf &L = T.One;
  if (!L.Io)
    return;
  MpiCall M{L.Kind, L.Open, L.Sized, L.Call.TimeUs, L.Call.bytes(),
            L.CommSize};
  bool HasMpi = L.Kind != MpiKind::None || L.Open;
  SiteCounts Site{1, L.Call.TimeUs, L.Call.bytes(), L.Failed ? 1u : 0u,
                  L.Small ? 1u : 0u, L.Small ? L.Call.TimeUs : 0,
                  L.Small ? L.Call.bytes() : 0};
  handUp(Dst, nullptr,
         {L.Call, L.Slot, HasMpi ? &M : nullptr, L.Chain, Site,
          L.Access.valid() ? &L.Access : nullptr},
         true, Chains);
}

void FileAnalyzer::attribute(ProcState &P, const Event &E, const SpanIo &Call,
                             bool IsIo, uint32_t Fn, uint64_t Line, int64_t Ts,
                             int64_t End) {
  // The span's children, if any: its entry in Nest, used in place.
  SpanKey Key{E.Pid.I, E.Id.U};
  Pending *Own = Nest.children(Key);
  Pending *Mine = Own;
  Pending *Local = nullptr; // from Nest's pool, when claim() needs one
  // A span without p_idx finds its children, and its parent finds it, by
  // time on its thread; spans with p_idx look there only when a file
  // mixes both (stacked()), so traces of this runtime pay one test.
  bool HasParent = E.ParentIdx.present();
  std::vector<Subtree> *Stack = nullptr;
  bool Nested = true;
  if (!HasParent || Nest.stacked()) {
    Stack = &Nest.thread(E.Pid.I, E.Tid.I);
    if (!Mine)
      Mine = Local = Nest.take();
    Nested = claim(*Stack, *Mine, E, Line, Ts, End);
  }
  if (!IsIo) {
    uint32_t Id = Fn;
    FunctionStat &F = fn(Id);
    ++F.Calls;
    F.TimeUs += Call.Call.TimeUs;
    if (Mine) {
      if (!Mine->Unclaimed.empty())
        F.Direct.merge(Mine->Unclaimed);
      // The calls below that the same function (recursion) already has are
      // not credited again; from here up, all of Mine's I/O is credited.
      if (IoBreakdown *Below = Mine->Charged.find(Id)) {
        F.Inclusive.merge(Mine->Io.minus(*Below));
        *Below = Mine->Io;
      } else if (!Mine->Io.empty()) {
        F.Inclusive.merge(Mine->Io);
        Mine->Charged.append(Id, Mine->Io);
      }
      if (Mine->Sites.size())
        claimSites(P, Id, Mine->Sites);
      if (!Mine->Access.empty())
        claimAccess(Id, Mine->Access);
    }
  }
  auto Done = [&]() __attribute__((always_inline)) {
    if (Own)
      Nest.close(Key, Own);
    if (Local)
      Nest.give(Local);
  };
  if (IsIo && !Mine && HasParent && E.ParentIdx.U == 0) {
    // An I/O call at the top of its thread, nothing below it: what root()
    // does with it, without a Pending to hold it first (the trace of a
    // program with no annotated code is all such calls; issue 41).
    rootCall(P, Call);
    return;
  }
  if (HasParent && E.ParentIdx.U != 0 && E.ParentIdx.U != E.Id.U) {
    auto [Parent, New] = Nest.parent({E.Pid.I, E.ParentIdx.U});
    if (New)
      Parent->FirstLine = Line;
    handUp(*Parent, Mine, Call, IsIo, Chains);
    Done();
    return;
  }
  if (!HasParent && Nested &&
      (!Mine || (Mine->Io.empty() && Mine->Unclaimed.empty() &&
                 !Mine->Charged.size() && !Mine->Sites.size()))) {
    // A single span, its parent (if any) still to come: kept by value.
    Nest.push(*Stack, {Ts, End, Line, leafOf(Call, IsIo), nullptr});
    Done();
    return;
  }
  Pending *Up = Nest.take();
  handUp(*Up, Mine, Call, IsIo, Chains);
  Done();
  if (HasParent && E.ParentIdx.U != 0) {
    // p_idx names the span itself: a parent that never ends, reported as
    // missing at the end of the file.
    auto [Parent, New] = Nest.parent({E.Pid.I, E.ParentIdx.U});
    if (New)
      Parent->FirstLine = Line;
    Parent->take(std::move(*Up));
    Nest.give(Up);
    return;
  }
  if (!HasParent && Nested) {
    // Its parent, if any, ends later: it is read later.
    Nest.push(*Stack, {Ts, End, Line, Leaf(), Up});
    return;
  }
  if (!HasParent)
    ++Agg.Unattributed;
  root(P, *Up);
  Nest.give(Up);
}

/// Spans end in order on a thread and are written when they end, so the
/// subtrees on top of the stack that lie within [Ts, End] (ties inside:
/// times are whole microseconds) are the span's children: they go into
/// Mine (SpanNesting::claim). What is left on top must have ended by Ts; if
/// not, the thread is not in end order (sorted by start, concatenated) and
/// containment would guess: the span is reported, once, the stack is kept,
/// and false returned.
bool FileAnalyzer::claim(std::vector<Subtree> &Stack, Pending &Mine,
                         const Event &E, uint64_t Line, int64_t Ts,
                         int64_t End) {
  const Subtree *Over = Nest.claim(
      Stack, Ts, End, [&](Subtree &T) { takeSubtree(Mine, T, Chains, Nest); });
  if (!Over)
    return true;
  unnested(E, Line, Ts, End, *Over);
  return false;
}

void FileAnalyzer::unnested(const Event &E, uint64_t Line, int64_t Ts,
                            int64_t End, const Subtree &Top) {
  Agg.addIssue(
      FileIndex, Line, Issue::UnnestedSpan,
      "span \"" + std::string(E.Name.S) + "\" [" + std::to_string(Ts) + ", " +
          std::to_string(End) + "] of pid " + std::to_string(E.Pid.I) +
          " tid " + std::to_string(E.Tid.I) + " overlaps the span of line " +
          std::to_string(Top.Line) + " [" + std::to_string(Top.Ts) + ", " +
          std::to_string(Top.End) +
          "] without nesting: the thread's spans are not in the order they "
          "ended (sorted or concatenated?); " +
          (E.ParentIdx.present() ? "its p_idx places it"
                                 : "it is counted as a root"));
}

/// A subtree with nothing above it: its I/O is the process's, and what no
/// annotated span claimed is (no function)'s.
void FileAnalyzer::root(ProcState &P, Pending &Up) {
  P.Stat.Io.merge(Up.Io);
  if (!Up.Unclaimed.empty()) {
    uint32_t Id = noFunction();
    FunctionStat &F = fn(Id);
    F.Direct.merge(Up.Unclaimed);
    F.Inclusive.merge(Up.Unclaimed);
    claimSites(P, Id, Up.Sites);
    claimAccess(Id, Up.Access);
  }
}

/// root() of a Pending that holds only the I/O call S (handUp of S into
/// an empty one): the same figures, added in the same order.
void FileAnalyzer::rootCall(ProcState &P, const SpanIo &S) {
  P.Stat.Io.addCall(S.Slot, S.Call, S.Mpi);
  uint32_t Id = noFunction();
  FunctionStat &F = fn(Id);
  F.Direct.addCall(S.Slot, S.Call, S.Mpi);
  F.Inclusive.addCall(S.Slot, S.Call, S.Mpi);
  if (S.Chain)
    P.site((static_cast<uint64_t>(Id) << 32) | S.Chain).merge(S.Site);
  if (S.Access)
    FnAccess[Id].add(*S.Access);
}

/// The sites below an annotated span (or a root) are its function's.
void FileAnalyzer::claimSites(ProcState &P, uint32_t Fn, SiteList &Sites) {
  for (const auto &[Chain, C] : Sites.items())
    P.site((static_cast<uint64_t>(Fn) << 32) | Chain).merge(C);
  Sites.clear();
}

void FileAnalyzer::claimAccess(uint32_t Fn, LazyTally &Calls) {
  const AccessTally *T = Calls.get();
  if (!T)
    return;
  fn(Fn); // (its figures are this scan's already)
  FnAccess[Fn].add(*T);
  Calls.clear(); // claimed once
}

bool FileAnalyzer::finish(Aggregate &Out, bool Opened) {
  // Subtrees without p_idx that nothing claimed are roots.
  Nest.unclaimed([&](SpanKey K, Subtree &T) {
    Pending *Up = Nest.take();
    takeSubtree(*Up, T, Chains, Nest);
    root(process(K.Pid), *Up);
    Nest.give(Up);
  });
  // Spans whose parent never came: a missing END, or a cut trace.
  // A parent the runtime said was still open on its thread at exit
  // (open_at_exit) is named: its children's I/O is charged to it.
  Nest.orphans([&](SpanKey K, Pending &P) {
    auto Open = OpenAtExit.find({K.Pid, K.Id});
    bool Stopped = std::any_of(
        Agg.Stopped.begin(), Agg.Stopped.end(),
        [&](const StopRecord &R) { return R.Pid == K.Pid; });
    const std::string &Charged = Open != OpenAtExit.end()
                                     ? Open->second.Span
                                     : std::string(UnknownParent);
    Agg.addIssue(FileIndex, P.FirstLine, Issue::MissingParent,
                 "span names parent id " + std::to_string(K.Id) + " of pid " +
                     std::to_string(K.Pid) + ", which is not in the file (" +
                     (Open != OpenAtExit.end()
                          ? "still open on its thread when the process "
                            "finished: see open_at_exit"
                      : Stopped ? "tracing stopped while it was open: see "
                                  "trace_stopped"
                                : "a missing END, or the trace was cut") +
                     "); its I/O is charged to " + Charged);
    process(K.Pid).Stat.Io.merge(P.Io);
    uint32_t Id = functionId(Charged);
    FunctionStat &F = fn(Id);
    F.Direct.merge(P.Unclaimed);
    F.Inclusive.merge(P.Io);
    claimSites(process(K.Pid), Id, P.Sites);
    claimAccess(Id, P.Access);
  });

  // A process whose trace has CONFIG (this runtime's) but no trace_end was
  // killed or lost its node: its I/O after the last event is missing. Not
  // said again when tracing had already stopped on a write error (the
  // trace_stopped record tells why nothing more came).
  for (auto &PP : Procs) {
    const ProcessStat &S = PP->Stat;
    if (!S.Config.HasConfig || S.Config.HasEnd ||
        std::any_of(Agg.Stopped.begin(), Agg.Stopped.end(),
                    [&](const StopRecord &R) {
                      return R.Pid == S.Pid && R.FileIndex == FileIndex &&
                             R.Reason == "write_error";
                    }))
      continue;
    Agg.Stopped.push_back({FileIndex, S.Pid, "unfinished", "", 0, 0,
                           S.Spans ? S.LastUs : -1});
  }

  // A union that needs the exact rerun is known before anything reaches
  // Out, which holds the figures of the worker's other files.
  for (auto &PP : Procs) {
    for (size_t L = 0; L < NumLayers; ++L)
      if (PP->Unions[L].conflict())
        return false;
    if (PP->IoUnion.conflict())
      return false;
  }

  if (CacheOut != &Out) {
    CacheOut = &Out;
    SiteOut.clear();
    PhaseOut.clear();
    PathsOut.clear();
    FunctionOut.clear();
  }
  // What is kept per path, function, dataset and process, the call sites
  // and rank shares included, goes straight into Out: a per-file
  // Aggregate of its own, merged into Out and then destroyed, was a sixth
  // of the instructions on 3,000 small files (issue 41).
  for (auto &PP : Procs) {
    ProcState &P = *PP;
    std::vector<std::pair<uint64_t, FileAcc *>> &Files = SortedFiles;
    Files.clear();
    for (auto &Entry : P.Files)
      Files.emplace_back(Entry.first, Entry.second.get());
    std::sort(Files.begin(), Files.end());
    std::string Rank = processRank(P.Stat);
    // Issue 36: its job's part, keyed by the job already, so that the
    // aggregate holds one entry per job and file, whatever the ranks.
    std::string Job = jobKey(P.Stat, *TracePath);
    uint32_t JobId = jobId(Job);
    const std::string &Tag = Jobs.Tags[JobId];
    for (auto &[Hash, Acc] : Files) {
      auto Path = P.Paths.find(Hash);
      std::string Unnamed;
      const std::string &Name = Path != P.Paths.end() ? Path->second : Unnamed;
      if (Path == P.Paths.end()) {
        Unnamed = "fhash:" + std::to_string(Hash);
        Agg.addIssue(FileIndex, Acc->FirstLine, Issue::MissingFH,
                     "fhash " + std::to_string(Hash) + " of pid " +
                         std::to_string(P.Stat.Pid) +
                         " has no \"FH\" line naming its path");
      }
      auto Known = PathsOut.find(std::string_view(Name));
      if (Known == PathsOut.end()) {
        auto &Entry = *Out.Files.try_emplace(Name).first;
        Known =
            PathsOut.emplace(std::string_view(Entry.first), PathOut()).first;
        Known->second.File = &Entry.second;
      }
      PathOut &To = Known->second;
      FileStat &S = Acc->Stat;
      for (int St = 0; St < 2; ++St) {
        if (!Acc->Streams[St].used())
          continue; // no data call: its figures stay a new FileStat's
        size_t Slot = ioSlot(St == 0 ? Layer::Posix : Layer::Stdio);
        ProcessRanges R;
        R.FileIndex = FileIndex;
        R.Pid = P.Stat.Pid;
        S.Access[Slot] = Acc->Streams[St].finish(R.Read, R.Write, Top);
        // The rank keeps only its top values (keepTopOf below): its
        // streams' lists are gathered and sorted once, not merged one by
        // one into a list then cut to four (issue 41).
        const AccessStats &Stream = S.Access[Slot];
        P.Stat.Access.mergeCounts(Stream);
        gatherValues(Top.Sizes, Stream.Sizes.Other, P.Stat.Access.Sizes,
                     RankSizes);
        gatherValues(Top.Strides, Stream.Strides.Other, P.Stat.Access.Strides,
                     RankStrides);
        // The path's values, straight into its figures in Out (their
        // Other comes with S's below).
        To.File->Access[Slot].Sizes.mergeValues(Top.Sizes);
        To.File->Access[Slot].Strides.mergeValues(Top.Strides);
        if (!R.Read.empty() || !R.Write.empty()) {
          S.RangeCount[Slot] += R.size();
          S.Ranges[Slot].push_back(std::move(R));
        }
      }
      if (To.Job != JobId) {
        To.Job = JobId;
        To.JobFile = &Out.JobFiles[{Job, Name}];
        if (Options.Sites)
          To.Rank = &Out.Diag.FileRanks[{Tag, Name}];
      }
      IoTotals Reached = S.reached();
      S.Ranks.push_back(
          {FileIndex, P.Stat.Pid, Reached.bytes(), Reached.TimeUs});
      if (Options.Sites) {
        // The layer the code called (HDF5, else MPI-IO, else POSIX and
        // STDIO): below MPI-IO, ROMIO's aggregators move the others' data.
        IoTotals Top;
        for (size_t Slot : {ioSlot(Layer::Hdf5), ioSlot(Layer::MpiIo)})
          if (Top.empty() && !S.Layers[Slot].empty())
            Top = S.Layers[Slot];
        if (Top.empty()) {
          Top = S.Layers[ioSlot(Layer::Posix)];
          Top.merge(S.Layers[ioSlot(Layer::Stdio)]);
        }
        To.Rank->add(Top.bytes(), Top.TimeUs, Rank);
      }
      To.JobFile->add(S);
      To.File->merge(std::move(S));
    }
    // Function -> its own I/O calls' time: pairs, summed by function below.
    PhaseUs.clear();
    std::string Label = P.Sites.empty() ? std::string() : siteRank(Tag, Rank);
    for (const auto &[Key, C] : P.Sites) {
      uint32_t Chain = static_cast<uint32_t>(Key);
      const ChainTable::Node &N = Chains.node(Chain);
      if (N.Tail == 0)
        PhaseUs.emplace_back(static_cast<uint32_t>(Key >> 32), C.TimeUs);
      SiteStat *&Site = SiteOut[Key];
      if (!Site)
        Site = &Out.Diag.Sites[{FnNames[Key >> 32], Chains.text(Chain)}];
      Site->mergeOne(C, static_cast<uint8_t>(N.L), static_cast<uint8_t>(N.O),
                     static_cast<uint8_t>(N.Mpi), static_cast<uint8_t>(N.Top),
                     Label);
    }
    std::sort(PhaseUs.begin(), PhaseUs.end());
    size_t Phases = 0;
    for (const auto &[Fn, Us] : PhaseUs)
      if (Phases && PhaseUs[Phases - 1].first == Fn)
        PhaseUs[Phases - 1].second += Us;
      else
        PhaseUs[Phases++] = {Fn, Us};
    PhaseUs.resize(Phases);
    for (const auto &[Fn, Us] : PhaseUs) {
      FileRankStat *&Phase = PhaseOut[(uint64_t(JobId) << 32) | Fn];
      if (!Phase)
        Phase = &Out.Diag.FunctionRanks[{Tag, FnNames[Fn]}];
      Phase->add(0, Us, Rank);
    }
    for (auto &[DHash, D] : P.Dsets) {
      auto Path = P.Paths.find(D.FHash);
      std::string File = Path != P.Paths.end()
                             ? Path->second
                             : "fhash:" + std::to_string(D.FHash);
      D.Stat.Sizes.trim();
      Out.Datasets[{File, D.Dset.empty() ? "dhash:" + std::to_string(DHash)
                                         : D.Dset}]
          .merge(D.Stat);
    }
    for (size_t I = 0; I < P.TuningFiles.size(); ++I) {
      auto [Has, Hash] = P.TuningFiles[I];
      if (!Has)
        continue;
      auto Path = P.Paths.find(Hash);
      P.Stat.Config.Tuning[I].Path = Path != P.Paths.end()
                                         ? Path->second
                                         : "fhash:" + std::to_string(Hash);
    }
    for (size_t L = 0; L < NumLayers; ++L)
      P.Stat.UnionUs[L] = P.Unions[L].total();
    P.Stat.Access.Sizes.keepTopOf(RankSizes);
    P.Stat.Access.Strides.keepTopOf(RankStrides);
    P.Stat.IoUnionUs = P.IoUnion.total();
    P.Stat.Threads = P.Ends.threads();
    if (P.Picture)
      P.Picture->finish();
    Out.Io.merge(P.Stat.Io);
    Out.Processes.push_back(std::move(P.Stat));
  }
  if (FunctionOut.size() < Fns.size())
    FunctionOut.resize(Fns.size());
  for (uint32_t I : FnUsed) {
    Fns[I].Access = FnAccess[I].finish(Top);
    FunctionStat *&To = FunctionOut[I];
    if (!To)
      To = &Out.Functions[FnNames[I]];
    To->merge(Fns[I]);
    To->Access.Sizes.mergeValues(Top.Sizes);
    To->Access.Strides.mergeValues(Top.Strides);
  }
  Agg.Lines = lines();
  Agg.TextBytes = textBytes();
  Agg.FilesUnreadable = Opened ? 0 : 1;
  Out.merge(std::move(Agg));
  return true;
}

WorkerAnalyzer::WorkerAnalyzer(const AnalyzeOptions &Options)
    : Options(Options) {}

WorkerAnalyzer::~WorkerAnalyzer() = default;

void WorkerAnalyzer::analyze(const std::string &Path, uint32_t FileIndex,
                             Aggregate &Into) {
  dftrace::TimeUnit Unit = Options.Unit;
  for (int Pass = 0; Pass < 3; ++Pass) {
    for (bool Exact : {false, true}) {
      if (!A)
        A = std::make_unique<FileAnalyzer>(Options);
      A->start(Path, FileIndex, Exact);
      A->setTimeUnit(Unit, Options.UnitGiven);
      bool Opened = A->scan(Path);
      dftrace::TimeUnit Recorded = A->recordedUnit();
      if (Recorded != dftrace::TimeUnit::Unknown && Recorded != Unit) {
        Unit = Recorded; // recorded at the end of the file: read it again
        A.reset();       // (without finish(): its tables are not cleared)
        break;
      }
      if (A->finish(Into, Opened))
        return;
    }
  }
}

void analyzeFile(const std::string &Path, uint32_t FileIndex,
                 const AnalyzeOptions &Options, Aggregate &Into) {
  WorkerAnalyzer(Options).analyze(Path, FileIndex, Into);
}

Aggregate analyzeFile(const std::string &Path, uint32_t FileIndex,
                      const AnalyzeOptions &Options) {
  Aggregate Out;
  analyzeFile(Path, FileIndex, Options, Out);
  return Out;
}

} // namespace dftanalyze
