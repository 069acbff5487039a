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

#include "Output.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace dftanalyze {

namespace {

std::string seconds(uint64_t Us) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%llu.%06llu",
                static_cast<unsigned long long>(Us / 1000000),
                static_cast<unsigned long long>(Us % 1000000));
  return Buf;
}

std::string num(uint64_t V) { return std::to_string(V); }

std::string fixed(double V, int Digits) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Digits, V);
  return Buf;
}

std::string percent(double Fraction) { return fixed(100 * Fraction, 1) + "%"; }

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

void printLayers(std::ostream &Os, const Report &R) {
  Os << "Layers (time_s: sum of durations; union_s: per-rank union, summed; "
        "slowest_s: the slowest rank's union)\n";
  Table T({"layer", "ops", "time_s", "union_s", "slowest_s", "slowest",
           "bytes_read", "bytes_written", "MiB/s", "MiB/s/call"});
  for (const LayerFigures &F : R.Layers) {
    const dftrace::IoTotals &S = F.S->Totals;
    T.row({dftrace::layerName(F.L), num(S.Ops), seconds(S.TimeUs),
           seconds(F.UnionSumUs), seconds(F.UnionMaxUs), F.UnionMaxRank,
           num(S.BytesRead), num(S.BytesWritten),
           fixed(F.BandwidthSlowestMiBs, 1), fixed(F.BandwidthPerCallMiBs, 1)});
  }
  const IoTotals &Io = R.A.Io;
  T.row({"I/O, once", num(Io.Ops), seconds(Io.TimeUs), "", "", "",
         num(Io.BytesRead), num(Io.BytesWritten), "", ""});
  T.print(Os);
  Os << "  (\"I/O, once\": every I/O call counted once; calls nested in "
        "another I/O call belong to it)\n\n";
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
           seconds(F.Metadata.TimeUs), percent(F.MetadataFraction),
           num(F.Data.Ops), seconds(F.Data.TimeUs), percent(F.DataFraction),
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
                 num(S.Ops), seconds(S.TimeUs), num(S.Bytes)});
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
    Table T({"file", "ops", "time_s", "meta_ops", "meta_time_s", "bytes_read",
             "bytes_written", "ranks"});
    for (size_t I = 0; I < List.size() && I < Top; ++I) {
      const FileStat &S = *List[I].S;
      T.row({List[I].Path, num(S.Io.Ops), seconds(S.Io.TimeUs),
             num(S.MetaOps), seconds(S.MetaTimeUs), num(S.Io.BytesRead),
             num(S.Io.BytesWritten), num(S.Processes)});
    }
    T.print(Os);
    Os << "\n";
  }
}

void printRanks(std::ostream &Os, const Report &R, size_t Top) {
  if (R.Ranks.empty())
    return;
  Os << "Ranks: " << R.Ranks.size() << "; I/O time per rank (union of its "
     << "I/O calls): slowest " << R.Slowest->Label << " "
     << seconds(R.Slowest->P->IoUnionUs) << " s, mean "
     << fixed(R.MeanIoUs / 1e6, 6) << " s, imbalance (slowest/mean) "
     << fixed(R.Imbalance, 3) << "\n";
  std::vector<const RankFigures *> Order;
  for (const RankFigures &Rk : R.Ranks)
    Order.push_back(&Rk);
  std::stable_sort(Order.begin(), Order.end(),
                   [](const RankFigures *X, const RankFigures *Y) {
                     return X->P->IoUnionUs > Y->P->IoUnionUs;
                   });
  Table T({"rank", "pid", "io_time_s", "io_ops", "bytes_read",
           "bytes_written", "wall_s", "events"});
  for (size_t I = 0; I < Order.size() && I < Top; ++I) {
    const ProcessStat &P = *Order[I]->P;
    T.row({Order[I]->Label, std::to_string(P.Pid), seconds(P.IoUnionUs),
           num(P.Io.Ops), num(P.Io.BytesRead), num(P.Io.BytesWritten),
           seconds(static_cast<uint64_t>(P.wallUs())), num(P.Events)});
  }
  T.print(Os);
  Os << "\n";
}

void printFunctions(std::ostream &Os, const Report &R, size_t Top) {
  if (R.Functions.empty())
    return;
  Os << "Functions by I/O time (direct: I/O calls whose nearest annotated "
        "span is the function; inclusive: also its callees')\n";
  Table T({"function", "calls", "time_s", "io_time_s", "io_ops", "io_bytes",
           "incl_io_time_s", "incl_io_ops", "incl_io_bytes"});
  for (size_t I = 0; I < R.Functions.size() && I < Top; ++I) {
    const FunctionStat &S = *R.Functions[I].S;
    T.row({R.Functions[I].Name, num(S.Calls), seconds(S.TimeUs),
           seconds(S.Direct.TimeUs), num(S.Direct.Ops), num(S.Direct.bytes()),
           seconds(S.Inclusive.TimeUs), num(S.Inclusive.Ops),
           num(S.Inclusive.bytes())});
  }
  T.print(Os);
  if (R.Functions.size() > Top)
    Os << "  ... " << R.Functions.size() - Top << " more (--top N, --json)\n";
  if (R.A.Unattributed)
    Os << "  " << R.A.Unattributed
       << " spans could not be placed (unnested_span: not in end order); "
          "they count as roots, so these figures are not reliable\n";
  Os << "\n";
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
  Os << "dftracer-analyze: " << A.FileNames.size() << " files, " << A.Events
     << " events (" << A.TextBytes << " bytes of text), " << R.Ranks.size()
     << " ranks, " << A.issueTotal() << " issues\n";
  Os << "time: " << seconds(static_cast<uint64_t>(R.LastUs - R.FirstUs))
     << " s from the first event to the last\n\n";
  printLayers(Os, R);
  printMetadata(Os, R);
  printSizes(Os, R);
  printFiles(Os, R, O.Top);
  printRanks(Os, R, O.Top);
  printFunctions(Os, R, O.Top);
  printIssues(Os, A);
}

} // namespace dftanalyze
