//===- TextReport.cpp - The report as text tables -------------------------===//
//
// \code
//   dftracer-analyze: 2 files, 1234 events, 2 ranks, 0 issues
//
//   layer        ops    time_s  union_s  slowest_s  ... MiB/s
//   APP           12  0.004210 ...
// \endcode
//
// Times are seconds with six decimals (exact microseconds), bytes are
// exact integers.
//
//===----------------------------------------------------------------------===//

#include "ConfigurationOutput.h"
#include "Output.h"
#include "analyze/Caveats.h"
#include "analyze/Configuration.h"
#include "Seconds.h"
#include "reader/RecordText.h"

#include <cmath>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace dftanalyze {

namespace {

std::string num(uint64_t V) { return std::to_string(V); }

std::string fixed(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Digits, V);
  return Buf;
}

std::string percent(double Fraction) { return fixed(100 * Fraction, 1) + "%"; }

/// A time that is in part the runtime's estimate (a throttled record with
/// "time":"sampled", docs/runtime.md): marked `~`, with SampledNote below
/// the table.
std::string estimated(uint8_t Sampled, std::string Text) {
  return Sampled ? "~" + Text : Text;
}
const char *const SampledNote =
    "  (~: the time includes throttled calls' sampled estimate, 1 call in "
    "DFTRACER_THROTTLE_SAMPLE timed; calls are exact)\n";

/// Columns padded to their widest cell; the first left-aligned.
class Table {
public:
  explicit Table(std::vector<std::string> Header) { Rows.push_back(std::move(Header)); }
  void row(std::vector<std::string> Cells) { Rows.push_back(std::move(Cells)); }
  void print(std::ostream &Os, const std::string &Indent = "  ") const {
    std::vector<size_t> W;
    for (const auto &R : Rows)
      for (size_t I = 0; I < R.size(); ++I) {
        if (W.size() <= I)
          W.push_back(0);
        W[I] = std::max(W[I], R[I].size());
      }
    for (const auto &R : Rows) {
      std::string Line = Indent;
      for (size_t I = 0; I < R.size(); ++I) {
        std::string Pad(W[I] - R[I].size(), ' ');
        Line += I == 0 ? R[I] + Pad : "  " + Pad + R[I];
      }
      while (!Line.empty() && Line.back() == ' ')
        Line.pop_back();
      Os << Line << "\n";
    }
  }

private:
  std::vector<std::vector<std::string>> Rows;
};

/// What the runtime says the trace does not hold: first, so it is seen.
/// A record's line says how many processes wrote it (dftracer-check prints
/// one per process); the phrases are shared with it (reader/RecordText.h).
void printRecords(std::ostream &Os, const Report &R, size_t Top) {
  for (const BypassFigures &B : R.Bypassed) {
    Os << "layer bypassed: "
       << dftrace::bypassedText(B.B->Layer, B.B->Symbol, B.B->Library) << " in "
       << B.Ranks.size() << " process" << (B.Ranks.size() == 1 ? "" : "es")
       << " (";
    for (size_t I = 0; I < B.Ranks.size() && I < Top; ++I)
      Os << (I ? ", " : "") << processName(B.Ranks[I]);
    if (B.Ranks.size() > Top)
      Os << ", ...";
    Os << "): that layer is missing from this report"
       << dftrace::fixText(B.B->Fix) << "\n";
  }
  for (size_t I = 0; I < R.Stopped.size(); ++I) {
    if (I == Top) {
      Os << "trace stopped: ... " << R.Stopped.size() - Top
         << " more processes (--json lists them)\n";
      break;
    }
    const StopRecord &S = *R.Stopped[I].S;
    if (S.Reason == "unfinished") {
      std::string Name = processName(R.Stopped[I].Rank);
      Os << "trace unfinished: " << Name;
      if (Name.rfind("pid ", 0) != 0)
        Os << " (pid " << S.Pid << ")";
      Os << ": the trace ends";
      if (S.TsUs >= 0 && S.TsUs >= R.FirstUs)
        Os << " at " << secondsText(static_cast<uint64_t>(S.TsUs - R.FirstUs))
           << " s after the first event";
      Os << " without finishing (no trace_end record): killed? I/O after that"
            " is missing\n";
      continue;
    }
    Os << "trace stopped: " << processName(R.Stopped[I].Rank) << ": "
       << dftrace::stoppedText(S.Reason, S.Error);
    if (S.Limit || S.Written)
      Os << dftrace::budgetText(S.Written, S.Limit);
    if (S.TsUs >= 0 && R.LastUs > R.FirstUs && S.TsUs >= R.FirstUs)
      Os << ", " << secondsText(static_cast<uint64_t>(S.TsUs - R.FirstUs))
         << " s after the first event";
    Os << "; later spans are only counted (the throttled table); fix: "
       << (S.Reason == "size_limit"
               ? "raise DFTRACER_MAX_TRACE_SIZE, or exclude hot functions "
                 "(dftracer-analyze --suggest-filter)"
               : "free space on the trace's file system, or trace to another "
                 "directory")
       << "\n";
  }
  for (const auto &[Dir, U] : R.A.Untraced)
    dftrace::printUntraced(
        Os, {Dir, U.Opens, U.Reads, U.Writes, U.BytesRead, U.BytesWritten},
        U.Processes);
  // What the function names do not hold (issue 38): sources the build left
  // unannotated, or no annotation at all.
  for (const std::string &C : coverageCaveats(R))
    Os << "coverage: " << C << "\n";
  if (std::string H = functionNamesHint(R); !H.empty())
    Os << H << "\n";
}

void printLayers(std::ostream &Os, const Report &R) {
  Os << "Layers (time_s: sum of durations; union_s: per-rank union, summed; "
        "slowest_s: the slowest rank's union)\n";
  Table T({"layer", "ops", "time_s", "union_s", "slowest_s", "slowest",
           "bytes_read", "bytes_written", "MiB/s", "MiB/s/call"});
  for (const LayerFigures &F : R.Layers) {
    const dftrace::IoTotals &S = F.S->Totals;
    T.row({dftrace::layerName(F.L), num(S.Ops), secondsText(S.TimeUs),
           secondsText(F.UnionSumUs), secondsText(F.UnionMaxUs), F.UnionMaxRank,
           num(S.BytesRead), num(S.BytesWritten),
           fixed(F.BandwidthSlowestMiBs, 1), fixed(F.BandwidthPerCallMiBs, 1)});
  }
  const IoTotals &Io = R.A.Io.Once;
  T.row({"I/O, once", num(Io.Ops), secondsText(Io.TimeUs), "", "", "",
         num(Io.BytesRead), num(Io.BytesWritten), "", ""});
  IoTotals Reached = R.A.Io.reached();
  T.row({"at the files", "", "", "", "", "", num(Reached.BytesRead),
         num(Reached.BytesWritten), "", ""});
  T.print(Os);
  Os << "  (\"I/O, once\": every I/O call counted once; calls nested in "
        "another I/O call belong to it. \"at the files\": the bytes of the "
        "lowest layer that moved any, never a sum over layers)\n";
  for (const LayerFigures &F : R.Layers)
    if (F.S->Throttled.Ops)
      Os << "  " << dftrace::layerName(F.L) << ": " << F.S->Throttled.Ops
         << " of the ops are throttled records (counted by the runtime, not "
            "in the trace: no union time, file or rank)\n";
  if (std::string M = sharedMemoryCaveat(R); !M.empty())
    Os << "  (" << M << ")\n";
  Os << "\n";
}

void printMpiKinds(std::ostream &Os, const Report &R) {
  const LayerStat &S = R.A.Layers[static_cast<size_t>(Layer::MpiIo)];
  if (S.Mpi.empty())
    return;
  Os << "MPI-IO reads and writes by kind (collective: every rank of the "
        "file's communicator takes part)\n";
  Table T({"kind", "ops", "time_s", "bytes"});
  for (size_t K = 0; K < NumMpiKinds; ++K)
    if (S.Mpi.Kinds[K].Ops)
      T.row({dftrace::mpiKindName(static_cast<MpiKind>(K)),
             num(S.Mpi.Kinds[K].Ops), secondsText(S.Mpi.Kinds[K].TimeUs),
             num(S.Mpi.Kinds[K].Bytes)});
  T.print(Os);
  if (S.Mpi.Opens)
    Os << "  MPI_File_open: " << S.Mpi.Opens << " calls"
       << (S.Mpi.SizedOpens
               ? ", communicator size " +
                     fixed(static_cast<double>(S.Mpi.CommSizeSum) /
                               static_cast<double>(S.Mpi.SizedOpens),
                           1) +
                     " on average (" + num(S.Mpi.SizedOpens) +
                     " with comm_size)"
               : std::string())
       << "\n";
  Os << "\n";
}

void printMetadata(std::ostream &Os, const Report &R) {
  Os << "Metadata vs data (metadata: open close stat seek sync namespace "
        "control; fractions of the layer's time)\n";
  Table T({"layer", "meta_ops", "meta_time_s", "meta%", "data_ops",
           "data_time_s", "data%", "other_ops", "failed"});
  bool Any = false;
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L))
      continue;
    Any = true;
    T.row({dftrace::layerName(F.L), num(F.Metadata.Ops),
           secondsText(F.Metadata.TimeUs), percent(F.MetadataFraction),
           num(F.Data.Ops), secondsText(F.Data.TimeUs), percent(F.DataFraction),
           num(F.Other.Ops), num(F.S->Failed)});
  }
  if (Any)
    T.print(Os);
  else
    Os << "  no I/O events\n";
  Os << "\n";
  if (!Any)
    return;
  Os << "Operations\n";
  Table Ops({"layer", "operation", "ops", "time_s", "bytes"});
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L))
      continue;
    for (size_t O = 0; O < NumOps; ++O) {
      const OpStat &S = F.S->ByOp[O];
      if (S.Ops)
        Ops.row({dftrace::layerName(F.L), dftrace::opName(static_cast<Op>(O)),
                 num(S.Ops), secondsText(S.TimeUs), num(S.Bytes)});
    }
  }
  Ops.print(Os);
  Os << "\n";
}

void printSizes(std::ostream &Os, const Report &R) {
  std::vector<std::string> Header{"calls by size"};
  for (size_t B = 0; B < NumSizeBins; ++B)
    Header.push_back(dftrace::sizeBinName(B));
  Table T(Header);
  bool Any = false;
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L))
      continue;
    for (bool Read : {true, false}) {
      const uint64_t *Bins = Read ? F.S->ReadBins : F.S->WriteBins;
      uint64_t Total = 0;
      for (size_t B = 0; B < NumSizeBins; ++B)
        Total += Bins[B];
      if (!Total)
        continue;
      Any = true;
      std::vector<std::string> Row{std::string(dftrace::layerName(F.L)) +
                                   (Read ? " read" : " write")};
      for (size_t B = 0; B < NumSizeBins; ++B)
        Row.push_back(num(Bins[B]));
      T.row(Row);
    }
  }
  if (!Any)
    return;
  Os << "Transfer sizes (bytes moved per successful read/write call, "
        "Darshan's bins)\n";
  T.print(Os);
  Os << "\n";
}

void printFiles(std::ostream &Os, const Report &R, size_t Top) {
  if (R.FilesByTime.empty())
    return;
  for (bool ByTime : {true, false}) {
    const auto &List = ByTime ? R.FilesByTime : R.FilesByBytes;
    Os << "Top files by " << (ByTime ? "I/O time" : "bytes") << " ("
       << std::min(Top, List.size()) << " of " << List.size() << ")\n";
    Table T({"file", "fs", "ops", "time_s", "meta_ops", "meta_time_s",
             "bytes_read", "bytes_written", "ranks",
             "by layer: ops, bytes r/w"});
    for (size_t I = 0; I < List.size() && I < Top; ++I) {
      const FileFigures &F = List[I];
      T.row({mpiSharedMemory(F.Path) ? F.Path + " (MPI shared memory)"
                                     : F.Path,
             F.S->Fs.Type.empty() ? "?" : F.S->Fs.Type,
             num(F.Reached.Ops), secondsText(F.Reached.TimeUs), num(F.MetaOps),
             secondsText(F.MetaTimeUs), num(F.Reached.BytesRead),
             num(F.Reached.BytesWritten), num(F.S->Processes),
             layersText(F.S->Layers, F.S->Mpi)});
    }
    T.print(Os);
    Os << "\n";
  }
  const FileClassCounts &C = R.FileClasses;
  Os << "  (a file's ops, time and bytes are its lowest traced layer's, "
        "POSIX where traced: the bytes that reached it; fs: the FS record's "
        "file system, ? without one)\n"
     << "  files: " << C.ReadOnly << " read-only, " << C.WriteOnly
     << " write-only, " << C.ReadWrite << " read-write, " << C.NoData
     << " without data\n\n";
}

std::string valuesText(const ValueCounts &V) {
  std::string T;
  for (const auto &[Value, Count] : V.top(4))
    T += (T.empty() ? "" : " ") + std::to_string(Value) + "x" +
         std::to_string(Count);
  return T.empty() ? "-" : T;
}

std::string percent(uint64_t Part, uint64_t Whole) {
  return Whole ? fixed(100.0 * static_cast<double>(Part) /
                           static_cast<double>(Whole), 1) + "%"
               : "-";
}

/// Darshan's counters and the redundant bytes of the top files by time
/// (docs/analysis.md, "Access patterns").
void printAccess(std::ostream &Os, const Report &R, size_t Top) {
  // The first file with access figures answers (each file's are merged
  // over its layers to tell).
  bool Any = false;
  for (size_t I = 0; I < R.FilesByTime.size() && !Any; ++I)
    Any = !R.FilesByTime[I].S->reachedAccess().empty();
  if (!Any)
    return;
  Os << "Access patterns of the top files by I/O time (POSIX and STDIO "
        "offsets)\n";
  Table T({"file", "reads", "seq", "consec", "writes", "seq", "consec",
           "rw_sw", "common sizes", "strides", "not_aligned", "unit",
           "mem_not_aligned", "redundant r/w (same proc + other procs)"});
  std::vector<std::string> Notes;
  for (size_t I = 0; I < R.FilesByTime.size() && I < Top; ++I) {
    const FileFigures &F = R.FilesByTime[I];
    AccessStats A = F.S->reachedAccess();
    if (A.empty())
      continue;
    std::string Unit = A.alignment() ? num(A.alignment()) : "mixed";
    if (A.AlignAssumed)
      Unit += A.AlignAssumed == A.Reads + A.Writes ? " (assumed)"
                                                    : " (partly assumed)";
    std::string AtLeast = A.RangesCapped ? ">=" : "";
    T.row({F.Path, num(A.Reads), num(A.SeqReads), num(A.ConsecReads),
           num(A.Writes), num(A.SeqWrites), num(A.ConsecWrites),
           num(A.RwSwitches), valuesText(A.Sizes), valuesText(A.Strides),
           num(A.NotAligned) + " (" + percent(A.NotAligned, A.Reads + A.Writes) +
               ")",
           Unit, memAlignText(A),
           AtLeast + num(A.RedundantRead) + "+" + num(A.CrossRead) + " / " +
               AtLeast + num(A.RedundantWritten) + "+" + num(A.CrossWritten)});
    if (A.ReadsNoOffset + A.WritesNoOffset)
      Notes.push_back(F.Path + ": " + num(A.ReadsNoOffset + A.WritesNoOffset) +
                      " data calls without an offset are not in the counters");
    FileRankFigures Rk = R.fileRanks(*F.S);
    std::string Line = F.Path + ": " + num(Rk.Ranks) +
                       (Rk.Ranks > 1 ? " ranks (shared)" : " rank (unique)");
    if (Rk.Ranks > 1)
      Line += "; bytes " + processName(Rk.MinBytesRank) + " " +
              num(Rk.MinBytes) + " to " + processName(Rk.MaxBytesRank) + " " +
              num(Rk.MaxBytes) + ", time " + processName(Rk.MinTimeRank) + " " +
              secondsText(Rk.MinTimeUs) + " s to " +
              processName(Rk.MaxTimeRank) + " " + secondsText(Rk.MaxTimeUs) +
              " s (std dev " + fixed(std::sqrt(Rk.TimeVariance) / 1e6, 6) +
              " s)";
    SlowCall Slow = F.S->reachedSlowest();
    if (!Slow.Name.empty())
      Line += "; slowest call " + Slow.Name + " " + secondsText(Slow.DurUs) +
              " s, " + num(Slow.Bytes) + " bytes, " +
              processName(R.rankLabel(Slow.FileIndex, Slow.Pid));
    Notes.push_back(Line);
    const MpiFileInfo &M = F.S->MpiInfo;
    if (!M.Hints.empty()) {
      std::string H;
      for (const auto &[K, Values] : M.Hints)
        for (const auto &[V, N] : Values)
          H += (H.empty() ? "" : ", ") + K + "=" + V +
               (Values.size() > 1 ? " (" + num(N) + ")" : "");
      Notes.push_back(F.Path + ": MPI-IO hints " + H);
    }
    if (!F.S->Hdf5Props.empty()) {
      std::string H;
      for (const auto &[K, Values] : F.S->Hdf5Props)
        for (const auto &[V, N] : Values)
          H += (H.empty() ? "" : ", ") + K + "=" + V;
      Notes.push_back(F.Path + ": HDF5 " + H);
    }
  }
  T.print(Os);
  Os << "  (seq: at or after the end of the previous call of its kind by the "
        "process; consec: exactly there; strides: offset - previous end; "
        "sizes and strides as value x calls; unit: the FS record's stripe or "
        "block size, 1 MiB when the trace has none; mem_not_aligned: buffers "
        "not a multiple of the process's recorded memory alignment; >=: past "
        "the range cap, a lower bound)\n";
  for (const std::string &N : Notes)
    Os << "  " << N << "\n";
  Os << "\n";
}

/// The same counters per function, for the top functions with data calls
/// (docs/analysis.md, "Per function").
void printFunctionAccess(std::ostream &Os, const Report &R, size_t Top) {
  const std::vector<const FunctionFigures *> &List = R.FunctionsWithAccess;
  if (List.empty())
    return;
  Os << "Access patterns of the top functions by I/O time (their direct "
        "POSIX and STDIO data calls, each judged in its process's stream on "
        "its file)\n";
  Table T({"function", "reads", "seq", "consec", "writes", "seq", "consec",
           "rw_sw", "common sizes", "strides", "not_aligned",
           "mem_not_aligned", "redundant r/w (same proc)"});
  for (size_t I = 0; I < List.size() && I < Top; ++I) {
    const AccessStats &A = List[I]->S->Access;
    std::string AtLeast = A.RangesCapped ? ">=" : "";
    T.row({List[I]->Name, num(A.Reads), num(A.SeqReads), num(A.ConsecReads),
           num(A.Writes), num(A.SeqWrites), num(A.ConsecWrites),
           num(A.RwSwitches), valuesText(A.Sizes), valuesText(A.Strides),
           num(A.NotAligned) + " (" +
               percent(A.NotAligned, A.Reads + A.Writes) + ")",
           memAlignText(A),
           AtLeast + num(A.RedundantRead) + " / " + AtLeast +
               num(A.RedundantWritten)});
  }
  T.print(Os);
  if (List.size() > Top)
    Os << "  ... " << List.size() - Top << " more (--top N, --json)\n";
  Os << "  (the file table's definitions; a function's first call on a file "
        "is judged against the previous call there, whichever function made "
        "it)\n\n";
}

/// HDF5 datasets: layout, chunking, transfers and the collective share.
void printDatasets(std::ostream &Os, const Aggregate &A, size_t Top) {
  if (A.Datasets.empty())
    return;
  Os << "HDF5 datasets (" << std::min(Top, A.Datasets.size()) << " of "
     << A.Datasets.size() << ")\n";
  Table T({"file", "dataset", "layout", "chunk", "dims", "type_size", "writes",
           "bytes_written", "reads", "bytes_read", "collective",
           "transfer sizes"});
  auto Prop = [](const PropCounts &P, const char *Key) -> std::string {
    auto It = P.find(Key);
    if (It == P.end())
      return "-";
    std::string T;
    for (const auto &[V, N] : It->second)
      T += (T.empty() ? "" : "|") + V;
    return T;
  };
  size_t Shown = 0;
  for (const auto &[Key, D] : A.Datasets) {
    if (Shown++ == Top)
      break;
    uint64_t Calls = D.Reads.Ops + D.Writes.Ops;
    T.row({Key.first, Key.second, Prop(D.Props, "layout"),
           Prop(D.Props, "chunk"), Prop(D.Props, "dims"),
           Prop(D.Props, "type_size"), num(D.Writes.Ops), num(D.Writes.Bytes),
           num(D.Reads.Ops), num(D.Reads.Bytes),
           num(D.Collective) + " (" + percent(D.Collective, Calls) + ")",
           valuesText(D.Sizes)});
  }
  T.print(Os);
  Os << "\n";
}

void printRanks(std::ostream &Os, const Report &R, const OutputOptions &O) {
  if (R.Ranks.empty())
    return;
  Os << "Ranks: " << R.Ranks.size() << "; I/O time per rank (union of its "
     << "I/O calls): slowest " << R.Slowest->Label << " "
     << secondsText(R.Slowest->P->IoUnionUs) << " s, mean "
     << fixed(R.MeanIoUs / 1e6, 6) << " s, imbalance (slowest/mean) "
     << fixed(R.Imbalance, 3) << "\n";
  std::vector<const RankFigures *> Order = ranksBySlowest(R);
  bool Summary = summarizeRanks(R, O);
  const std::vector<std::string> Header = {
      "rank",   "pid",     "io_time_s", "io_ops", "bytes_read", "bytes_written",
      "wall_s", "events", "by layer: ops, bytes r/w"};
  auto Row = [](Table &T, const RankFigures &Rk) {
    const ProcessStat &P = *Rk.P;
    IoTotals Reached = P.Io.reached();
    T.row({Rk.Label, std::to_string(P.Pid), secondsText(P.IoUnionUs),
           num(Reached.Ops), num(Reached.BytesRead), num(Reached.BytesWritten),
           secondsText(static_cast<uint64_t>(P.wallUs())), num(P.Events),
           layersText(P.Io.Layers, P.Io.Mpi)});
  };
  size_t Rows = O.AllRanks ? Order.size() : O.Top;
  if (Summary)
    Os << "Slowest " << std::min(Rows, Order.size()) << " of "
       << Order.size() << " ranks (more than " << O.SummarizeRanksAbove
       << ": summarized; --all-ranks lists every rank)\n";
  Table T(Header);
  for (size_t I = 0; I < Order.size() && I < Rows; ++I)
    Row(T, *Order[I]);
  T.print(Os);
  if (Summary) {
    // The fastest, fastest first, none of them already shown above.
    size_t Bottom = std::min(O.Top, Order.size() - std::min(Rows, Order.size()));
    if (Bottom) { // none when the slowest rows showed every rank
      Os << "Fastest " << Bottom << " ranks\n";
      Table B(Header);
      for (size_t I = 0; I < Bottom; ++I)
        Row(B, *Order[Order.size() - 1 - I]);
      B.print(Os);
    }
    Os << "I/O time per rank, quantiles (nearest rank):";
    for (const RankQuantile &Q : rankQuantiles(Order))
      Os << " " << quantileName(Q.Q) << " "
         << secondsText(Q.Rank->P->IoUnionUs) << " s ("
         << processName(Q.Rank->Label) << ")"
         << (Q.Q < 1 ? ";" : "");
    Os << "\n";
  }
  Os << "\n";
}

void printFunctions(std::ostream &Os, const Report &R, size_t Top) {
  if (R.Functions.empty())
    return;
  Os << "Functions by I/O time (direct: I/O calls whose nearest annotated "
        "span is the function; inclusive: also its callees')\n";
  Table T({"function", "calls", "time_s", "io_time_s", "io_ops", "io_bytes",
           "incl_io_time_s", "incl_io_ops", "incl_io_bytes", "throttled",
           "direct by layer: ops, bytes r/w"});
  bool AnyThrottled = false, AnySampled = false;
  for (size_t I = 0; I < R.Functions.size() && I < Top; ++I) {
    const FunctionStat &S = *R.Functions[I].S;
    AnyThrottled |= S.ThrottledCalls > 0;
    AnySampled |= S.SampledTime != 0;
    T.row({R.Functions[I].Name, num(S.Calls),
           estimated(S.SampledTime, secondsText(S.TimeUs)),
           secondsText(S.Direct.Once.TimeUs), num(S.Direct.Once.Ops),
           num(S.Direct.reached().bytes()),
           secondsText(S.Inclusive.Once.TimeUs), num(S.Inclusive.Once.Ops),
           num(S.Inclusive.reached().bytes()),
           S.ThrottledCalls ? num(S.ThrottledCalls) + " throttled" : "",
           layersText(S.Direct.Layers, S.Direct.Mpi)});
  }
  T.print(Os);
  if (R.Functions.size() > Top)
    Os << "  ... " << R.Functions.size() - Top << " more (--top N, --json)\n";
  Os << "  (io_bytes: the bytes that reached the files, the lowest traced "
        "layer's)\n";
  if (AnyThrottled)
    Os << "  (throttled: calls the runtime counted but did not write, "
          "included in calls and time_s; their I/O is their parent's)\n";
  if (AnySampled)
    Os << SampledNote;
  if (R.A.Unattributed)
    Os << "  " << R.A.Unattributed
       << " spans could not be placed (unnested_span: not in end order); "
          "they count as roots, so these figures are not reliable\n";
  Os << "\n";
}

void printThrottled(std::ostream &Os, const Report &R, size_t Top) {
  if (R.Throttled.empty())
    return;
  Os << "Throttled (spans the runtime counted but did not write; in the "
        "tables above as calls and time)\n";
  Table T({"function", "cat", "calls", "time_s", "mean_us", "bytes",
           "processes", "reason"});
  bool AnySampled = false;
  for (size_t I = 0; I < R.Throttled.size() && I < Top; ++I) {
    const ThrottleFigures &F = R.Throttled[I];
    const ThrottleStat &S = *F.S;
    AnySampled |= S.SampledTime != 0;
    T.row({F.Function, F.FCat, num(S.Calls),
           estimated(S.SampledTime, secondsText(S.DurUs)),
           estimated(S.SampledTime,
                     fixed(S.Calls ? static_cast<double>(S.DurUs) /
                                         static_cast<double>(S.Calls)
                                   : 0,
                           3)),
           num(S.Bytes), num(S.Processes), reasonsText(S.Reasons)});
  }
  T.print(Os);
  if (R.Throttled.size() > Top)
    Os << "  ... " << R.Throttled.size() - Top << " more (--top N, --json)\n";
  if (AnySampled)
    Os << SampledNote;
  bool Cut = false;
  for (const ThrottleFigures &F : R.Throttled)
    Cut |= (F.S->Reasons & (SizeLimitBit | WriteErrorBit)) != 0;
  if (Cut)
    Os << "  (size_limit, write_error: tracing stopped, so every later span "
          "is only counted; nesting, files and ranks after that point are not "
          "in the trace)\n";
  Os << "  (dftracer-analyze --suggest-filter prints a filter file that stops "
        "annotating them)\n\n";
}

void printIssues(std::ostream &Os, const Aggregate &A) {
  if (!A.Caveats.empty()) {
    Os << "Caveats: what the traces cannot say\n";
    for (const CaveatRecord &C : A.Caveats)
      Os << "  " << A.FileNames[C.FileIndex] << ": " << C.Message << "\n";
    Os << "\n";
  }
  uint64_t Total = A.issueTotal();
  if (!Total && A.UnknownOps.empty())
    return;
  if (!A.UnknownOps.empty()) {
    Os << "Operations the taxonomy does not know (counted in their layer)\n";
    Table T({"layer", "name", "ops"});
    for (const auto &[Key, N] : A.UnknownOps)
      T.row({dftrace::layerName(static_cast<Layer>(Key.first)), Key.second,
             num(N)});
    T.print(Os);
    Os << "\n";
  }
  if (!Total)
    return;
  Os << "Issues: " << Total << " (";
  bool First = true;
  for (size_t I = 0; I < NumIssues; ++I) {
    if (!A.IssueCounts[I])
      continue;
    Os << (First ? "" : ", ") << dftrace::issueName(static_cast<Issue>(I))
       << " " << A.IssueCounts[I];
    First = false;
  }
  Os << ")\n";
  size_t Shown = 0;
  for (const IssueRecord &I : A.Issues) {
    if (Shown++ == 20)
      break;
    Os << "  " << A.FileNames[I.FileIndex];
    if (I.Line)
      Os << ":" << I.Line;
    Os << ": " << dftrace::issueName(I.Kind) << ": " << I.Message << "\n";
  }
  if (Total > Shown)
    Os << "  ... " << Total - Shown << " more (--json lists "
       << Aggregate::MaxIssues << ")\n";
  Os << "\n";
}

} // namespace

void printText(std::ostream &Os, const Report &R, const OutputOptions &O) {
  const Aggregate &A = R.A;
  // A requested setting that never took effect, before anything else.
  for (const std::string &C : tuningCaveats(R))
    Os << "tuning not in effect: " << C << "\n";
  printRecords(Os, R, O.Top);
  if (O.Findings)
    printFindingsText(Os, *O.Findings, O.RulesPath);
  Os << "dftracer-analyze: " << A.FileNames.size() << " files, " << A.Events
     << " events (" << A.TextBytes << " bytes of text), " << R.Ranks.size()
     << " ranks, " << A.issueTotal() << " issues\n";
  Os << "time: " << secondsText(static_cast<uint64_t>(R.LastUs - R.FirstUs))
     << " s from the first event to the last\n\n";
  printConfigurationText(Os, R);
  printLayers(Os, R);
  printMetadata(Os, R);
  printMpiKinds(Os, R);
  printSizes(Os, R);
  printFiles(Os, R, O.Top);
  printAccess(Os, R, O.Top);
  printDatasets(Os, A, O.Top);
  printRanks(Os, R, O);
  printFunctions(Os, R, O.Top);
  printFunctionAccess(Os, R, O.Top);
  printThrottled(Os, R, O.Top);
  printIssues(Os, A);
}

} // namespace dftanalyze
