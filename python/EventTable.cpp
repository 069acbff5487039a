//===- EventTable.cpp - Every span of a set of traces, as columns ---------===//
//
// One FileReader per trace file. Every usable span of the file takes a slot
// in the tree (its parent, name and whether it is annotated, 13 bytes);
// only the spans the filter keeps get a row. The parent of a span is found
// when the parent is read, which is always later (spans are written when
// they end), so walking the slots backwards resolves each span's function
// and depth from its parent's.
//
//===----------------------------------------------------------------------===//

#include "EventTable.h"

#include "analyze/Analysis.h"
#include "reader/EventCheck.h"
#include "reader/IoTaxonomy.h"
#include "reader/SpanNesting.h"
#include "reader/TraceScanner.h"

#include <fnmatch.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <string_view>
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
/// through FileReader::Next.
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

/// The strings of one file, each once.
class LocalStrings {
public:
  int32_t intern(std::string_view S) {
    auto It = Index.find(S);
    if (It != Index.end())
      return It->second;
    Store.emplace_back(S);
    int32_t Code = static_cast<int32_t>(Store.size() - 1);
    Index.emplace(Store.back(), Code);
    return Code;
  }
  const std::string &operator[](int32_t Code) const { return Store[Code]; }
  size_t size() const { return Store.size(); }

private:
  std::deque<std::string> Store; // stable addresses for Index's views
  std::unordered_map<std::string_view, int32_t> Index;
};

/// One file's rows; string codes are into Strings.
struct Chunk {
  EventTable T;
  LocalStrings Strings;
  bool Opened = false;
};

/// Keeps the elements of V whose Keep is set, in order.
template <class T>
void compact(std::vector<T> &V, const std::vector<uint8_t> &Keep) {
  size_t J = 0;
  for (size_t I = 0; I < V.size(); ++I)
    if (Keep[I])
      V[J++] = V[I];
  V.resize(J);
}

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
  FileReader(uint32_t FileIndex, const EventFilter &F, Chunk &Out)
      : FileIndex(FileIndex), Filter(F), Out(Out), T(Out.T) {
    NoFunction = Out.Strings.intern(NoFunctionName);
    UnknownParent = Out.Strings.intern(UnknownParentName);
  }
  /// Room for Spans spans (an estimate: growing columns by copies cost a
  /// third of the time; room never touched costs no memory).
  void reserve(size_t Spans);
  /// The functions, parents, depths, ranks and files of the rows; the rank
  /// and file filters.
  void finish();

protected:
  void onEvent(const Event &E, uint64_t Line) override;
  void onProblem(dftrace::Issue Kind, uint64_t Line,
                 std::string Message) override {
    if (++Problems <= MaxProblemsPerFile)
      T.Problems.push_back(
          {FileIndex, Line, dftrace::issueName(Kind), std::move(Message)});
  }

private:
  void metadata(const Event &E);
  void span(const Event &E);
  bool nameKept(int32_t Code) {
    if (!Filter.ByName)
      return true;
    if (NameOk.size() <= static_cast<size_t>(Code))
      NameOk.resize(Code + 1, -1);
    if (NameOk[Code] < 0)
      NameOk[Code] = std::binary_search(Filter.Names.begin(),
                                        Filter.Names.end(), Out.Strings[Code]);
    return NameOk[Code];
  }

  uint32_t FileIndex;
  const EventFilter &Filter;
  Chunk &Out;
  EventTable &T;
  int32_t NoFunction, UnknownParent;
  uint64_t Problems = 0;
  std::vector<int8_t> NameOk; // by name code: -1 not yet judged

  // Per span of the file, kept or not.
  std::vector<uint32_t> Parent; // a slot, Root or MissingParent
  std::vector<uint32_t> Next;   // the next child waiting for the same p_idx
  std::vector<int32_t> SpanName;
  // Not an I/O span: APP, or OTHER (an unknown category), which the
  // analyzer counts as a function too.
  std::vector<uint8_t> Annotated;
  dftrace::SpanNesting<Waiting, Unclaimed> Nest;

  // Per row: its slot, and its file's hash (HasFHash) until finish().
  std::vector<uint32_t> RowSlot;
  std::vector<uint64_t> FHash;
  std::vector<uint8_t> HasFHash;

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
    Paths.emplace(SpanKey{E.Pid.I, E.ArgValue.U},
                  Out.Strings.intern(E.ArgName.S));
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
  int32_t Name = Out.Strings.intern(E.Name.S);

  // Its slot in the tree, and the children that were waiting for it.
  uint32_t Slot = static_cast<uint32_t>(Parent.size());
  Parent.push_back(Root);
  Next.push_back(Root);
  SpanName.push_back(Name);
  Annotated.push_back(!dftrace::isIoLayer(L));
  SpanKey Key{E.Pid.I, E.Id.U};
  if (Waiting *W = Nest.children(Key)) {
    for (uint32_t C = W->Head; C != Root; C = Next[C])
      Parent[C] = Slot;
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
                         [&](Unclaimed &U) { Parent[U.Slot] = Slot; });
  }
  if (HasParentIdx && E.ParentIdx.U != 0) {
    Waiting *W = Nest.parent({E.Pid.I, E.ParentIdx.U}).first;
    Next[Slot] = W->Head;
    W->Head = Slot;
  } else if (!HasParentIdx && Nested) {
    Nest.push(*Stack, Unclaimed{Ts, End, Slot}); // its parent comes later
  } // else a root (p_idx 0, or a span overlapping its thread's last one)

  if (!(Filter.Layers >> static_cast<unsigned>(L) & 1) || !nameKept(Name) ||
      (Filter.HasT0 && End < Filter.T0Us) ||
      (Filter.HasT1 && Ts > Filter.T1Us))
    return;
  RowSlot.push_back(Slot);
  T.Pid.push_back(E.Pid.I);
  T.Tid.push_back(E.Tid.I);
  T.TsUs.push_back(Ts);
  T.DurUs.push_back(Dur);
  T.Layer.push_back(static_cast<int8_t>(L));
  T.Name.Codes.push_back(Name);
  T.Cat.Codes.push_back(E.Cat.isString() ? Out.Strings.intern(E.Cat.S) : -1);
  if (dftrace::isIoLayer(L)) {
    dftrace::IoCall C = dftrace::classifyIo(L, E);
    T.Op.push_back(static_cast<int8_t>(C.O));
    T.Bytes.push_back(static_cast<int64_t>(C.Bytes));
  } else {
    T.Op.push_back(-1);
    T.Bytes.push_back(0);
  }
  auto Optional = [](OptionalColumn &Col, const dftrace::Field &F) {
    bool Set = F.isInteger();
    Col.Values.push_back(Set ? F.I : 0);
    Col.Missing.push_back(!Set);
  };
  Optional(T.Offset, E.Offset);
  Optional(T.Ret, E.Ret);
  FHash.push_back(E.FHash.present() ? E.FHash.U : 0);
  HasFHash.push_back(E.FHash.present());
}

void FileReader::reserve(size_t Spans) {
  for (auto *V : {&Parent, &Next, &RowSlot})
    V->reserve(Spans);
  SpanName.reserve(Spans);
  Annotated.reserve(Spans);
  for (auto *V : {&T.Pid, &T.Tid, &T.TsUs, &T.DurUs, &T.Bytes,
                  &T.Offset.Values, &T.Ret.Values})
    V->reserve(Spans);
  for (auto *V : {&T.Layer, &T.Op})
    V->reserve(Spans);
  for (auto *V : {&T.Name.Codes, &T.Cat.Codes})
    V->reserve(Spans);
  for (auto *V : {&T.Offset.Missing, &T.Ret.Missing, &HasFHash})
    V->reserve(Spans);
  FHash.reserve(Spans);
}

void FileReader::finish() {
  // Parents that never came (the analyzer's missing_parent).
  Nest.orphans([&](SpanKey, Waiting &W) {
    for (uint32_t C = W.Head; C != Root; C = Next[C])
      Parent[C] = MissingParent;
  });
  Nest.clearStacks();
  // A parent's slot is after its children's: walk backwards.
  size_t N = Parent.size();
  std::vector<int32_t> Function(N), Depth(N);
  for (size_t I = N; I-- > 0;) {
    uint32_t P = Parent[I];
    bool Known = P < MissingParent;
    if (Known && P <= I) // cannot happen (parents are read later); be safe
      P = Parent[I] = Root, Known = false;
    Function[I] = Annotated[I]      ? SpanName[I]
                  : Known           ? Function[P]
                  : P == Root       ? NoFunction
                                    : UnknownParent;
    Depth[I] = Known ? Depth[P] + 1 : 0;
  }

  // Ranks by pid, as integers.
  std::unordered_map<int64_t, std::pair<bool, int64_t>> RankOf;
  for (const auto &[Pid, Text] : Ranks) {
    int64_t V = 0;
    bool Ok = parseInteger(Text, V);
    RankOf[Pid] = {Ok, V};
  }
  size_t Rows = RowSlot.size();
  std::vector<uint8_t> Keep(Rows, 1);
  std::vector<int8_t> GlobOk; // by file code: -1 not yet judged
  T.Function.Codes.resize(Rows);
  T.Parent.Codes.resize(Rows);
  T.Depth.resize(Rows);
  T.File.Codes.resize(Rows);
  T.Rank.Values.resize(Rows);
  T.Rank.Missing.resize(Rows);
  T.Trace.assign(Rows, static_cast<int32_t>(FileIndex));
  for (size_t R = 0; R < Rows; ++R) {
    uint32_t S = RowSlot[R];
    uint32_t P = Parent[S];
    T.Function.Codes[R] = Function[S];
    T.Parent.Codes[R] = P < MissingParent   ? SpanName[P]
                        : P == MissingParent ? UnknownParent
                                             : -1;
    T.Depth[R] = Depth[S];
    auto Rk = RankOf.find(T.Pid[R]);
    bool HasRank = Rk != RankOf.end() && Rk->second.first;
    T.Rank.Values[R] = HasRank ? Rk->second.second : 0;
    T.Rank.Missing[R] = !HasRank;
    int32_t File = -1;
    if (HasFHash[R]) {
      auto It = Paths.find({T.Pid[R], FHash[R]});
      // No FH line: named as the analyzer names it.
      File = It != Paths.end()
                 ? It->second
                 : Out.Strings.intern("fhash:" + std::to_string(FHash[R]));
    }
    T.File.Codes[R] = File;
    if (Filter.ByRank &&
        (!HasRank || !std::binary_search(Filter.Ranks.begin(),
                                         Filter.Ranks.end(),
                                         T.Rank.Values[R])))
      Keep[R] = 0;
    if (!Filter.FileGlobs.empty()) {
      bool Ok = false;
      if (File >= 0) {
        if (GlobOk.size() <= static_cast<size_t>(File))
          GlobOk.resize(File + 1, -1);
        if (GlobOk[File] < 0) {
          GlobOk[File] = 0;
          for (const std::string &G : Filter.FileGlobs)
            if (fnmatch(G.c_str(), Out.Strings[File].c_str(), 0) == 0)
              GlobOk[File] = 1;
        }
        Ok = GlobOk[File];
      }
      if (!Ok)
        Keep[R] = 0;
    }
  }
  if (std::find(Keep.begin(), Keep.end(), 0) != Keep.end()) {
    compact(T.Pid, Keep);
    compact(T.Tid, Keep);
    compact(T.TsUs, Keep);
    compact(T.DurUs, Keep);
    compact(T.Bytes, Keep);
    compact(T.Depth, Keep);
    compact(T.Layer, Keep);
    compact(T.Op, Keep);
    for (OptionalColumn *C : {&T.Rank, &T.Offset, &T.Ret}) {
      compact(C->Values, Keep);
      compact(C->Missing, Keep);
    }
    for (StringColumn *C : {&T.Name, &T.Cat, &T.File, &T.Function, &T.Parent})
      compact(C->Codes, Keep);
    compact(T.Trace, Keep);
  }
  T.ProblemCount = Problems;
  T.TextBytes = textBytes();
}

/// Reads one file into Out, again in the unit it records when that is not
/// the unit it was read in (analyzeFile does the same).
void readFile(const std::string &Path, uint32_t FileIndex,
              const EventFilter &Filter, const ReadOptions &Options,
              Chunk &Out) {
  dftrace::TimeUnit Unit = Options.Unit;
  for (int Pass = 0; Pass < 3; ++Pass) {
    Out = Chunk();
    FileReader R(FileIndex, Filter, Out);
    R.setTimeUnit(Unit, Options.UnitGiven);
    // A plain trace's span line takes more than 64 bytes.
    std::error_code Ec;
    uint64_t Size = std::filesystem::file_size(Path, Ec);
    if (!Ec && Path.size() > 4 && Path.compare(Path.size() - 4, 4, ".pfw") == 0)
      R.reserve(Size / 64);
    Out.Opened = R.scan(Path);
    dftrace::TimeUnit Recorded = R.recordedUnit();
    if (Recorded != dftrace::TimeUnit::Unknown && Recorded != Unit &&
        Pass < 2) {
      Unit = Recorded; // recorded at the end of the file: read it again
      continue;
    }
    R.finish();
    return;
  }
}

/// Appends Local's codes to Into, each value once in Into.Values.
class StringMerger {
public:
  void append(StringColumn &Into, const std::vector<int32_t> &Codes,
              const LocalStrings &Strings) {
    std::vector<int32_t> Map(Strings.size(), -1);
    for (int32_t C : Codes) {
      if (C < 0) {
        Into.Codes.push_back(-1);
        continue;
      }
      if (Map[C] < 0) {
        auto [It, New] = Index.try_emplace(Strings[C],
                                           static_cast<int32_t>(Index.size()));
        if (New)
          Into.Values.push_back(Strings[C]);
        Map[C] = It->second;
      }
      Into.Codes.push_back(Map[C]);
    }
  }

private:
  std::unordered_map<std::string, int32_t> Index;
};

template <class T> void append(std::vector<T> &Into, std::vector<T> &From) {
  Into.insert(Into.end(), From.begin(), From.end());
  std::vector<T>().swap(From);
}

} // namespace

EventTable readEvents(const std::vector<std::string> &Files,
                      const EventFilter &Filter, const ReadOptions &Options) {
  std::vector<Chunk> Chunks(Files.size());
  std::vector<uint32_t> All(Files.size());
  for (uint32_t I = 0; I < All.size(); ++I)
    All[I] = I;
  dftanalyze::forEachFile(Files, All, Options.Jobs, [&](uint32_t I, unsigned) {
    readFile(Files[I], I, Filter, Options, Chunks[I]);
  });

  // Joined in file order, whatever thread read which file.
  EventTable T;
  size_t Rows = 0;
  for (const Chunk &C : Chunks)
    Rows += C.T.size();
  for (std::vector<int64_t> *V : {&T.Pid, &T.Tid, &T.TsUs, &T.DurUs, &T.Bytes,
                                  &T.Rank.Values, &T.Offset.Values,
                                  &T.Ret.Values})
    V->reserve(Rows);
  StringMerger Names, Cats, FilePaths, Functions, Parents;
  for (Chunk &C : Chunks) {
    EventTable &F = C.T;
    Names.append(T.Name, F.Name.Codes, C.Strings);
    Cats.append(T.Cat, F.Cat.Codes, C.Strings);
    FilePaths.append(T.File, F.File.Codes, C.Strings);
    Functions.append(T.Function, F.Function.Codes, C.Strings);
    Parents.append(T.Parent, F.Parent.Codes, C.Strings);
    append(T.Pid, F.Pid);
    append(T.Tid, F.Tid);
    append(T.TsUs, F.TsUs);
    append(T.DurUs, F.DurUs);
    append(T.Bytes, F.Bytes);
    append(T.Depth, F.Depth);
    append(T.Layer, F.Layer);
    append(T.Op, F.Op);
    for (auto [To, From] : {std::pair{&T.Rank, &F.Rank},
                            std::pair{&T.Offset, &F.Offset},
                            std::pair{&T.Ret, &F.Ret}}) {
      append(To->Values, From->Values);
      append(To->Missing, From->Missing);
    }
    append(T.Trace, F.Trace);
    T.Opened.push_back(C.Opened);
    for (TraceProblem &P : F.Problems)
      T.Problems.push_back(std::move(P));
    T.ProblemCount += F.ProblemCount;
    T.TextBytes += F.TextBytes;
    C = Chunk();
  }
  T.Trace.shrink_to_fit();
  return T;
}

} // namespace annotate_traces
