//===- Report.cpp - The figures printed from an Aggregate -----------------===//

#include "Report.h"

#include "reader/RecordText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>

namespace dftanalyze {

std::vector<const RankFigures *> ranksBySlowest(const Report &R) {
  // Sorted by (time, position) taken once each: a comparison reading two
  // 1.5 KB records was a third of the JSON report at 100,000 ranks (issue
  // 41). The position keeps ties in rank order, as a stable sort would.
  std::vector<std::pair<uint64_t, size_t>> Keys;
  Keys.reserve(R.Ranks.size());
  for (size_t I = 0; I < R.Ranks.size(); ++I)
    Keys.emplace_back(~R.Ranks[I].P->IoUnionUs, I); // slowest first
  std::sort(Keys.begin(), Keys.end());
  std::vector<const RankFigures *> Order;
  Order.reserve(Keys.size());
  for (const auto &[Time, I] : Keys)
    Order.push_back(&R.Ranks[I]);
  return Order;
}

std::vector<RankQuantile>
rankQuantiles(const std::vector<const RankFigures *> &BySlowest) {
  std::vector<RankQuantile> Out;
  size_t N = BySlowest.size();
  if (!N)
    return Out;
  for (double Q : {0.0, 0.10, 0.25, 0.50, 0.75, 0.90, 0.99, 1.0}) {
    // Nearest rank: the k-th smallest, k = ceil(Q n), at least 1.
    size_t K = static_cast<size_t>(std::ceil(Q * static_cast<double>(N)));
    K = std::min(std::max<size_t>(K, 1), N);
    Out.push_back({Q, BySlowest[N - K]});
  }
  return Out;
}

std::string quantileName(double Q) {
  if (Q <= 0)
    return "min";
  if (Q >= 1)
    return "max";
  return "p" + std::to_string(static_cast<int>(std::lround(Q * 100)));
}

double mebibytesPerSecond(uint64_t Bytes, uint64_t Us) {
  if (Us == 0)
    return 0;
  return (static_cast<double>(Bytes) / 1048576.0) /
         (static_cast<double>(Us) / 1e6);
}

namespace {

bool isNumber(const std::string &S) {
  if (S.empty() || S.size() > 18)
    return false;
  return std::all_of(S.begin(), S.end(),
                     [](char C) { return C >= '0' && C <= '9'; });
}

} // namespace

static std::string oneDecimal(double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.1f", V);
  return Buf;
}

static std::string bytesCell(uint64_t Read, uint64_t Written) {
  std::string S;
  if (Read)
    S += " r " + std::to_string(Read);
  if (Written)
    S += " w " + std::to_string(Written);
  return S;
}

/// "independent 2, collective 4" (MPI-IO data calls by kind).
std::string mpiText(const MpiStat &M) {
  std::string S;
  for (size_t K = 0; K < NumMpiKinds; ++K)
    if (M.Kinds[K].Ops)
      S += (S.empty() ? "" : ", ") +
           std::string(dftrace::mpiKindName(static_cast<MpiKind>(K))) + " " +
           std::to_string(M.Kinds[K].Ops);
  if (M.Opens)
    S += (S.empty() ? "" : ", ") + std::string("opens ") + std::to_string(M.Opens);
  if (M.SizedOpens)
    S += " (comm_size mean " +
         oneDecimal(static_cast<double>(M.CommSizeSum) /
                        static_cast<double>(M.SizedOpens)) +
         ")";
  return S;
}

/// Each I/O layer's calls and bytes, top layer first, with MPI-IO kinds:
/// "HDF5 2 w 1048576; MPIIO 2 w 1048576 (collective 2); POSIX 4 w 1048576".
std::string layersText(const IoTotals (&Layers)[NumIoLayers],
                       const MpiStat &Mpi) {
  std::string S;
  for (size_t L = NumIoLayers; L-- > 0;) {
    const IoTotals &T = Layers[L];
    if (!T.Ops)
      continue;
    S += (S.empty() ? "" : "; ") + std::string(dftrace::layerName(ioLayer(L))) +
         " " + std::to_string(T.Ops) + bytesCell(T.BytesRead, T.BytesWritten);
    if (ioLayer(L) == Layer::MpiIo && !Mpi.empty())
      S += " (" + mpiText(Mpi) + ")";
  }
  return S;
}

std::string processName(const std::string &Label) {
  bool Numeric = !Label.empty() &&
                 Label.find_first_not_of("0123456789") == std::string::npos;
  return Numeric ? "rank " + Label : Label;
}

std::string reasonsText(uint8_t Reasons) {
  static const std::pair<uint8_t, const char *> Names[] = {
      {ThrottleBit, "throttle"},
      {SizeLimitBit, "size_limit"},
      {WriteErrorBit, "write_error"},
      {OtherReasonBit, "other"}};
  std::vector<const char *> Set;
  for (const auto &[Bit, Name] : Names)
    if (Reasons & Bit)
      Set.push_back(Name);
  return dftrace::reasonsText(Set, "+");
}

std::string memAlignText(const AccessCounts &A) {
  if (A.empty())
    return "-";
  if (!A.MemJudged)
    return "unknown, not recorded";
  std::string T = std::to_string(A.MemNotAligned) + " of " +
                  std::to_string(A.MemJudged) + " (unit " +
                  (A.memAlignment() ? std::to_string(A.memAlignment())
                                    : std::to_string(A.MemAlignMin) + "-" +
                                          std::to_string(A.MemAlignMax)) +
                  ")";
  if (A.MemJudged < A.calls())
    T += "; " + std::to_string(A.calls() - A.MemJudged) + " not recorded";
  return T;
}

size_t Report::rankPosition(uint32_t FileIndex, int64_t Pid) const {
  if (size_t(FileIndex) + 1 >= FileStart.size())
    return Ranks.size();
  auto From = RankIndex.begin() + FileStart[FileIndex];
  auto To = RankIndex.begin() + FileStart[FileIndex + 1];
  auto It = std::lower_bound(From, To, Pid, [](const auto &E, int64_t P) {
    return E.first.second < P;
  });
  return It != To && It->first.second == Pid ? It->second : Ranks.size();
}

std::string Report::rankLabel(uint32_t FileIndex, int64_t Pid) const {
  size_t Pos = rankPosition(FileIndex, Pid);
  return Pos < Ranks.size() ? Ranks[Pos].Label : "pid " + std::to_string(Pid);
}

FileRankFigures Report::fileRanks(const FileStat &S) const {
  FileRankFigures F;
  // In rank order, so that ties name the first rank; the four ranks named
  // are labelled once found (a label per process per file was most of the
  // report's time at 100,000 ranks, issue 41).
  std::vector<std::pair<size_t, const FileRank *>> List;
  List.reserve(S.Ranks.size());
  for (const FileRank &Fr : S.Ranks)
    List.emplace_back(rankPosition(Fr.FileIndex, Fr.Pid), &Fr);
  std::stable_sort(List.begin(), List.end(), [](const auto &X, const auto &Y) {
    return X.first < Y.first;
  });
  F.Ranks = List.size();
  if (List.empty())
    return F;
  double SumB = 0, SumT = 0;
  size_t MinB = 0, MaxB = 0, MinT = 0, MaxT = 0; // into List
  for (size_t K = 0; K < List.size(); ++K) {
    const FileRank &Fr = *List[K].second;
    if (Fr.Bytes < List[MinB].second->Bytes)
      MinB = K;
    if (Fr.Bytes > List[MaxB].second->Bytes)
      MaxB = K;
    if (Fr.TimeUs < List[MinT].second->TimeUs)
      MinT = K;
    if (Fr.TimeUs > List[MaxT].second->TimeUs)
      MaxT = K;
    SumB += static_cast<double>(Fr.Bytes);
    SumT += static_cast<double>(Fr.TimeUs);
  }
  auto Label = [&](size_t K) {
    return List[K].first < Ranks.size()
               ? Ranks[List[K].first].Label
               : "pid " + std::to_string(List[K].second->Pid);
  };
  F.MinBytes = List[MinB].second->Bytes, F.MinBytesRank = Label(MinB);
  F.MaxBytes = List[MaxB].second->Bytes, F.MaxBytesRank = Label(MaxB);
  F.MinTimeUs = List[MinT].second->TimeUs, F.MinTimeRank = Label(MinT);
  F.MaxTimeUs = List[MaxT].second->TimeUs, F.MaxTimeRank = Label(MaxT);
  double N = static_cast<double>(List.size());
  double MeanB = SumB / N, MeanT = SumT / N;
  for (const auto &[Pos, Fr] : List) {
    double DB = static_cast<double>(Fr->Bytes) - MeanB;
    double DT = static_cast<double>(Fr->TimeUs) - MeanT;
    F.BytesVariance += DB * DB / N;
    F.TimeVariance += DT * DT / N;
  }
  return F;
}

std::string traceProgram(const std::string &File) {
  // Views, one string made: this runs for every trace file (its job) and
  // every process of the report (issue 41).
  std::string_view Name = File;
  size_t Slash = Name.find_last_of('/');
  Name.remove_prefix(Slash == std::string_view::npos ? 0 : Slash + 1);
  // The runtime's names: PREFIX-<16 hex digits>-app.pfw (runtime/src/sink.c)
  size_t App = Name.rfind("-app.");
  if (App != std::string_view::npos && App >= 17 && Name[App - 17] == '-' &&
      Name.find_first_not_of("0123456789abcdef", App - 16) == App)
    return std::string(Name.substr(0, App - 17));
  return std::string(Name.substr(0, Name.find('-')));
}

Report::Report(const Aggregate &A) : A(A) {
  // Ranks first: the layers name their slowest one. Traces of several
  // programs (the demo's kernels, a writer then a reader) repeat rank
  // numbers: then the label also names the program. A program is what the
  // CONFIG records say (the executable's name; launches of one executable
  // with other arguments numbered "name#2"), else the trace file name's
  // prefix (traceProgram): "my-run" and "my-test" are two programs.
  // Two launches of one command (CONFIG's "launch") are two programs too.
  using Key =
      std::tuple<bool, std::string, std::vector<std::string>, std::string>;
  auto KeyOf = [&](const ProcessStat &P) {
    const ProcessConfig &C = P.Config;
    if (C.HasConfig)
      return Key{true, C.Exe, C.Argv, C.Launch};
    return Key{false,
               P.FileIndex < A.FileNames.size()
                   ? traceProgram(A.FileNames[P.FileIndex])
                   : std::string(),
               {},
               {}};
  };
  // Each process's key is made once (NameOf: std::map keeps the address
  // of a value), and the ranks are sorted by precomputed keys: at 100,000
  // processes, keys and rank numbers made per comparison were a second of
  // the report (issue 41).
  std::map<Key, std::string> Names;
  std::vector<const std::string *> NameOf;
  NameOf.reserve(A.Processes.size());
  for (const ProcessStat &P : A.Processes)
    NameOf.push_back(&Names[KeyOf(P)]);
  std::map<std::string, size_t> Shared, Numbered;
  auto Base = [](const Key &K) {
    if (!std::get<0>(K))
      return std::get<1>(K);
    std::string E = std::get<1>(K);
    if (E.empty() && !std::get<2>(K).empty())
      E = std::get<2>(K)[0];
    return E.substr(E.find_last_of('/') == std::string::npos
                        ? 0
                        : E.find_last_of('/') + 1);
  };
  for (const auto &[K, Name] : Names)
    ++Shared[Base(K)];
  size_t Configured = 0;
  for (auto &[K, Name] : Names) {
    Name = Base(K);
    if (Shared[Name] > 1)
      Name += "#" + std::to_string(++Numbered[Name]);
    Configured += std::get<0>(K);
  }
  // By program, numbered ranks first and in number order, else in the
  // processes' (file, pid) order. Each rank's number is read once, here.
  struct Order {
    const std::string *Program;
    bool Numbered;
    unsigned long long Number;
    size_t Index; // into A.Processes
  };
  static const std::string NoProgram;
  std::vector<Order> Sorted;
  Sorted.reserve(A.Processes.size());
  // And whether a rank repeats. A rank of digits is (length, value): two
  // of one length are equal when their values are. Only other ranks are
  // compared as text (sorting 100,000 ranks as strings was a sixth of the
  // report, issue 41).
  std::vector<std::pair<size_t, unsigned long long>> Numbers;
  std::vector<std::string_view> Others;
  Numbers.reserve(A.Processes.size());
  for (size_t I = 0; I < A.Processes.size(); ++I) {
    const std::string &Rank = A.Processes[I].Rank;
    bool Num = isNumber(Rank);
    unsigned long long Number =
        Num ? std::strtoull(Rank.c_str(), nullptr, 10) : 0;
    Sorted.push_back({&NoProgram, Num, Number, I});
    if (Num)
      Numbers.emplace_back(Rank.size(), Number);
    else if (!Rank.empty())
      Others.push_back(Rank);
  }
  std::sort(Numbers.begin(), Numbers.end());
  std::sort(Others.begin(), Others.end());
  bool Repeated =
      std::adjacent_find(Numbers.begin(), Numbers.end()) != Numbers.end() ||
      std::adjacent_find(Others.begin(), Others.end()) != Others.end();
  Numbers = {};
  Others = {};
  if (Repeated || Configured > 1) // several programs: each rank names its
    for (Order &O : Sorted)
      if (!A.FileNames.empty() || A.Processes[O.Index].Config.HasConfig)
        O.Program = NameOf[O.Index];
  std::sort(Sorted.begin(), Sorted.end(), [](const Order &X, const Order &Y) {
    // One program's processes share its name (NoProgram, or a name in
    // Names): the text is compared only between programs.
    if (X.Program != Y.Program && *X.Program != *Y.Program)
      return *X.Program < *Y.Program;
    if (X.Numbered != Y.Numbered)
      return X.Numbered; // numbered ranks first
    return std::tie(X.Number, X.Index) < std::tie(Y.Number, Y.Index);
  });
  Ranks.reserve(Sorted.size());
  for (const Order &O : Sorted) {
    const ProcessStat &P = A.Processes[O.Index];
    std::string Label = processRank(P);
    if (O.Program != &NoProgram)
      Label = *O.Program + ":" + Label;
    Ranks.push_back({&P, std::move(Label), *O.Program});
  }
  RankIndex.reserve(Ranks.size());
  uint32_t Files = 0;
  for (size_t I = 0; I < Ranks.size(); ++I) {
    RankIndex.push_back({{Ranks[I].P->FileIndex, Ranks[I].P->Pid}, I});
    Files = std::max(Files, Ranks[I].P->FileIndex + 1);
  }
  std::sort(RankIndex.begin(), RankIndex.end());
  FileStart.assign(size_t(Files) + 1, 0);
  for (const auto &E : RankIndex)
    ++FileStart[E.first.first + 1];
  for (size_t F = 1; F < FileStart.size(); ++F)
    FileStart[F] += FileStart[F - 1];
  FirstUs = std::numeric_limits<int64_t>::max();
  LastUs = std::numeric_limits<int64_t>::min();
  uint64_t IoSum = 0;
  for (const RankFigures &R : Ranks) {
    if (R.P->Spans) {
      FirstUs = std::min(FirstUs, R.P->FirstUs);
      LastUs = std::max(LastUs, R.P->LastUs);
    }
    IoSum += R.P->IoUnionUs;
    if (!Slowest || R.P->IoUnionUs > Slowest->P->IoUnionUs)
      Slowest = &R;
  }
  if (FirstUs > LastUs)
    FirstUs = LastUs = 0;
  if (!Ranks.empty()) {
    MeanIoUs = static_cast<double>(IoSum) / static_cast<double>(Ranks.size());
    Imbalance = MeanIoUs > 0
                    ? static_cast<double>(Slowest->P->IoUnionUs) / MeanIoUs
                    : 0;
  }

  for (size_t I = 0; I < NumLayers; ++I) {
    const LayerStat &S = A.Layers[I];
    if (!S.Totals.Ops)
      continue;
    LayerFigures F;
    F.L = static_cast<Layer>(I);
    F.S = &S;
    for (const RankFigures &R : Ranks) {
      uint64_t Us = R.P->UnionUs[I];
      F.UnionSumUs += Us;
      if (F.UnionMaxRank.empty() || Us > F.UnionMaxUs) {
        F.UnionMaxUs = Us;
        F.UnionMaxRank = R.Label;
      }
    }
    uint64_t Bytes = S.Totals.BytesRead + S.Totals.BytesWritten;
    F.BandwidthSlowestMiBs = mebibytesPerSecond(Bytes, F.UnionMaxUs);
    F.BandwidthPerCallMiBs = mebibytesPerSecond(Bytes, S.Totals.TimeUs);
    for (size_t O = 0; O < NumOps; ++O) {
      Op Kind = static_cast<Op>(O);
      OpStat &To = dftrace::isDataOp(Kind)       ? F.Data
                   : dftrace::isMetadataOp(Kind) ? F.Metadata
                                                 : F.Other;
      To.merge(S.ByOp[O]);
    }
    if (S.Totals.TimeUs) {
      F.MetadataFraction = static_cast<double>(F.Metadata.TimeUs) /
                           static_cast<double>(S.Totals.TimeUs);
      F.DataFraction = static_cast<double>(F.Data.TimeUs) /
                       static_cast<double>(S.Totals.TimeUs);
    }
    Layers.push_back(F);
  }

  for (const auto &[Name, S] : A.Functions)
    Functions.push_back({Name, &S});
  std::stable_sort(Functions.begin(), Functions.end(),
                   [](const FunctionFigures &X, const FunctionFigures &Y) {
                     return std::make_tuple(Y.S->Inclusive.Once.TimeUs,
                                            Y.S->Direct.Once.TimeUs,
                                            Y.S->TimeUs) <
                            std::make_tuple(X.S->Inclusive.Once.TimeUs,
                                            X.S->Direct.Once.TimeUs,
                                            X.S->TimeUs);
                   });
  for (const FunctionFigures &F : Functions)
    if (!F.S->Access.empty())
      FunctionsWithAccess.push_back(&F);
  for (const auto &[Path, S] : A.Files) {
    FilesByTime.push_back(
        {Path, &S, S.reached(), S.reachedMetaOps(), S.reachedMetaTimeUs()});
    const IoTotals &T = FilesByTime.back().Reached;
    ++(T.BytesRead && T.BytesWritten ? FileClasses.ReadWrite
       : T.BytesRead                 ? FileClasses.ReadOnly
       : T.BytesWritten              ? FileClasses.WriteOnly
                                     : FileClasses.NoData);
  }
  FilesByBytes = FilesByTime;
  std::stable_sort(FilesByTime.begin(), FilesByTime.end(),
                   [](const FileFigures &X, const FileFigures &Y) {
                     return X.Reached.TimeUs > Y.Reached.TimeUs;
                   });
  std::stable_sort(FilesByBytes.begin(), FilesByBytes.end(),
                   [](const FileFigures &X, const FileFigures &Y) {
                     return X.Reached.bytes() > Y.Reached.bytes();
                   });

  // The runtime's records, labelled by their process's place in Ranks
  // (RankIndex: two maps over every rank were a sixth of the report at
  // 100,000 ranks, issue 41).
  auto Label = [&](uint32_t File, int64_t Pid) {
    size_t Pos = rankPosition(File, Pid);
    return std::make_pair(Pos, Pos < Ranks.size()
                                   ? Ranks[Pos].Label
                                   : "pid " + std::to_string(Pid));
  };
  std::map<std::tuple<std::string, std::string, std::string, std::string>,
           std::vector<std::pair<size_t, std::string>>>
      Groups;
  std::map<std::tuple<std::string, std::string, std::string, std::string>,
           const BypassRecord *>
      First;
  for (const BypassRecord &B : A.Bypassed) {
    auto Key = std::make_tuple(B.Layer, B.Symbol, B.Library, B.Fix);
    Groups[Key].push_back(Label(B.FileIndex, B.Pid));
    First.emplace(Key, &B);
  }
  for (auto &[Key, List] : Groups) {
    std::sort(List.begin(), List.end());
    List.erase(std::unique(List.begin(), List.end()), List.end());
    BypassFigures F{First[Key], {}};
    for (auto &[Pos, Name] : List)
      F.Ranks.push_back(Name);
    Bypassed.push_back(std::move(F));
  }
  std::vector<std::pair<size_t, StopFigures>> Stops;
  for (const StopRecord &S : A.Stopped) {
    auto [Pos, Name] = Label(S.FileIndex, S.Pid);
    Stops.push_back({Pos, {&S, Name}});
  }
  std::stable_sort(Stops.begin(), Stops.end(),
                   [](const auto &X, const auto &Y) { return X.first < Y.first; });
  for (auto &[Pos, F] : Stops)
    Stopped.push_back(std::move(F));
  for (const auto &[Key, S] : A.Throttled)
    Throttled.push_back({Key.first, Key.second, &S});
  std::stable_sort(Throttled.begin(), Throttled.end(),
                   [](const ThrottleFigures &X, const ThrottleFigures &Y) {
                     return X.S->DurUs > Y.S->DurUs;
                   });
  for (const auto &[Dir, U] : A.Untraced) {
    UntracedCalls += U.calls();
    UntracedBytes += U.BytesRead + U.BytesWritten;
  }
}

} // namespace dftanalyze
