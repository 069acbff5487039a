//===- Generate.cpp - dftracer_trace_gen generate -------------------------===//
//
// Writes each process's tree (Builder.h) as the runtime does: spans in the
// order they end, threads interleaved in blocks, ids in order of start,
// with the problems asked for (--invalid, --truncate), and with --expected
// the totals the analyzer must report (Expected.h). --no-parent all|odd
// leaves args.level and args.p_idx out of every span (as upstream
// DFTracer's dev branch) or of those with an odd id (a mixed file): the
// totals stay the same. --start-order writes each thread's spans in the
// order they start (a trace sorted by time; the analyzer must report it).
// --upstream v1|dev writes the same trees in upstream DFTracer's shapes
// (docs/trace-format.md, "Upstream DFTracer"): v1 with
// DFTRACER_INC_METADATA (p_idx -1 roots, hhash above 2^63, PR rank,
// start/end with num_events, "]" without a newline) or the development
// line (NDJSON, integer ph and type, hex hashes, no level/p_idx): the
// totals stay the same, with no caveat.
//
//===----------------------------------------------------------------------===//

#include "Builder.h"
#include "Commands.h"
#include "Expected.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <set>
#include <tuple>

namespace tracegen {

namespace {

/// Which spans are written without level and p_idx (as upstream
/// DFTracer's dev branch writes them all).
enum class NoParent { None, All, Odd };

/// The shape of the lines (--upstream).
enum class Shape { Own, V1, Dev };
constexpr const char *HostHash = "12345678901234567890"; // above 2^63
constexpr const char *HostHex = "ab54a98ceb1f0ad2";

std::string hex(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "%016llx", static_cast<unsigned long long>(V));
  return Buf;
}

/// Args with every "fhash":N written as "fhash":"<16 hex>" (upstream dev).
std::string hexHashes(std::string Args) {
  const std::string Key = "\"fhash\":";
  size_t At = Args.find(Key);
  if (At == std::string::npos)
    return Args;
  size_t Begin = At + Key.size(), End = Begin;
  while (End < Args.size() && Args[End] >= '0' && Args[End] <= '9')
    ++End;
  uint64_t V = std::stoull(Args.substr(Begin, End - Begin));
  return Args.substr(0, Begin) + "\"" + hex(V) + "\"" + Args.substr(End);
}

std::string spanLine(const Node &N, int64_t Pid, int64_t Tid, NoParent NP,
                     Shape Sh = Shape::Own) {
  // Upstream dev's "type": the layer that produced the event.
  static const int Types[] = {2, 3, 3, 10, 5, 0};
  std::string L = "{\"id\":" + std::to_string(N.Id) + ",\"name\":\"" + N.Name +
                  "\",\"cat\":\"" + Cats[N.Layer] + "\"" +
                  (Sh == Shape::Dev
                       ? ",\"type\":" + std::to_string(Types[N.Layer])
                       : std::string()) +
                  ",\"pid\":" +
                  std::to_string(Pid) + ",\"tid\":" + std::to_string(Tid) +
                  ",\"ts\":" + std::to_string(N.Ts) + ",\"dur\":" +
                  (N.BadDur ? std::string("-5") : std::to_string(N.Dur)) +
                  (Sh == Shape::Dev ? ",\"ph\":1" : ",\"ph\":\"X\"") +
                  ",\"args\":{";
  std::string Args;
  if (Sh == Shape::V1)
    Args = std::string("\"hhash\":") + HostHash;
  else if (Sh == Shape::Dev)
    Args = std::string("\"hhash\":\"") + HostHex + "\"";
  if (Sh != Shape::Dev &&
      (NP == NoParent::None || (NP == NoParent::Odd && N.Id % 2 == 0)))
    Args += (Args.empty() ? "" : ",") + std::string("\"level\":") +
            std::to_string(N.Level) + ",\"p_idx\":" +
            std::to_string(N.Parent ? static_cast<int64_t>(N.Parent->Id)
                                    : Sh == Shape::V1 ? -1 : 0);
  if (!N.Args.empty())
    Args += (Args.empty() ? "" : ",") +
            (Sh == Shape::Dev ? hexHashes(N.Args) : N.Args);
  return L + Args + "}}";
}

/// Upstream's own spans: "start" at the top, "end" with num_events.
std::string tracerSpan(Shape Sh, const char *Name, uint64_t Id, int64_t Pid,
                       int64_t Ts, const std::string &Args) {
  std::string L = "{\"id\":" + std::to_string(Id) + ",\"name\":\"" + Name +
                  "\",\"cat\":\"dftracer\"" +
                  (Sh == Shape::Dev ? ",\"type\":1" : "") + ",\"pid\":" +
                  std::to_string(Pid) + ",\"tid\":" + std::to_string(Pid) +
                  ",\"ts\":" + std::to_string(Ts) + ",\"dur\":0" +
                  (Sh == Shape::Dev ? ",\"ph\":1" : ",\"ph\":\"X\"");
  if (Sh == Shape::Dev)
    return L + ",\"args\":{\"hhash\":\"" + HostHex + "\"" + Args + "}}";
  return L + ",\"args\":{\"hhash\":" + HostHash + Args +
         ",\"level\":1,\"p_idx\":-1}}";
}

/// A metadata line: {"name": Key, "value": Value} (Value already JSON).
std::string metaLine(Shape Sh, const char *Name, uint64_t Id, int64_t Pid,
                     const std::string &Key, const std::string &Value) {
  std::string Tail = ",\"pid\":" + std::to_string(Pid) + ",\"tid\":" +
                     std::to_string(Pid);
  if (Sh == Shape::Dev) // no id: metadata records are not events
    return std::string("{\"name\":\"") + Name +
           "\",\"cat\":\"dftracer\",\"type\":1" + Tail +
           ",\"ph\":4,\"args\":{\"hhash\":\"" + HostHex + "\",\"name\":\"" +
           Key + "\",\"value\":" + Value + "}}";
  return "{\"id\":" + std::to_string(Id) + ",\"name\":\"" + Name +
         "\",\"cat\":\"dftracer\"" + Tail + ",\"ph\":\"M\",\"args\":{" +
         (Sh == Shape::V1 ? std::string("\"hhash\":") + HostHash + "," : "") +
         "\"name\":\"" + Key + "\",\"value\":" + Value + "}}";
}

class Out {
public:
  Out(const std::string &Path, bool Gzip, size_t Members)
      : Members(std::max<size_t>(1, Members)), Path(Path), Gzip(Gzip) {
    if (Gzip)
      Z = gzopen(Path.c_str(), "wb1");
    else
      F = std::fopen(Path.c_str(), "wb");
  }
  ~Out() { close(); }
  bool isOpen() const { return Z != nullptr || F != nullptr; }
  void write(const std::string &S) {
    Bytes += S.size();
    if (Gzip)
      gzwrite(Z, S.data(), static_cast<unsigned>(S.size()));
    else
      std::fwrite(S.data(), 1, S.size(), F);
  }
  /// Starts a new gzip member (multi-member files, as `cat a.gz b.gz`).
  void newMember() {
    if (!Gzip)
      return;
    gzclose(Z);
    Z = gzopen(Path.c_str(), "ab1");
  }
  void close() {
    if (Z)
      gzclose(Z);
    if (F)
      std::fclose(F);
    Z = nullptr;
    F = nullptr;
  }
  uint64_t Bytes = 0;
  size_t Members;

private:
  std::string Path;
  bool Gzip;
  gzFile Z = nullptr;
  std::FILE *F = nullptr;
};

} // namespace

int generate(int Argc, char **Argv) {
  std::string Dir, ExpectedPath;
  size_t Files = 4, SpansPerFile = 2000, Threads = 1, Members = 1;
  size_t TotalSpans = 0; // --total-spans: the set's, not each file's
  uint64_t Seed = 1;
  bool Gzip = false, Truncate = false, Invalid = false, Mixed = false;
  bool StartOrder = false;
  bool RealShape = false;
  NoParent NP = NoParent::None;
  Shape Sh = Shape::Own;
  int Compute = 0;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string { return I + 1 < Argc ? Argv[++I] : ""; };
    if (A == "--dir") Dir = Next();
    else if (A == "--files") Files = std::stoul(Next());
    else if (A == "--spans") SpansPerFile = std::stoul(Next());
    else if (A == "--total-spans") TotalSpans = std::stoul(Next());
    else if (A == "--threads") Threads = std::stoul(Next());
    else if (A == "--members") Members = std::stoul(Next());
    else if (A == "--seed") Seed = std::stoull(Next());
    else if (A == "--compute") Compute = std::stoi(Next());
    else if (A == "--real-shape") RealShape = true;
    else if (A == "--gzip") Gzip = true;
    else if (A == "--mixed") Mixed = true; // every other file gzip
    else if (A == "--truncate") Truncate = true;
    else if (A == "--invalid") Invalid = true;
    else if (A == "--expected") ExpectedPath = Next();
    else if (A == "--start-order") StartOrder = true;
    else if (A == "--upstream") {
      std::string Which = Next();
      if (Which != "v1" && Which != "dev") {
        std::cerr << "dftracer_trace_gen: --upstream takes v1 or dev\n";
        return 2;
      }
      Sh = Which == "v1" ? Shape::V1 : Shape::Dev;
      if (Sh == Shape::Dev)
        NP = NoParent::All; // the development line writes no level/p_idx
    }
    else if (A == "--no-parent") {
      std::string Which = Next();
      if (Which != "all" && Which != "odd") {
        std::cerr << "dftracer_trace_gen: --no-parent takes all or odd\n";
        return 2;
      }
      NP = Which == "all" ? NoParent::All : NoParent::Odd;
    }
    else {
      std::cerr << "dftracer_trace_gen: unknown option " << A << "\n";
      return 2;
    }
  }
  if (Dir.empty()) {
    std::cerr << "dftracer_trace_gen: --dir is required\n";
    return 2;
  }
  if (NP != NoParent::None && Truncate) {
    // Cut spans' children would be roots, not "(unknown parent)"'s.
    std::cerr << "dftracer_trace_gen: --no-parent and --truncate: the "
                 "expected totals do not cover that case\n";
    return 2;
  }
  std::error_code DirError;
  std::filesystem::create_directories(Dir, DirError);
  if (DirError) {
    std::cerr << "dftracer_trace_gen: cannot create " << Dir << ": "
              << DirError.message() << "\n";
    return 1;
  }
  Expected E;
  bool Keep = !ExpectedPath.empty();
  // --total-spans: a file ends on a whole phase and adds the spans every
  // file has (main, a loose call, a GPU span), ~10 beyond its target.
  // Each file's target is what is left over the files left, less the
  // excess so far, so that the set holds the total within one file's
  // excess whatever the file count: 100,000 files of "41 spans" were
  // 5.16 M spans against 4.10 M in 64 files (issue 41's sets).
  size_t Made = 0, Targets = 0;
  for (size_t FI = 0; FI < Files; ++FI) {
    size_t Target = SpansPerFile;
    if (TotalSpans) {
      double Left = static_cast<double>(TotalSpans) - static_cast<double>(Made);
      double Excess =
          FI ? (static_cast<double>(Made) - static_cast<double>(Targets)) /
                   static_cast<double>(FI)
             : 0;
      Target = static_cast<size_t>(std::max(
          1.0, std::round(Left / static_cast<double>(Files - FI) - Excess)));
    }
    Targets += Target;
    Process P;
    P.Pid = (RealShape ? 27000 : 4000) + static_cast<int64_t>(FI);
    P.Rank = static_cast<int>(FI);
    Builder B;
    B.R.S = Seed * 7919 + FI * 104729 + 1;
    B.Compute = Compute;
    B.Real = RealShape;
    // --real-shape: the runtime's 52-bit path hashes (16 digits), six
    // files per rank.
    const uint64_t HashBase = RealShape ? 4503599627370496ull : 1000;
    const uint64_t HashStep = RealShape ? 2654435761ull : 1;
    if (RealShape)
      B.NoFhPath = HashBase - 7 * HashStep;
    for (int K = 0; K < (RealShape ? 6 : 3); ++K)
      B.Paths.emplace_back(HashBase + (FI * 10 + K) * HashStep,
                           "/scratch/run/file" + std::to_string(K) + ".dat");
    for (auto &[Hash, Path] : B.Paths)
      P.PathOf[Hash] = Path;
    P.PathOf[B.NoFhPath] = "fhash:" + std::to_string(B.NoFhPath);
    size_t PerThread = std::max<size_t>(10, Target / Threads);
    for (size_t T = 0; T < Threads; ++T) {
      // --real-shape: wall-clock microseconds (16 digits), as the runtime's.
      B.T = (RealShape ? 1796172333000000 : 1'000'000) +
            static_cast<int64_t>(B.R.below(50));
      auto Root = std::make_unique<Node>();
      Root->Name = T == 0 ? "main" : "worker";
      Root->Ts = B.T;
      B.Made = 1;
      if (T == 0)
        B.io(Root.get(), 2); // I/O before any annotated span... inside main
      while (B.Made < PerThread)
        B.phase(Root.get());
      B.close(Root.get());
      P.Roots.push_back(std::move(Root));
      P.Tids.push_back(P.Pid + static_cast<int64_t>(T));
    }
    // A root-level call outside any annotated span, and one span of a
    // category the analyzer does not know.
    {
      auto Loose = std::make_unique<Node>();
      Node Holder;
      B.T = P.Roots[0]->Ts + P.Roots[0]->Dur + 10;
      B.io(&Holder, 0);
      Loose = std::move(Holder.Children[0]);
      Loose->Parent = nullptr;
      P.Roots.push_back(std::move(Loose));
      P.Tids.push_back(P.Pid);
      auto Gpu = std::make_unique<Node>();
      Gpu->Name = "gpu_kernel";
      Gpu->Layer = 5;
      Gpu->Ts = B.T + 5;
      Gpu->Dur = 7;
      P.Roots.push_back(std::move(Gpu));
      P.Tids.push_back(P.Pid);
    }
    uint64_t NextId = 10;
    for (auto &Root : P.Roots)
      number(Root.get(), NextId, 1);
    for (auto &Root : P.Roots) {
      P.Order.emplace_back();
      postOrder(Root.get(), P.Order.back());
      Made += P.Order.back().size();
    }
    // The spans of each root in the order they end. The loose call and
    // the GPU span, on thread 0's tid after main, reach the file in the
    // first block: p_idx places them whatever the order. Without p_idx a
    // thread's roots go one after the other (a thread's spans reach the
    // file in the order they end), or with --start-order in the order
    // they start (as a trace sorted by time would be).
    bool ByTid = NP != NoParent::None || StartOrder;
    std::vector<std::vector<Node *>> Threads;
    std::vector<int64_t> ThreadTids;
    for (size_t T = 0; T < P.Order.size(); ++T) {
      size_t I = std::find(ThreadTids.begin(), ThreadTids.end(), P.Tids[T]) -
                 ThreadTids.begin();
      if (!ByTid || I == ThreadTids.size()) {
        I = ThreadTids.size();
        ThreadTids.push_back(P.Tids[T]);
        Threads.emplace_back();
      }
      Threads[I].insert(Threads[I].end(), P.Order[T].begin(), P.Order[T].end());
    }
    if (StartOrder)
      for (auto &Thread : Threads)
        std::stable_sort(Thread.begin(), Thread.end(), [](Node *A, Node *B) {
          return std::tie(A->Ts, A->Id) < std::tie(B->Ts, B->Id);
        });
    // File order: threads interleaved in blocks of 64 lines, as per-thread
    // buffers reach the file.
    std::vector<std::pair<Node *, int64_t>> Lines;
    std::vector<size_t> Pos(Threads.size(), 0);
    for (bool Any = true; Any;) {
      Any = false;
      for (size_t T = 0; T < Threads.size(); ++T)
        for (size_t K = 0; K < 64 && Pos[T] < Threads[T].size(); ++K, ++Pos[T]) {
          Lines.emplace_back(Threads[T][Pos[T]], ThreadTids[T]);
          Any = true;
        }
    }
    // One I/O call written with a negative duration (not usable).
    if (Invalid)
      for (auto &[N, Tid] : Lines)
        if (N->Layer == 1 && N->K == Meta && N->Parent && N->Parent->Layer == 0) {
          N->BadDur = true;
          break;
        }
    size_t Cut = Truncate ? Lines.size() * 7 / 10 : Lines.size();
    for (size_t I = Cut; I < Lines.size(); ++I)
      Lines[I].first->Written = false;

    bool Gz = Gzip || (Mixed && FI % 2 == 1);
    char Name[64];
    std::snprintf(Name, sizeof Name, "trace-%04zu-app.pfw%s", FI, Gz ? ".gz" : "");
    std::string FileName = Dir + "/" + Name;
    Out O(FileName, Gz, Members);
    if (!O.isOpen()) {
      std::cerr << "dftracer_trace_gen: cannot write " << FileName << ": "
                << std::strerror(errno) << "\n";
      return 1;
    }
    uint64_t LineNo = 0, ExtraEvents = 0;
    auto Put = [&](const std::string &S) {
      O.write(S + "\n");
      ++LineNo;
    };
    auto Issue = [&](const char *Kind) {
      ++E.Issues[Kind];
      E.IssueList.push_back({{"file", FileName}, {"line", LineNo}, {"kind", Kind}});
    };
    // Upstream's "end" counts the events before it that carry an id, but
    // CM (docs/trace-format.md).
    uint64_t Counted = 0;
    if (Sh != Shape::Dev)
      Put("[");
    if (Sh == Shape::Own)
      Put("{\"id\":1,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":" +
          std::to_string(P.Pid) + ",\"tid\":" + std::to_string(P.Pid) +
          ",\"ph\":\"M\",\"args\":{\"name\":\"rank\",\"value\":\"" +
          std::to_string(P.Rank) + "\"}}");
    else // upstream: the rank is process metadata, "PR"
      Put(metaLine(Sh, "PR", 1, P.Pid, "rank",
                   "\"" + std::to_string(P.Rank) + "\""));
    Counted += Sh == Shape::V1;
    ++ExtraEvents;
    uint64_t MetaId = 2;
    for (auto &[Hash, Path] : B.Paths) {
      Put(metaLine(Sh, "FH", MetaId++, P.Pid, Path,
                   Sh == Shape::Dev ? "\"" + hex(Hash) + "\""
                                    : std::to_string(Hash)));
      Counted += Sh == Shape::V1;
      ++ExtraEvents;
    }
    if (Sh != Shape::Own) {
      Put(tracerSpan(Sh, "start", MetaId++, P.Pid, 1'000'000, ""));
      ++Counted;
      ++ExtraEvents;
    }
    size_t PerMember = std::max<size_t>(1, Cut / O.Members + 1);
    bool SawNoFh = false;
    for (size_t I = 0; I < Cut; ++I) {
      if (I > 0 && I % PerMember == 0)
        O.newMember();
      Node *N = Lines[I].first;
      Put(spanLine(*N, P.Pid, Lines[I].second, NP, Sh));
      ++Counted;
      if (N->BadDur)
        Issue("negative_time");
      else if (N->Layer == 5)
        Issue("unknown_category");
      else if (N->FHash == B.NoFhPath && !SawNoFh) {
        SawNoFh = true; // reported once per process, at its first use
        Issue("fhash_without_fh");
      }
      if (Invalid && I == Cut / 3) {
        Put("{\"id\":77,\"name\":\"broken\",\"cat\":\"POSIX\"");
        Issue("invalid_line");
        Put("{\"id\":78,\"name\":\"no_tid\",\"cat\":\"POSIX\",\"pid\":" +
            std::to_string(P.Pid) + ",\"ts\":5,\"dur\":1,\"ph\":\"X\"}");
        Issue("bad_field");
        ++ExtraEvents;
        ++Counted;
        Put("   ");
        Put("[1,2]");
        Issue("invalid_line");
      }
    }
    if (Sh != Shape::Own && !Truncate) {
      Put(tracerSpan(Sh, "end", NextId, P.Pid, 1'000'000,
                     ",\"num_events\":" + std::to_string(Counted) +
                         (Sh == Shape::Dev
                              ? ",\"cfg\":{\"metadata\":1,\"time_metric\":\"US\"}"
                              : "")));
      ++ExtraEvents;
      if (Sh == Shape::V1) { // "]" at finalize, without a newline
        O.write("]");
        ++LineNo;
      }
    }
    if (Truncate) {
      std::string Half =
          spanLine(*Lines[Cut].first, P.Pid, Lines[Cut].second, NP, Sh);
      O.write(Half.substr(0, Half.size() / 2));
      ++LineNo;
      Issue("truncated_line");
      // Spans whose parent was cut: one issue per missing parent.
      std::set<uint64_t> Missing; // parent ids
      for (size_t I = 0; I < Cut; ++I) {
        Node *N = Lines[I].first;
        if (N->Parent && !N->Parent->Written && !N->BadDur)
          Missing.insert(N->Parent->Id);
      }
      E.Issues["missing_parent"] += Missing.size();
    }
    O.close();
    E.Lines += LineNo;
    E.TextBytes += O.Bytes;
    E.Events += ExtraEvents;
    if (Keep)
      E.process(P, FileName, ExtraEvents);
    E.Events += Cut;
  }
  if (Keep) {
    // The analyzer lists issues by file, line and kind.
    auto Order = [](const Json &I) {
      return std::find(std::begin(IssueKinds), std::end(IssueKinds),
                       I["kind"].get<std::string>()) -
             std::begin(IssueKinds);
    };
    std::sort(E.IssueList.begin(), E.IssueList.end(), [&](const Json &A, const Json &B) {
      return std::make_tuple(A["file"].get<std::string>(), A["line"].get<uint64_t>(),
                             Order(A)) <
             std::make_tuple(B["file"].get<std::string>(), B["line"].get<uint64_t>(),
                             Order(B));
    });
    Json J = E.json(Files);
    if (Truncate)
      J["issues"].erase("first"); // missing_parent lines are the analyzer's
    J["file_count"] = E.Files.size();
    // Upstream's start/end are the tracer's, not functions; no file of the
    // set has a caveat (num_events matches, every call has its args).
    J["tracer_spans"] =
        Sh == Shape::Own ? 0 : (Truncate ? 1 : 2) * static_cast<uint64_t>(Files);
    J["caveats"] = Json::array();
    std::ofstream(ExpectedPath) << J.dump(2) << "\n";
  }
  return 0;
}

} // namespace tracegen
