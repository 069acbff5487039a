//===- EventTable.cpp - Every span of a set of traces, as columns ---------===//
//
// A FileReader reads one trace file into a Chunk: its rows, each string
// column with its own values (CategoryColumn.h). Every usable span of the
// file takes a slot in the tree (its parent, name and whether it is
// annotated, in the worker's Scratch, reused file after file); only the
// spans the filter keeps get a row. The parent of a span is found when the
// parent is read, which is always later (spans are written when they end),
// so walking the slots backwards resolves each span's function and depth
// from its parent's.
//
// A chunk is a run of consecutive files read in order by one thread: with
// one thread, every file, and the chunk's columns become the table's; with
// more, a few runs per thread, copied into the table in file order. Then
// each string column gets the values its rows use, in order of first use
// (with one run, usually the values it has: nothing is copied).
//
//===----------------------------------------------------------------------===//

#include "EventTable.h"

#include "CategoryColumn.h"

#include "reader/EventCheck.h"
#include "reader/IoTaxonomy.h"
#include "reader/SpanNesting.h"
#include "reader/TraceScanner.h"

#include <fnmatch.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace annotate_traces {
namespace {

using dftrace::Event;
using dftrace::Layer;
using dftrace::SpanKey;
using dftrace::SpanKeyHash;

constexpr uint32_t Root = UINT32_MAX;        // no parent: a root
constexpr uint32_t MissingParent = Root - 1; // a p_idx that never came

/// The children that named a span by p_idx, waiting for it: a list linked
/// through Scratch::Next.
struct Waiting {
  uint32_t Head = Root;
  void reset() { Head = Root; }
};
/// A subtree no span has claimed by time yet (SpanNesting's Item).
struct Unclaimed {
  int64_t Ts, End;
  uint32_t Slot;
  int64_t end() const { return End; }
};

/// Rows as a FileReader writes them: the table's columns, each string
/// column with its own values (code -1: none).
struct Rows {
  PodColumn<int64_t> Pid, Tid, TsUs, DurUs, Bytes;
  PodColumn<double> Start, Dur;
  PodColumn<int32_t> Depth;
  PodColumn<int8_t> Layer, Op;
  OptionalColumn Rank, Offset, Ret;
  CategoryColumn Name, Cat, File, Function, Parent;

  size_t size() const { return Pid.size(); }
  /// Fn(Column) for every column (a PodColumn; a string column's codes).
  template <class F> void forEach(F &&Fn) {
    forEachNumber(Fn);
    for (auto *C : {&Name, &Cat, &File, &Function, &Parent})
      C->withCodes(Fn);
  }
  /// The columns the table takes as they are.
  template <class F> void forEachNumber(F &&Fn) {
    for (auto *C : {&Pid, &Tid, &TsUs, &DurUs, &Bytes})
      Fn(*C);
    Fn(Start);
    Fn(Dur);
    Fn(Depth);
    Fn(Layer);
    Fn(Op);
    for (OptionalColumn *C : {&Rank, &Offset, &Ret}) {
      Fn(C->Values);
      Fn(C->Missing);
    }
  }
};

/// Rows' numeric columns paired with the table's.
template <class F> void forEachNumberPair(EventTable &T, Rows &R, F &&Fn) {
  Fn(T.Pid, R.Pid);
  Fn(T.Tid, R.Tid);
  Fn(T.TsUs, R.TsUs);
  Fn(T.DurUs, R.DurUs);
  Fn(T.Bytes, R.Bytes);
  Fn(T.Start, R.Start);
  Fn(T.Dur, R.Dur);
  Fn(T.Depth, R.Depth);
  Fn(T.Layer, R.Layer);
  Fn(T.Op, R.Op);
  for (auto [To, From] : {std::pair{&T.Rank, &R.Rank},
                          std::pair{&T.Offset, &R.Offset},
                          std::pair{&T.Ret, &R.Ret}}) {
    Fn(To->Values, From->Values);
    Fn(To->Missing, From->Missing);
  }
}

/// Consecutive files read in order by one thread.
struct Chunk {
  uint32_t FirstFile = 0, EndFile = 0;
  Rows R;
  std::vector<size_t> FileRows; // rows of each file, in order
  std::vector<TraceProblem> Problems;
  uint64_t ProblemCount = 0;
  // By Name code: whether the name filter keeps it, -1 not yet judged; its
  // code in Function and in Parent, -1 not yet interned there.
  std::vector<int8_t> NameOk;
  std::vector<int32_t> AsFunction, AsParent;
  std::vector<int8_t> GlobOk; // by File code, as NameOk
};

/// What reading a file needs per span and drops after it: one per thread,
/// reused file after file, so its pages are made ready once.
struct Scratch {
  // Per span of the file, kept or not.
  PodColumn<uint32_t> Parent; // a slot, Root or MissingParent
  PodColumn<uint32_t> Next;   // the next child waiting for the same p_idx
  PodColumn<int32_t> SpanName; // its Name code
  // Not an I/O span: APP, or OTHER (an unknown category), which the
  // analyzer counts as a function too.
  PodColumn<uint8_t> Annotated;
  PodColumn<int32_t> Function, Depth; // Function: a Name code, or below
  // Per row: its slot; its file's hash (HasFHash); kept by the rank and
  // file filters.
  PodColumn<uint32_t> RowSlot;
  PodColumn<uint64_t> FHash;
  PodColumn<uint8_t> HasFHash, Keep;

  void clear() {
    for (auto *C : {&Parent, &Next, &RowSlot})
      C->clear();
    for (auto *C : {&SpanName, &Function, &Depth})
      C->clear();
    for (auto *C : {&Annotated, &HasFHash, &Keep})
      C->clear();
    FHash.clear();
  }
};

bool parseInteger(const std::string &S, int64_t &Out) {
  if (S.empty())
    return false;
  char *End = nullptr;
  errno = 0;
  long long V = std::strtoll(S.c_str(), &End, 10);
  if (errno || *End)
    return false;
  Out = V;
  return true;
}

class FileReader : public dftrace::TraceScanner {
public:
  FileReader(uint32_t FileIndex, const EventFilter &F, Chunk &Out,
             Scratch &S)
      : FileIndex(FileIndex), Filter(F), Out(Out), R(Out.R), S(S),
        Begin(Out.R.size()) {
    S.clear();
  }
  /// The functions, parents, depths, ranks and files of the rows; the rank
  /// and file filters.
  void finish();

protected:
  void onEvent(const Event &E, uint64_t Line) override;
  void onProblem(dftrace::Issue Kind, uint64_t Line,
                 std::string Message) override {
    if (++Problems <= MaxProblemsPerFile)
      Out.Problems.push_back(
          {FileIndex, Line, dftrace::issueName(Kind), std::move(Message)});
  }

private:
  void metadata(const Event &E);
  void span(const Event &E);
  bool nameKept(int32_t Code) {
    if (!Filter.ByName)
      return true;
    std::vector<int8_t> &Ok = Out.NameOk;
    if (Ok.size() <= static_cast<size_t>(Code))
      Ok.resize(Code + 1, -1);
    if (Ok[Code] < 0)
      Ok[Code] = std::binary_search(Filter.Names.begin(), Filter.Names.end(),
                                    R.Name.value(Code));
    return Ok[Code];
  }
  bool fileKept(int32_t Code) {
    if (Code < 0)
      return false;
    std::vector<int8_t> &Ok = Out.GlobOk;
    if (Ok.size() <= static_cast<size_t>(Code))
      Ok.resize(Code + 1, -1);
    if (Ok[Code] < 0) {
      Ok[Code] = 0;
      for (const std::string &G : Filter.FileGlobs)
        if (fnmatch(G.c_str(), R.File.value(Code).c_str(), 0) == 0)
          Ok[Code] = 1;
    }
    return Ok[Code];
  }
  /// The category's code: spans share a few, usually the previous span's.
  int32_t category(std::string_view Cat) {
    if (LastCat < 0 || Cat != R.Cat.value(LastCat))
      LastCat = R.Cat.intern(Cat);
    return LastCat;
  }
  /// Name code Code's code in Function (Chunk::AsFunction), or in Parent.
  static int32_t as(std::vector<int32_t> &Map, CategoryColumn &Col,
                    const CategoryColumn &Names, int32_t Code) {
    if (Map.size() <= static_cast<size_t>(Code))
      Map.resize(Names.values(), -1);
    if (Map[Code] < 0)
      Map[Code] = Col.intern(Names.value(Code));
    return Map[Code];
  }

  uint32_t FileIndex;
  const EventFilter &Filter;
  Chunk &Out;
  Rows &R;
  Scratch &S;
  size_t Begin; // the file's first row in R
  int32_t LastCat = -1;
  uint64_t Problems = 0;
  dftrace::SpanNesting<Waiting, Unclaimed> Nest;

  std::unordered_map<int64_t, std::string> Ranks; // pid -> CM "rank"
  std::unordered_map<SpanKey, int32_t, SpanKeyHash> Paths; // (pid, fhash)
};

void FileReader::onEvent(const Event &E, uint64_t Line) {
  if (!checkedEvent(E, Line)) // as dftracer-analyze: counted and skipped
    return;
  if (E.isMetadata())
    metadata(E);
  else if (E.isComplete() && !E.isTracerSpan()) // not upstream's start/end
    span(E);
}

void FileReader::metadata(const Event &E) {
  // As the analyzer reads them (analyze/FileAnalyzer.cpp, metadata()).
  if (E.Name.S == "FH")
    Paths.emplace(SpanKey{E.Pid.I, E.ArgValue.U}, R.File.intern(E.ArgName.S));
  else if ((E.Name.S == "CM" || E.Name.S == "PR") && E.ArgName.S == "rank")
    Ranks[E.Pid.I] = dftrace::fieldText(E.ArgValue);
}

void FileReader::span(const Event &E) {
  Layer L = dftrace::layerOfCategory(E.Cat.S);
  if (L == Layer::Other)
    L = dftrace::layerOf(E); // upstream dev's "type"
  int64_t Ts = dftrace::microseconds(E.Ts);
  int64_t Dur = dftrace::microseconds(E.Dur);
  int64_t End = Ts + Dur;
  int32_t Name = R.Name.intern(E.Name.S);

  // Its slot in the tree, and the children that were waiting for it.
  uint32_t Slot = static_cast<uint32_t>(S.Parent.size());
  S.Parent.push_back(Root);
  S.Next.push_back(Root);
  S.SpanName.push_back(Name);
  S.Annotated.push_back(!dftrace::isIoLayer(L));
  SpanKey Key{E.Pid.I, E.Id.U};
  if (Waiting *W = Nest.children(Key)) {
    for (uint32_t C = W->Head; C != Root; C = S.Next[C])
      S.Parent[C] = Slot;
    Nest.close(Key, W);
  }
  // By time, as FileAnalyzer::attribute: a span without p_idx, or any span
  // when the file mixes both.
  bool HasParentIdx = E.ParentIdx.present();
  bool Nested = true;
  std::vector<Unclaimed> *Stack = nullptr;
  if (!HasParentIdx || Nest.stacked()) {
    Stack = &Nest.thread(E.Pid.I, E.Tid.I);
    Nested = !Nest.claim(*Stack, Ts, End,
                         [&](Unclaimed &U) { S.Parent[U.Slot] = Slot; });
  }
  if (HasParentIdx && E.ParentIdx.U != 0) {
    Waiting *W = Nest.parent({E.Pid.I, E.ParentIdx.U}).first;
    S.Next[Slot] = W->Head;
    W->Head = Slot;
  } else if (!HasParentIdx && Nested) {
    Nest.push(*Stack, Unclaimed{Ts, End, Slot}); // its parent comes later
  } // else a root (p_idx 0, or a span overlapping its thread's last one)

  if (!(Filter.Layers >> static_cast<unsigned>(L) & 1) || !nameKept(Name) ||
      (Filter.HasT0 && End < Filter.T0Us) ||
      (Filter.HasT1 && Ts > Filter.T1Us))
    return;
  S.RowSlot.push_back(Slot);
  R.Pid.push_back(E.Pid.I);
  R.Tid.push_back(E.Tid.I);
  R.TsUs.push_back(Ts);
  R.DurUs.push_back(Dur);
  // As numpy divides: the int64 as a double, then by 1e6.
  R.Start.push_back(static_cast<double>(Ts) / 1e6);
  R.Dur.push_back(static_cast<double>(Dur) / 1e6);
  R.Layer.push_back(static_cast<int8_t>(L));
  R.Name.push_back(Name);
  R.Cat.push_back(E.Cat.isString() ? category(E.Cat.S) : -1);
  if (dftrace::isIoLayer(L)) {
    dftrace::IoCall C = dftrace::classifyIo(L, E);
    R.Op.push_back(static_cast<int8_t>(C.O));
    R.Bytes.push_back(static_cast<int64_t>(C.Bytes));
  } else {
    R.Op.push_back(-1);
    R.Bytes.push_back(0);
  }
  auto Optional = [](OptionalColumn &Col, const dftrace::Field &F) {
    bool Set = F.isInteger();
    Col.Values.push_back(Set ? F.I : 0);
    Col.Missing.push_back(!Set);
  };
  Optional(R.Offset, E.Offset);
  Optional(R.Ret, E.Ret);
  S.FHash.push_back(E.FHash.present() ? E.FHash.U : 0);
  S.HasFHash.push_back(E.FHash.present());
}

void FileReader::finish() {
  // Parents that never came (the analyzer's missing_parent).
  Nest.orphans([&](SpanKey, Waiting &W) {
    for (uint32_t C = W.Head; C != Root; C = S.Next[C])
      S.Parent[C] = MissingParent;
  });
  Nest.clearStacks();
  // A parent's slot is after its children's: walk backwards. Function: a
  // Name code, or one of these.
  constexpr int32_t NoFunction = -2, UnknownParent = -3;
  size_t N = S.Parent.size();
  S.Function.resize(N);
  S.Depth.resize(N);
  for (size_t I = N; I-- > 0;) {
    uint32_t P = S.Parent[I];
    bool Known = P < MissingParent;
    if (Known && P <= I) // cannot happen (parents are read later); be safe
      P = S.Parent[I] = Root, Known = false;
    S.Function[I] = S.Annotated[I] ? S.SpanName[I]
                    : Known        ? S.Function[P]
                    : P == Root    ? NoFunction
                                   : UnknownParent;
    S.Depth[I] = Known ? S.Depth[P] + 1 : 0;
  }

  // Ranks by pid, as integers.
  std::unordered_map<int64_t, std::pair<bool, int64_t>> RankOf;
  for (const auto &[Pid, Text] : Ranks) {
    int64_t V = 0;
    bool Ok = parseInteger(Text, V);
    RankOf[Pid] = {Ok, V};
  }
  // The pseudo-functions' codes, interned when a row first needs them.
  int32_t NoFunctionCode = -1, UnknownFunctionCode = -1, UnknownParentCode = -1;
  auto Once = [](int32_t &Code, CategoryColumn &Col, const char *Name) {
    if (Code < 0)
      Code = Col.intern(Name);
    return Code;
  };
  size_t Count = S.RowSlot.size();
  bool Filtering = Filter.ByRank || !Filter.FileGlobs.empty();
  if (Filtering)
    S.Keep.resize(Count);
  size_t Kept = 0;
  // A file is mostly one process, its spans on a few files: each lookup is
  // the previous row's more often than not.
  int64_t LastPid = 0, LastFilePid = 0;
  uint64_t LastHash = 0;
  bool HasRank = false, HasLast = false, HasLastFile = false;
  int64_t RankValue = 0;
  int32_t LastFile = -1;
  for (size_t K = 0; K < Count; ++K) {
    size_t Row = Begin + K;
    uint32_t Slot = S.RowSlot[K];
    uint32_t P = S.Parent[Slot];
    int32_t F = S.Function[Slot];
    R.Function.push_back(
        F >= 0 ? as(Out.AsFunction, R.Function, R.Name, F)
        : F == NoFunction
            ? Once(NoFunctionCode, R.Function, NoFunctionName)
            : Once(UnknownFunctionCode, R.Function, UnknownParentName));
    R.Parent.push_back(
        P < MissingParent ? as(Out.AsParent, R.Parent, R.Name, S.SpanName[P])
        : P == MissingParent
            ? Once(UnknownParentCode, R.Parent, UnknownParentName)
            : -1);
    R.Depth.push_back(S.Depth[Slot]);
    int64_t Pid = R.Pid[Row];
    if (!HasLast || Pid != LastPid) {
      auto Rk = RankOf.find(Pid);
      HasRank = Rk != RankOf.end() && Rk->second.first;
      RankValue = HasRank ? Rk->second.second : 0;
      LastPid = Pid;
      HasLast = true;
    }
    R.Rank.Values.push_back(RankValue);
    R.Rank.Missing.push_back(!HasRank);
    int32_t File = -1;
    if (S.HasFHash[K]) {
      uint64_t H = S.FHash[K];
      if (!HasLastFile || H != LastHash || Pid != LastFilePid) {
        auto It = Paths.find({Pid, H});
        // No FH line: named as the analyzer names it.
        LastFile = It != Paths.end()
                       ? It->second
                       : R.File.intern("fhash:" + std::to_string(H));
        LastHash = H;
        LastFilePid = Pid;
        HasLastFile = true;
      }
      File = LastFile;
    }
    R.File.push_back(File);
    if (Filtering) {
      bool Keep =
          (!Filter.ByRank ||
           (HasRank && std::binary_search(Filter.Ranks.begin(),
                                          Filter.Ranks.end(), RankValue))) &&
          (Filter.FileGlobs.empty() || fileKept(File));
      S.Keep[K] = Keep;
      Kept += Keep;
    }
  }
  if (Filtering && Kept < Count)
    R.forEach([&](auto &C) {
      size_t J = Begin;
      for (size_t K = 0; K < Count; ++K)
        if (S.Keep[K])
          C[J++] = C[Begin + K];
      C.resize(J);
    });
  Out.ProblemCount += Problems;
}

/// Rows a file may hold, for address space only (PodColumn.h: nothing is
/// used until written): a plain span line takes more than 64 bytes; gzip
/// and the compact format are guessed, and grown past when wrong.
size_t rowsBound(const std::string &Path) {
  std::error_code Ec;
  uint64_t Size = std::filesystem::file_size(Path, Ec);
  if (Ec)
    return 0;
  auto EndsWith = [&](std::string_view S) {
    return Path.size() >= S.size() &&
           Path.compare(Path.size() - S.size(), S.size(), S) == 0;
  };
  return EndsWith(".pfw") ? Size / 64 : Size / 8;
}

/// Reads one file into Out, again in the unit it records when that is not
/// the unit it was read in (analyzeFile does the same).
void readFile(const std::string &Path, uint32_t FileIndex,
              const EventFilter &Filter, const ReadOptions &Options,
              Chunk &Out, Scratch &S, uint8_t &Opened, uint64_t &TextBytes) {
  size_t RowsBegin = Out.R.size(), ProblemsBegin = Out.Problems.size();
  uint64_t CountBegin = Out.ProblemCount;
  dftrace::TimeUnit Unit = Options.Unit;
  for (int Pass = 0; Pass < 3; ++Pass) {
    Out.R.forEach([&](auto &C) { C.resize(RowsBegin); });
    Out.Problems.resize(ProblemsBegin);
    Out.ProblemCount = CountBegin;
    FileReader R(FileIndex, Filter, Out, S);
    R.setTimeUnit(Unit, Options.UnitGiven);
    Opened = R.scan(Path);
    dftrace::TimeUnit Recorded = R.recordedUnit();
    if (Recorded != dftrace::TimeUnit::Unknown && Recorded != Unit &&
        Pass < 2) {
      Unit = Recorded; // recorded at the end of the file: read it again
      continue;
    }
    R.finish();
    TextBytes = R.textBytes();
    Out.FileRows.push_back(Out.R.size() - RowsBegin);
    return;
  }
}

/// Into: the values Col of the chunks uses, each once, in order of first
/// use, and their codes; the chunks' columns are emptied. One chunk whose
/// values are already so (no filter dropped a row that was first to use a
/// value) is moved.
void joinStrings(StringColumn &Into, std::vector<Chunk> &Chunks,
                 CategoryColumn Rows::*Col, size_t Total) {
  std::unordered_map<std::string_view, int32_t> Index;
  std::vector<std::vector<int32_t>> Maps(Chunks.size());
  bool Same = Chunks.size() == 1;
  size_t Values = 0;
  for (size_t I = 0; I < Chunks.size(); ++I) {
    CategoryColumn &C = Chunks[I].R.*Col;
    std::vector<int32_t> &Map = Maps[I];
    Map.assign(C.values(), -1);
    C.withCodes([&](auto &Codes) {
      for (int32_t Code : Codes)
        if (Code >= 0 && Map[Code] < 0) {
          auto [It, New] = Index.try_emplace(C.value(Code),
                                             static_cast<int32_t>(Values));
          Values += New;
          Map[Code] = It->second;
          Same = Same && Map[Code] == Code;
        }
    });
    Same = Same && Values == C.values();
  }
  if (Same) {
    Into = (Chunks[0].R.*Col).release();
    return;
  }
  Into.Values.resize(Values);
  for (auto &[S, Code] : Index)
    Into.Values[Code] = std::string(S);
  Into.Width = codeWidth(Values);
  withCodes(Into, [&](auto &Out) {
    using T = std::remove_reference_t<decltype(Out[0])>;
    Out.resize(Total);
    size_t Row = 0;
    for (size_t I = 0; I < Chunks.size(); ++I) {
      const std::vector<int32_t> &Map = Maps[I];
      CategoryColumn &C = Chunks[I].R.*Col;
      C.withCodes([&](auto &Codes) {
        for (int32_t Code : Codes)
          Out[Row++] = static_cast<T>(Code < 0 ? -1 : Map[Code]);
      });
      C = CategoryColumn();
    }
  });
}

/// Runs of consecutive files, about Jobs * 4 of them of similar sizes, so
/// that threads taking the next run stay busy to the end.
std::vector<Chunk> runsOf(const std::vector<std::string> &Files,
                          unsigned Jobs) {
  std::vector<uint64_t> Size(Files.size());
  uint64_t Total = 0;
  for (size_t I = 0; I < Files.size(); ++I) {
    std::error_code Ec;
    Size[I] = std::filesystem::file_size(Files[I], Ec);
    Total += Ec ? 0 : Size[I];
  }
  size_t Runs = std::min<size_t>(Files.size(), size_t(Jobs) * 4);
  uint64_t Per = Total / std::max<size_t>(Runs, 1) + 1;
  std::vector<Chunk> Chunks;
  uint64_t Acc = 0;
  for (uint32_t I = 0; I < Files.size(); ++I) {
    if (Chunks.empty() || Acc >= Per) {
      Chunks.emplace_back();
      Chunks.back().FirstFile = I;
      Acc = 0;
    }
    Chunks.back().EndFile = I + 1;
    Acc += Size[I];
  }
  return Chunks;
}

} // namespace

EventTable readEvents(const std::vector<std::string> &Files,
                      const EventFilter &Filter, const ReadOptions &Options) {
  EventTable T;
  T.Opened.assign(Files.size(), 0);
  std::vector<uint64_t> Text(Files.size());
  unsigned Jobs = static_cast<unsigned>(
      std::max<size_t>(1, std::min<size_t>(Options.Jobs, Files.size())));
  std::vector<Chunk> Chunks;
  if (Jobs > 1) {
    Chunks = runsOf(Files, Jobs);
  } else { // one run of every file: what the reader writes is the table
    Chunks.emplace_back();
    Chunks[0].EndFile = static_cast<uint32_t>(Files.size());
  }
  std::vector<Scratch> Scratches(Jobs);
  std::atomic<size_t> Next{0};
  // A failure (memory) ends every worker and is thrown here, as Python's
  // MemoryError, not from a thread, which would end the interpreter.
  std::exception_ptr Failure;
  std::mutex FailureLock;
  auto Work = [&](unsigned Slot) {
    for (size_t I; (I = Next.fetch_add(1)) < Chunks.size();) {
      Chunk &C = Chunks[I];
      size_t Bound = 0;
      for (uint32_t F = C.FirstFile; F < C.EndFile; ++F)
        Bound += rowsBound(Files[F]);
      C.R.forEach([&](auto &Col) { Col.reserve(Bound); });
      for (uint32_t F = C.FirstFile; F < C.EndFile; ++F)
        readFile(Files[F], F, Filter, Options, C, Scratches[Slot],
                 T.Opened[F], Text[F]);
    }
  };
  auto Worker = [&](unsigned Slot) {
    try {
      Work(Slot);
    } catch (...) {
      Next = Chunks.size();
      std::lock_guard<std::mutex> Hold(FailureLock);
      if (!Failure)
        Failure = std::current_exception();
    }
  };
  std::vector<std::thread> Threads;
  for (unsigned J = 1; J < Jobs; ++J)
    Threads.emplace_back(Worker, J);
  Worker(0);
  for (std::thread &Th : Threads)
    Th.join();
  if (Failure)
    std::rethrow_exception(Failure);
  Scratches.clear();

  // Joined in file order, whatever thread read which run.
  size_t Total = 0;
  for (Chunk &C : Chunks)
    Total += C.R.size();
  if (Chunks.size() == 1) {
    forEachNumberPair(T, Chunks[0].R,
                      [](auto &To, auto &From) { To = std::move(From); });
  } else {
    forEachNumberPair(T, Chunks[0].R,
                      [&](auto &To, auto &) { To.reserve(Total); });
    for (Chunk &C : Chunks)
      forEachNumberPair(T, C.R, [](auto &To, auto &From) {
        To.append(From.data(), From.size());
        From = std::remove_reference_t<decltype(From)>();
      });
  }
  joinStrings(T.Name, Chunks, &Rows::Name, Total);
  joinStrings(T.Cat, Chunks, &Rows::Cat, Total);
  joinStrings(T.File, Chunks, &Rows::File, Total);
  joinStrings(T.Function, Chunks, &Rows::Function, Total);
  joinStrings(T.Parent, Chunks, &Rows::Parent, Total);
  T.Trace.Values = Files;
  T.Trace.Width = codeWidth(Files.size());
  withCodes(T.Trace, [&](auto &Codes) {
    using Code = std::remove_reference_t<decltype(Codes[0])>;
    Codes.resize(Total);
    size_t Row = 0;
    for (Chunk &C : Chunks)
      for (uint32_t F = C.FirstFile; F < C.EndFile; ++F)
        for (size_t K = C.FileRows[F - C.FirstFile]; K-- > 0;)
          Codes[Row++] = static_cast<Code>(F);
  });
  for (Chunk &C : Chunks) {
    for (TraceProblem &P : C.Problems)
      T.Problems.push_back(std::move(P));
    T.ProblemCount += C.ProblemCount;
  }
  for (uint64_t B : Text)
    T.TextBytes += B;
  return T;
}

} // namespace annotate_traces
