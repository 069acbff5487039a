//===- TraceGen.cpp - Trace sets with known totals, for tests and benchmarks ===//
//
//   dftracer_trace_gen generate --dir D [--files N] [--spans N] [--threads T]
//       [--gzip] [--members K] [--seed S] [--truncate] [--invalid]
//       [--compute N] [--expected FILE]
//   dftracer_trace_gen compare EXPECTED.json ACTUAL.json [--partial]
//   dftracer_trace_gen check-chrome TRACE.json[.gz]
//   dftracer_trace_gen check-png SCREENSHOT.png
//
// generate builds, per file, one process (rank = file number) whose threads
// each run a tree of annotated functions issuing POSIX, STDIO, MPI-IO and
// HDF5 calls (MPI-IO and HDF5 calls hold the calls they make, as the
// runtime nests them), and writes it as the runtime does: spans in the
// order they end, threads interleaved in blocks, ids in order of start.
// --expected writes the totals the analyzer must report, computed here from
// the tree, top down, with none of the analyzer's code: the function that
// issued each call is the nearest annotated span on the generator's own
// stack, and a call counts once for every distinct function on that stack.
//
// compare checks that every key of EXPECTED has the same value in ACTUAL
// (objects: keys of EXPECTED only; arrays: same length, element by
// element; arrays of objects with "name": matched by name, and with
// --partial ACTUAL may hold more of them).
//
// check-chrome validates a --chrome-trace file against the Trace Event
// Format: {"traceEvents":[...]}, every event with ph, ts, pid, tid, X events
// with dur, process_name and thread_name metadata for every pid and tid
// used, and X events nested per thread.
//
// check-png passes a screenshot that is not blank: at least 16 colours and
// 2% of pixels that are not white.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Json = nlohmann::json;

// --- What a node is ----------------------------------------------------------

enum Kind { Read, Write, Meta, Other, Unknown };
const char *LayerNames[] = {"APP", "POSIX", "STDIO", "MPIIO", "HDF5", "OTHER"};
const char *Cats[] = {"C_APP", "POSIX", "STDIO", "MPIIO", "HDF5", "GPU"};

struct Node {
  std::string Name;
  int Layer = 0; // index into LayerNames
  Kind K = Other;
  const char *OpName = ""; // the analyzer's operation name, for I/O
  int64_t Ts = 0, Dur = 0;
  uint64_t Id = 0;
  int Level = 1;
  uint64_t FHash = 0;
  uint64_t Bytes = 0;   // bytes moved (data calls that succeed)
  bool Failed = false;
  std::string Args;     // I/O args after level/p_idx
  std::vector<std::unique_ptr<Node>> Children;
  Node *Parent = nullptr;
  bool Written = true;
  bool BadDur = false; // written with a negative dur: not usable
};

struct Rng {
  uint64_t S;
  uint64_t next() {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    return S;
  }
  uint64_t below(uint64_t N) { return next() % N; }
};

const uint64_t Sizes[] = {0,       50,        100,       101,      1000,
                          1024,    1025,      4096,      10240,    10241,
                          65536,   102400,    102401,    1048576,  1048577,
                          4194304, 4194305,   10485760,  10485761, 104857600,
                          104857601, 1073741824, 1073741825, 3221225472ull};

struct Builder {
  Rng R;
  int64_t T = 0;
  size_t Budget = 0;
  size_t Made = 0;
  uint64_t NoFhPath = 999; // an fhash with no FH line
  int Compute = 0;         // extra I/O-free spans after each phase
  std::vector<std::pair<uint64_t, std::string>> Paths;

  uint64_t fhash() {
    uint64_t I = R.below(Paths.size() + 1);
    return I == Paths.size() ? NoFhPath : Paths[I].first;
  }
  Node *add(Node *Parent, std::string Name, int Layer) {
    auto N = std::make_unique<Node>();
    N->Name = std::move(Name);
    N->Layer = Layer;
    N->Parent = Parent;
    N->Ts = T;
    ++Made;
    Parent->Children.push_back(std::move(N));
    return Parent->Children.back().get();
  }
  void close(Node *N, int64_t Min = 0) {
    T += static_cast<int64_t>(R.below(3));
    N->Dur = std::max(T - N->Ts, Min);
    T = N->Ts + N->Dur;
  }
  uint64_t size() { return Sizes[R.below(std::size(Sizes))]; }

  /// An I/O call under Parent that does K (the analyzer's OpName) and
  /// moves Bytes: its args are `fhash` (when FHash is not 0), then Fmt.
  Node *call(Node *Parent, const char *Name, int Layer, Kind K,
             const char *OpName, uint64_t Bytes, uint64_t FHash,
             const char *Fmt, ...) {
    Node *N = add(Parent, Name, Layer);
    N->K = K, N->OpName = OpName, N->Bytes = Bytes, N->FHash = FHash;
    char Text[200];
    va_list Ap;
    va_start(Ap, Fmt);
    std::vsnprintf(Text, sizeof Text, Fmt, Ap);
    va_end(Ap);
    N->Args = FHash ? "\"fhash\":" + std::to_string(FHash) + "," + Text : Text;
    return N;
  }

  /// An I/O call of the given layer, with what it holds.
  void io(Node *Parent, int Which) {
    T += static_cast<int64_t>(R.below(2));
    using U = unsigned long long;
    U S = size();
    Node *N;
    switch (Which) {
    case 0: // pwrite64
      N = call(Parent, "pwrite64", 1, Write, "write", S, fhash(),
               "\"fd\":5,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, S);
      break;
    case 1: { // __pread64_chk, sometimes short
      U Got = R.below(4) == 0 ? S / 2 : S;
      N = call(Parent, "__pread64_chk", 1, Read, "read", Got, fhash(),
               "\"fd\":5,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, Got);
      break;
    }
    case 2: { // metadata
      static const char *Names[] = {"open64", "close",  "lseek64", "__xstat64",
                                    "fsync",  "unlink", "mkdir",   "openat"};
      static const char *Ops[] = {"open", "close",     "seek",      "stat",
                                  "sync", "namespace", "namespace", "open"};
      int I = static_cast<int>(R.below(8));
      N = call(Parent, Names[I], 1, Meta, Ops[I], 0, fhash(), "\"ret\":0");
      break;
    }
    case 3: // a failed read
      N = call(Parent, "read", 1, Read, "read", 0, fhash(),
               "\"fd\":9,\"count\":%llu,\"ret\":-1", S);
      N->Failed = true;
      break;
    case 4: { // fwrite / fread_unlocked: size x items
      bool W = R.below(2);
      U Items = S / 8;
      N = call(Parent, W ? "fwrite" : "fread_unlocked", 2, W ? Write : Read,
               W ? "write" : "read", Items * 8, fhash(),
               "\"fd\":6,\"size\":8,\"count\":%llu,\"ret\":%llu", Items, Items);
      break;
    }
    case 5: { // stdio metadata
      static const char *Names[] = {"fopen64", "fclose", "fseek", "fflush"};
      static const char *Ops[] = {"open", "close", "seek", "sync"};
      int I = static_cast<int>(R.below(4));
      N = call(Parent, Names[I], 2, Meta, Ops[I], 0, fhash(), "\"ret\":0");
      break;
    }
    case 6: { // MPI-IO collective write holding two pwrite64
      N = call(Parent, "MPI_File_write_at_all", 3, Write, "write", S, fhash(),
               "\"count\":%llu,\"bytes\":%llu,\"offset\":0,\"ret\":0", S, S);
      for (U Part : {S / 2, S - S / 2}) {
        T += 1;
        Node *C = call(N, "pwrite64", 1, Write, "write", Part, N->FHash,
                       "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":%llu",
                       Part, Part);
        T += 1 + static_cast<int64_t>(R.below(4));
        close(C);
      }
      close(N, 1);
      return;
    }
    case 7: { // HDF5 write -> MPI-IO -> POSIX
      N = call(Parent, "H5Dwrite", 4, Write, "write", S, fhash(),
               "\"bytes\":%llu,\"ret\":0", S);
      T += 1;
      Node *M = call(N, "MPI_File_write_at", 3, Write, "write", S, N->FHash,
                     "\"count\":%llu,\"bytes\":%llu,\"ret\":0", S, S);
      T += 1;
      Node *P = call(M, "pwrite64", 1, Write, "write", S, N->FHash,
                     "\"fd\":8,\"count\":%llu,\"ret\":%llu", S, S);
      T += 2;
      close(P);
      close(M, 1);
      close(N, 1);
      return;
    }
    case 8: { // HDF5 metadata and a name the taxonomy does not know
      bool Odd = R.below(3) == 0;
      N = call(Parent, Odd ? "weird_io_call" : "H5Dcreate2", Odd ? 1 : 4,
               Odd ? Unknown : Meta, Odd ? "unknown" : "open", 0, 0,
               "\"ret\":3");
      break;
    }
    case 10: { // MPI-IO non-blocking write posted as a POSIX aio request,
               // its result collected later in the calling function
      N = call(Parent, "MPI_File_iwrite_at", 3, Write, "write", S, fhash(),
               "\"count\":%llu,\"bytes\":%llu,\"offset\":0,\"ret\":0", S, S);
      T += 1;
      Node *Req = call(N, "aio_write64", 1, Write, "write", S, N->FHash,
                       "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":0", S);
      T += 1;
      close(Req);
      close(N, 1);
      // The completion moves no bytes of its own, whatever its ret says
      // (sometimes short, as a read past the end of file would be).
      T += 1 + static_cast<int64_t>(R.below(5));
      U Moved = R.below(4) == 0 ? S / 2 : S;
      Node *Done =
          call(Parent, "aio_return64", 1, Other, "other", 0, N->FHash,
               "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, Moved);
      T += 1;
      close(Done);
      return;
    }
    default: { // MPI-IO read holding one pread64
      N = call(Parent, "MPI_File_read_at", 3, Read, "read", S, fhash(),
               "\"count\":%llu,\"bytes\":%llu,\"ret\":0", S, S);
      T += 1;
      Node *C = call(N, "pread64", 1, Read, "read", S, N->FHash,
                     "\"fd\":7,\"count\":%llu,\"ret\":%llu", S, S);
      T += 2;
      close(C);
      close(N, 1);
      return;
    }
    }
    T += 1 + static_cast<int64_t>(R.below(20));
    close(N);
  }

  void block(Node *Parent, const char *Name, int Calls, int Which) {
    Node *B = add(Parent, Name, 0);
    for (int I = 0; I < Calls; ++I)
      io(B, Which < 0 ? static_cast<int>(R.below(10)) : Which);
    T += 1;
    close(B);
  }

  void recurse(Node *Parent, int Depth) {
    Node *N = add(Parent, "recurse", 0);
    io(N, 0);
    if (Depth > 0)
      recurse(N, Depth - 1);
    close(N);
  }

  void phase(Node *Main) {
    switch (R.below(6)) {
    case 0: {
      Node *P = add(Main, "write_phase", 0);
      io(P, 2); // open, directly in the phase
      for (int I = 0; I < 3; ++I)
        block(P, "write_block", 2, R.below(2) ? 0 : 6);
      io(P, 7);
      io(P, 10);
      close(P);
      break;
    }
    case 1: {
      Node *P = add(Main, "read_phase", 0);
      for (int I = 0; I < 3; ++I)
        block(P, "read_block", 2, R.below(2) ? 1 : 9);
      io(P, 3);
      close(P);
      break;
    }
    case 2: {
      Node *P = add(Main, "meta_phase", 0);
      block(P, "stat_files", 4, 2);
      block(P, "stdio_log", 3, R.below(2) ? 4 : 5);
      Node *Region = add(P, "inner_region", 0);
      io(Region, 8);
      close(Region);
      close(P);
      break;
    }
    case 3:
      recurse(Main, static_cast<int>(R.below(4)));
      break;
    case 4: { // a function with no I/O at all
      Node *P = add(Main, "compute", 0);
      T += 5;
      close(P);
      break;
    }
    default:
      block(Main, "mixed", 3, -1);
      break;
    }
    for (int I = 0; I < Compute; ++I) {
      Node *P = add(Main, "compute", 0);
      T += 2;
      close(P);
    }
  }
};

// --- Per-process model and its expected figures -------------------------------

struct Process {
  std::map<uint64_t, std::string> PathOf; // fhash -> path, as reported
  int64_t Pid = 0;
  int Rank = 0;
  std::vector<std::unique_ptr<Node>> Roots; // per thread: a root "main"
  std::vector<int64_t> Tids;
  std::vector<std::vector<Node *>> Order;   // per thread: post-order
};

void number(Node *N, uint64_t &Next, int Level) {
  N->Id = Next++;
  N->Level = Level;
  for (auto &C : N->Children)
    number(C.get(), Next, Level + 1);
}

void postOrder(Node *N, std::vector<Node *> &Out) {
  for (auto &C : N->Children)
    postOrder(C.get(), Out);
  Out.push_back(N);
}

std::string spanLine(const Node &N, int64_t Pid, int64_t Tid) {
  std::string L = "{\"id\":" + std::to_string(N.Id) + ",\"name\":\"" + N.Name +
                  "\",\"cat\":\"" + Cats[N.Layer] + "\",\"pid\":" +
                  std::to_string(Pid) + ",\"tid\":" + std::to_string(Tid) +
                  ",\"ts\":" + std::to_string(N.Ts) + ",\"dur\":" +
                  (N.BadDur ? std::string("-5") : std::to_string(N.Dur)) +
                  ",\"ph\":\"X\",\"args\":{\"level\":" + std::to_string(N.Level) +
                  ",\"p_idx\":" +
                  std::to_string(N.Parent ? N.Parent->Id : 0);
  if (!N.Args.empty())
    L += "," + N.Args;
  return L + "}}";
}

struct Totals {
  uint64_t Ops = 0, TimeUs = 0, Read = 0, Written = 0;
  void add(const Node &N) {
    ++Ops;
    TimeUs += static_cast<uint64_t>(N.Dur);
    if (N.Failed)
      return;
    if (N.K == Kind::Read)
      Read += N.Bytes;
    else if (N.K == Kind::Write)
      Written += N.Bytes;
  }
  Json io() const {
    return {{"io_ops", Ops}, {"io_time_us", TimeUs}, {"io_bytes", Read + Written}};
  }
};

int sizeBin(uint64_t B) {
  const uint64_t Top[] = {100, 1024, 10240, 102400, 1048576, 4194304,
                          10485760, 104857600, 1073741824};
  int I = 0;
  while (I < 9 && B > Top[I])
    ++I;
  return I;
}

uint64_t unionLength(std::vector<std::pair<int64_t, int64_t>> V) {
  std::sort(V.begin(), V.end());
  uint64_t Total = 0;
  int64_t CurB = 0, CurE = 0;
  bool Have = false;
  for (auto [B, E] : V) {
    if (E <= B)
      continue;
    if (Have && B <= CurE) {
      CurE = std::max(CurE, E);
      continue;
    }
    if (Have)
      Total += static_cast<uint64_t>(CurE - CurB);
    CurB = B, CurE = E, Have = true;
  }
  if (Have)
    Total += static_cast<uint64_t>(CurE - CurB);
  return Total;
}

struct Expected {
  uint64_t Events = 0, Spans = 0, Lines = 0, TextBytes = 0;
  struct LayerAcc {
    uint64_t Ops = 0, TimeUs = 0, Read = 0, Written = 0, Failed = 0;
    uint64_t UnionSum = 0, UnionMax = 0;
    std::map<std::string, std::array<uint64_t, 3>> ByOp;
    uint64_t ReadBins[10] = {}, WriteBins[10] = {};
    uint64_t DataOps = 0, DataUs = 0, MetaOps = 0, MetaUs = 0;
  } Layers[6];
  Totals Io;
  struct Fn {
    uint64_t Calls = 0, TimeUs = 0;
    Totals Direct, Inclusive;
  };
  std::map<std::string, Fn> Functions;
  std::map<std::string, uint64_t> UnknownOps;
  std::set<std::string> Files;
  std::map<std::string, uint64_t> Issues;
  std::vector<Json> IssueList; // {file, line, kind}
  Json Ranks = Json::array();

  void process(const Process &P, const std::string &FileName,
               uint64_t ExtraEvents) {
    uint64_t RankEvents = ExtraEvents;
    Totals RankIo;
    std::vector<std::pair<int64_t, int64_t>> All[6], AnyIo;
    for (size_t T = 0; T < P.Roots.size(); ++T)
      for (Node *N : P.Order[T]) {
        if (!N->Written)
          continue;
        ++RankEvents;
        if (N->BadDur)
          continue;
        ++Spans;
        LayerAcc &L = Layers[N->Layer];
        ++L.Ops;
        L.TimeUs += static_cast<uint64_t>(N->Dur);
        bool IsIo = N->Layer >= 1 && N->Layer <= 4;
        if (!IsIo) {
          Fn &F = Functions[N->Name];
          ++F.Calls;
          F.TimeUs += static_cast<uint64_t>(N->Dur);
          if (!N->Parent)
            All[N->Layer].emplace_back(N->Ts, N->Ts + N->Dur);
          continue;
        }
        All[N->Layer].emplace_back(N->Ts, N->Ts + N->Dur);
        AnyIo.emplace_back(N->Ts, N->Ts + N->Dur);
        if (N->Failed)
          ++L.Failed;
        uint64_t Moved = N->Failed ? 0 : N->Bytes;
        if (N->K == Read)
          L.Read += Moved;
        if (N->K == Write)
          L.Written += Moved;
        auto &Op = L.ByOp[N->OpName];
        ++Op[0];
        Op[1] += static_cast<uint64_t>(N->Dur);
        Op[2] += N->K == Read || N->K == Write ? Moved : 0;
        if (!N->Failed && N->K == Read)
          ++L.ReadBins[sizeBin(Moved)];
        if (!N->Failed && N->K == Write)
          ++L.WriteBins[sizeBin(Moved)];
        if (N->K == Read || N->K == Write)
          ++L.DataOps, L.DataUs += static_cast<uint64_t>(N->Dur);
        if (N->K == Meta)
          ++L.MetaOps, L.MetaUs += static_cast<uint64_t>(N->Dur);
        if (N->K == Unknown)
          ++UnknownOps[std::string(LayerNames[N->Layer]) + "/" + N->Name];
        if (N->FHash)
          Files.insert(P.PathOf.at(N->FHash));
        // Once per call: only calls not inside another I/O call.
        bool InIo = false;
        for (Node *A = N->Parent; A; A = A->Parent)
          InIo |= A->Layer >= 1 && A->Layer <= 4 && A->Written;
        if (InIo)
          continue;
        Io.add(*N);
        RankIo.add(*N);
        // Direct: the nearest annotated span; inclusive: every distinct
        // annotated span above. A span never written (a cut trace) takes
        // nothing; its I/O goes to "(unknown parent)".
        Node *Nearest = nullptr;
        std::set<std::string> Above;
        bool Lost = false;
        for (Node *A = N->Parent; A; A = A->Parent) {
          if (A->Layer >= 1 && A->Layer <= 4)
            continue;
          if (!A->Written) {
            Lost = true;
            if (!Nearest)
              Nearest = A;
            continue;
          }
          if (!Nearest)
            Nearest = A;
          Above.insert(A->Name);
        }
        if (!Nearest) {
          Functions["(no function)"].Direct.add(*N);
          Functions["(no function)"].Inclusive.add(*N);
          continue;
        }
        if (Nearest->Written)
          Functions[Nearest->Name].Direct.add(*N);
        else
          Functions["(unknown parent)"].Direct.add(*N);
        if (Lost)
          Functions["(unknown parent)"].Inclusive.add(*N);
        for (const std::string &Name : Above)
          Functions[Name].Inclusive.add(*N);
      }
    Json Union = Json::object();
    for (int L = 0; L < 6; ++L) {
      uint64_t U = unionLength(All[L]);
      Layers[L].UnionSum += U;
      Layers[L].UnionMax = std::max(Layers[L].UnionMax, U);
      if (!All[L].empty() || Layers[L].Ops)
        Union[LayerNames[L]] = U;
    }
    Ranks.push_back({{"rank", std::to_string(P.Rank)},
                     {"pid", P.Pid},
                     {"file", FileName},
                     {"events", RankEvents},
                     {"io_time_us", unionLength(AnyIo)},
                     {"io_ops", RankIo.Ops},
                     {"io_bytes_read", RankIo.Read},
                     {"io_bytes_written", RankIo.Written}});
  }

  Json json(size_t NumFiles) const {
    Json J;
    J["schema"] = 1;
    J["files"] = NumFiles;
    J["events"] = Events;
    J["lines"] = Lines;
    J["text_bytes"] = TextBytes;
    J["spans"] = Spans;
    Json Counts = Json::object();
    uint64_t Total = 0;
    for (const char *K : {"truncated_line", "invalid_line", "bad_field",
                          "negative_time", "negative_size", "unknown_category",
                          "fhash_without_fh", "missing_parent", "bad_stream"}) {
      auto It = Issues.find(K);
      Counts[K] = It == Issues.end() ? 0 : It->second;
      Total += Counts[K].get<uint64_t>();
    }
    J["issues"] = {{"total", Total}, {"counts", Counts}};
    Json Ls = Json::object();
    for (int L = 0; L < 6; ++L) {
      const LayerAcc &A = Layers[L];
      if (!A.Ops)
        continue;
      Json X{{"ops", A.Ops},           {"bytes_read", A.Read},
             {"bytes_written", A.Written}, {"time_us", A.TimeUs},
             {"union_us", A.UnionSum}, {"union_max_us", A.UnionMax}};
      if (L >= 1 && L <= 4) {
        X["failed"] = A.Failed;
        X["data"] = {{"ops", A.DataOps}, {"time_us", A.DataUs}};
        X["metadata"] = {{"ops", A.MetaOps}, {"time_us", A.MetaUs}};
        Json Ops = Json::object();
        for (const auto &[Name, V] : A.ByOp)
          Ops[Name] = {{"ops", V[0]}, {"time_us", V[1]}, {"bytes", V[2]}};
        X["operations"] = Ops;
      }
      Ls[LayerNames[L]] = X;
    }
    J["layers"] = Ls;
    J["io"] = {{"ops", Io.Ops},
               {"time_us", Io.TimeUs},
               {"bytes_read", Io.Read},
               {"bytes_written", Io.Written}};
    Json Sizes = Json::object();
    for (int L = 1; L <= 4; ++L)
      if (Layers[L].Ops)
        Sizes[LayerNames[L]] = {
            {"read", std::vector<uint64_t>(Layers[L].ReadBins, Layers[L].ReadBins + 10)},
            {"write", std::vector<uint64_t>(Layers[L].WriteBins, Layers[L].WriteBins + 10)}};
    J["sizes"] = Sizes;
    Json Fns = Json::array();
    for (const auto &[Name, F] : Functions) {
      Json X{{"name", Name}, {"calls", F.Calls}, {"time_us", F.TimeUs}};
      X.update(F.Direct.io());
      X["inclusive"] = F.Inclusive.io();
      Fns.push_back(X);
    }
    J["functions"] = Fns;
    J["ranks"] = {{"count", Ranks.size()}, {"list", Ranks}};
    Json Un = Json::array();
    for (const auto &[Key, N] : UnknownOps)
      Un.push_back({{"name", Key.substr(Key.find('/') + 1)},
                    {"layer", Key.substr(0, Key.find('/'))},
                    {"ops", N}});
    J["unknown_operations"] = Un;
    Json First = Json::array();
    for (const Json &I : IssueList)
      First.push_back(I);
    J["issues"]["first"] = First;
    return J;
  }
};

// --- Writing ----------------------------------------------------------------

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

int generate(int Argc, char **Argv) {
  std::string Dir, ExpectedPath;
  size_t Files = 4, SpansPerFile = 2000, Threads = 1, Members = 1;
  uint64_t Seed = 1;
  bool Gzip = false, Truncate = false, Invalid = false, Mixed = false;
  int Compute = 0;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string { return I + 1 < Argc ? Argv[++I] : ""; };
    if (A == "--dir") Dir = Next();
    else if (A == "--files") Files = std::stoul(Next());
    else if (A == "--spans") SpansPerFile = std::stoul(Next());
    else if (A == "--threads") Threads = std::stoul(Next());
    else if (A == "--members") Members = std::stoul(Next());
    else if (A == "--seed") Seed = std::stoull(Next());
    else if (A == "--compute") Compute = std::stoi(Next());
    else if (A == "--gzip") Gzip = true;
    else if (A == "--mixed") Mixed = true; // every other file gzip
    else if (A == "--truncate") Truncate = true;
    else if (A == "--invalid") Invalid = true;
    else if (A == "--expected") ExpectedPath = Next();
    else {
      std::cerr << "dftracer_trace_gen: unknown option " << A << "\n";
      return 2;
    }
  }
  if (Dir.empty()) {
    std::cerr << "dftracer_trace_gen: --dir is required\n";
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
  for (size_t FI = 0; FI < Files; ++FI) {
    Process P;
    P.Pid = 4000 + static_cast<int64_t>(FI);
    P.Rank = static_cast<int>(FI);
    Builder B;
    B.R.S = Seed * 7919 + FI * 104729 + 1;
    B.Compute = Compute;
    for (int K = 0; K < 3; ++K)
      B.Paths.emplace_back(1000 + FI * 10 + K, "/scratch/run/file" +
                                                  std::to_string(K) + ".dat");
    for (auto &[Hash, Path] : B.Paths)
      P.PathOf[Hash] = Path;
    P.PathOf[B.NoFhPath] = "fhash:" + std::to_string(B.NoFhPath);
    size_t PerThread = std::max<size_t>(10, SpansPerFile / Threads);
    for (size_t T = 0; T < Threads; ++T) {
      B.T = 1'000'000 + static_cast<int64_t>(B.R.below(50));
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
    }
    // File order: threads interleaved in blocks of 64 lines, as per-thread
    // buffers reach the file.
    std::vector<std::pair<Node *, int64_t>> Lines;
    std::vector<size_t> Pos(P.Order.size(), 0);
    for (bool Any = true; Any;) {
      Any = false;
      for (size_t T = 0; T < P.Order.size(); ++T)
        for (size_t K = 0; K < 64 && Pos[T] < P.Order[T].size(); ++K, ++Pos[T]) {
          Lines.emplace_back(P.Order[T][Pos[T]], P.Tids[T]);
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
    Put("[");
    Put("{\"id\":1,\"name\":\"CM\",\"cat\":\"dftracer\",\"pid\":" +
        std::to_string(P.Pid) + ",\"tid\":" + std::to_string(P.Pid) +
        ",\"ph\":\"M\",\"args\":{\"name\":\"rank\",\"value\":\"" +
        std::to_string(P.Rank) + "\"}}");
    ++ExtraEvents;
    uint64_t MetaId = 2;
    for (auto &[Hash, Path] : B.Paths) {
      Put("{\"id\":" + std::to_string(MetaId++) +
          ",\"name\":\"FH\",\"cat\":\"dftracer\",\"pid\":" +
          std::to_string(P.Pid) + ",\"tid\":" + std::to_string(P.Pid) +
          ",\"ph\":\"M\",\"args\":{\"name\":\"" + Path + "\",\"value\":" +
          std::to_string(Hash) + "}}");
      ++ExtraEvents;
    }
    size_t PerMember = std::max<size_t>(1, Cut / O.Members + 1);
    bool SawNoFh = false;
    for (size_t I = 0; I < Cut; ++I) {
      if (I > 0 && I % PerMember == 0)
        O.newMember();
      Node *N = Lines[I].first;
      Put(spanLine(*N, P.Pid, Lines[I].second));
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
        Put("   ");
        Put("[1,2]");
        Issue("invalid_line");
      }
    }
    if (Truncate) {
      std::string Half = spanLine(*Lines[Cut].first, P.Pid, Lines[Cut].second);
      O.write(Half.substr(0, Half.size() / 2));
      ++LineNo;
      Issue("truncated_line");
      // Spans whose parent was cut: one issue per missing parent.
      std::map<uint64_t, uint64_t> Missing; // parent id -> first line
      for (size_t I = 0; I < Cut; ++I) {
        Node *N = Lines[I].first;
        if (N->Parent && !N->Parent->Written && !N->BadDur)
          Missing.emplace(N->Parent->Id, 0);
      }
      E.Issues["missing_parent"] += Missing.size();
    }
    O.close();
    E.Lines += LineNo;
    E.TextBytes += O.Bytes;
    E.Events += ExtraEvents;
    if (Keep)
      E.process(P, FileName, ExtraEvents);
    for (size_t I = 0; I < Cut; ++I)
      ++E.Events;
  }
  if (Keep) {
    // The analyzer lists issues by file, line and kind.
    std::sort(E.IssueList.begin(), E.IssueList.end(), [](const Json &A, const Json &B) {
      static const std::map<std::string, int> Order{
          {"truncated_line", 0}, {"invalid_line", 1}, {"bad_field", 2},
          {"negative_time", 3}, {"negative_size", 4}, {"unknown_category", 5},
          {"fhash_without_fh", 6}, {"missing_parent", 7}, {"bad_stream", 8}};
      return std::make_tuple(A["file"].get<std::string>(), A["line"].get<uint64_t>(),
                             Order.at(A["kind"].get<std::string>())) <
             std::make_tuple(B["file"].get<std::string>(), B["line"].get<uint64_t>(),
                             Order.at(B["kind"].get<std::string>()));
    });
    Json J = E.json(Files);
    if (Truncate)
      J["issues"].erase("first"); // missing_parent lines are the analyzer's
    J["file_count"] = E.Files.size();
    std::ofstream(ExpectedPath) << J.dump(2) << "\n";
  }
  return 0;
}

// --- compare --------------------------------------------------------------------

bool PartialNamedLists = false; // compare --partial: name-matched lists may hold more

bool subset(const Json &Want, const Json &Got, const std::string &Path,
            std::string &Why) {
  if (Want.is_object()) {
    if (!Got.is_object()) {
      Why = Path + ": expected an object";
      return false;
    }
    for (auto It = Want.begin(); It != Want.end(); ++It) {
      if (!Got.contains(It.key())) {
        Why = Path + "." + It.key() + ": missing";
        return false;
      }
      if (!subset(*It, Got[It.key()], Path + "." + It.key(), Why))
        return false;
    }
    return true;
  }
  if (Want.is_array()) {
    bool ByName = !Want.empty() && Want[0].is_object() && Want[0].contains("name");
    if (!Got.is_array() ||
        (Got.size() != Want.size() && !(ByName && PartialNamedLists))) {
      Why = Path + ": expected an array of " + std::to_string(Want.size()) +
            ", got " + Got.dump().substr(0, 300);
      return false;
    }
    for (size_t I = 0; I < Want.size(); ++I) {
      const Json *Match = &Got[I];
      if (ByName) {
        Match = nullptr;
        for (const Json &G : Got)
          if (G.contains("name") && G["name"] == Want[I]["name"] &&
              (!Want[I].contains("layer") || G["layer"] == Want[I]["layer"]))
            Match = &G;
        if (!Match) {
          Why = Path + ": no element named " + Want[I]["name"].dump();
          return false;
        }
      }
      if (!subset(Want[I], *Match, Path + "[" + std::to_string(I) + "]", Why))
        return false;
    }
    return true;
  }
  if (Want != Got) {
    Why = Path + ": expected " + Want.dump() + ", got " + Got.dump();
    return false;
  }
  return true;
}

int compare(int Argc, char **Argv) {
  if (Argc == 5 && std::string(Argv[4]) == "--partial") {
    PartialNamedLists = true;
    --Argc;
  }
  if (Argc != 4) {
    std::cerr << "usage: dftracer_trace_gen compare EXPECTED ACTUAL [--partial]\n";
    return 2;
  }
  std::ifstream A(Argv[2]), B(Argv[3]);
  Json Want = Json::parse(A, nullptr, false), Got = Json::parse(B, nullptr, false);
  if (Want.is_discarded() || Got.is_discarded()) {
    std::cerr << "compare: a file is not JSON\n";
    return 1;
  }
  std::string Why;
  if (!subset(Want, Got, "$", Why)) {
    std::cerr << "compare: " << Why << "\n";
    return 1;
  }
  std::cout << "compare: every expected value matches\n";
  return 0;
}

// --- check-chrome -------------------------------------------------------------

int checkChrome(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  gzFile Z = gzopen(Argv[2], "rb"); // reads plain files too
  if (!Z) {
    std::cerr << "check-chrome: cannot open " << Argv[2] << "\n";
    return 1;
  }
  std::string Text;
  char Buf[1 << 16];
  int N;
  while ((N = gzread(Z, Buf, sizeof Buf)) > 0)
    Text.append(Buf, static_cast<size_t>(N));
  gzclose(Z);
  Json J = Json::parse(Text, nullptr, false);
  auto Fail = [](const std::string &Why) {
    std::cerr << "check-chrome: " << Why << "\n";
    return 1;
  };
  if (J.is_discarded())
    return Fail("not valid JSON (strict: commas, closed)");
  if (!J.is_object() || !J.contains("traceEvents") || !J["traceEvents"].is_array())
    return Fail("not {\"traceEvents\":[...]}");
  std::set<int64_t> NamedPids, UsedPids;
  std::set<std::pair<int64_t, int64_t>> NamedTids, UsedTids;
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> Spans;
  size_t X = 0;
  for (const Json &E : J["traceEvents"]) {
    for (const char *K : {"ph", "ts", "pid", "tid"})
      if (!E.contains(K))
        return Fail(std::string("event without \"") + K + "\": " + E.dump());
    std::string Ph = E["ph"];
    int64_t Pid = E["pid"], Tid = E["tid"];
    if (Ph == "M") {
      if (E["name"] == "process_name")
        NamedPids.insert(Pid);
      if (E["name"] == "thread_name")
        NamedTids.insert({Pid, Tid});
      continue;
    }
    if (Ph != "X")
      return Fail("unexpected phase " + Ph);
    if (!E.contains("dur") || !E["dur"].is_number() || E["dur"] < 0 ||
        !E.contains("name") || !E["ts"].is_number())
      return Fail("X event without a name, a number ts or a dur >= 0: " + E.dump());
    ++X;
    UsedPids.insert(Pid);
    UsedTids.insert({Pid, Tid});
    int64_t Ts = E["ts"], Dur = E["dur"];
    Spans[{Pid, Tid}].emplace_back(Ts, -(Ts + Dur));
  }
  for (int64_t P : UsedPids)
    if (!NamedPids.count(P))
      return Fail("pid " + std::to_string(P) + " has no process_name");
  for (auto &T : UsedTids)
    if (!NamedTids.count(T))
      return Fail("pid " + std::to_string(T.first) + " tid " +
                  std::to_string(T.second) + " has no thread_name");
  for (auto &[Key, List] : Spans) {
    std::sort(List.begin(), List.end());
    std::vector<int64_t> Ends;
    for (auto [Ts, NegEnd] : List) {
      int64_t End = -NegEnd;
      while (!Ends.empty() && Ends.back() <= Ts && !(Ends.back() == Ts && End == Ts))
        Ends.pop_back();
      if (!Ends.empty() && End > Ends.back())
        return Fail("X events overlap without nesting on pid " +
                    std::to_string(Key.first) + " tid " + std::to_string(Key.second) +
                    " at ts " + std::to_string(Ts));
      Ends.push_back(End);
    }
  }
  std::cout << "check-chrome: " << X << " X events in " << UsedPids.size()
            << " processes, valid\n";
  return 0;
}

// --- check-png -------------------------------------------------------------------

/// A screenshot is a picture: enough pixels that are not the background,
/// in enough colours. Decodes 8-bit RGB/RGBA non-interlaced PNG (what
/// Chromium writes).
int checkPng(int Argc, char **Argv) {
  if (Argc != 3)
    return 2;
  std::ifstream In(Argv[2], std::ios::binary);
  std::string B((std::istreambuf_iterator<char>(In)), {});
  auto U32 = [&](size_t P) {
    return (uint32_t(uint8_t(B[P])) << 24) | (uint32_t(uint8_t(B[P + 1])) << 16) |
           (uint32_t(uint8_t(B[P + 2])) << 8) | uint32_t(uint8_t(B[P + 3]));
  };
  if (B.size() < 33 || B.compare(1, 3, "PNG") != 0) {
    std::cerr << "check-png: not a PNG\n";
    return 1;
  }
  uint32_t W = U32(16), H = U32(20);
  int Depth = uint8_t(B[24]), Type = uint8_t(B[25]), Interlace = uint8_t(B[28]);
  size_t Bpp = Type == 6 ? 4 : Type == 2 ? 3 : 0;
  if (Depth != 8 || !Bpp || Interlace) {
    std::cerr << "check-png: unsupported PNG layout\n";
    return 1;
  }
  std::string Z;
  for (size_t P = 8; P + 8 <= B.size();) {
    uint32_t Len = U32(P);
    std::string Type4 = B.substr(P + 4, 4);
    if (Type4 == "IDAT")
      Z += B.substr(P + 8, Len);
    P += 12 + Len;
  }
  size_t Stride = W * Bpp;
  std::vector<unsigned char> Raw((Stride + 1) * H);
  uLongf RawLen = Raw.size();
  if (uncompress(Raw.data(), &RawLen, reinterpret_cast<const Bytef *>(Z.data()),
                 Z.size()) != Z_OK) {
    std::cerr << "check-png: cannot inflate\n";
    return 1;
  }
  std::vector<unsigned char> Img(Stride * H), Prev(Stride, 0);
  for (uint32_t Y = 0; Y < H; ++Y) {
    unsigned char F = Raw[Y * (Stride + 1)];
    unsigned char *Src = &Raw[Y * (Stride + 1) + 1], *Dst = &Img[Y * Stride];
    for (size_t X = 0; X < Stride; ++X) {
      int A = X >= Bpp ? Dst[X - Bpp] : 0, Up = Prev[X],
          C = X >= Bpp ? Prev[X - Bpp] : 0, V = Src[X];
      switch (F) {
      case 1: V += A; break;
      case 2: V += Up; break;
      case 3: V += (A + Up) / 2; break;
      case 4: {
        int P = A + Up - C, PA = std::abs(P - A), PB = std::abs(P - Up),
            PC = std::abs(P - C);
        V += PA <= PB && PA <= PC ? A : PB <= PC ? Up : C;
        break;
      }
      }
      Dst[X] = static_cast<unsigned char>(V);
    }
    std::copy(Dst, Dst + Stride, Prev.begin());
  }
  std::set<uint32_t> Colours;
  uint64_t NotWhite = 0;
  for (size_t I = 0; I < Img.size(); I += Bpp) {
    uint32_t C = (uint32_t(Img[I]) << 16) | (uint32_t(Img[I + 1]) << 8) | Img[I + 2];
    if (Colours.size() < 4096)
      Colours.insert(C);
    NotWhite += C != 0xffffff;
  }
  double Share = double(NotWhite) / (double(W) * H);
  std::cout << "check-png: " << W << "x" << H << ", " << Colours.size()
            << (Colours.size() >= 4096 ? "+" : "") << " colours, "
            << int(Share * 1000) / 10.0 << "% not white\n";
  return Colours.size() >= 16 && Share > 0.02 ? 0 : 1;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Cmd = Argc > 1 ? Argv[1] : "";
  if (Cmd == "generate")
    return generate(Argc, Argv);
  if (Cmd == "compare")
    return compare(Argc, Argv);
  if (Cmd == "check-chrome")
    return checkChrome(Argc, Argv);
  if (Cmd == "check-png")
    return checkPng(Argc, Argv);
  std::cerr << "usage: dftracer_trace_gen generate|compare|check-chrome ...\n";
  return 2;
}
