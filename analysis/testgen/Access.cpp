//===- Access.cpp - dftracer_trace_gen access ------------------------------===//
//
// Traces of N ranks accessing one shared file in a known pattern, with the
// issue-22 records (FS, MPIIO_HINTS, HDF5_FILE, HDF5_DSET, NODE), and with
// --expected the access figures the report must hold, per file and per
// function. The figures come from a brute-force model written for this
// purpose: one byte map per rank and kind, and a count of readers
// (writers) per byte, walked call by call; none of the analyzer's interval
// sets, and a call's function is the one the generator wrapped it in.
//
//   dftracer_trace_gen access --dir D --pattern sequential|strided|random|
//       overlap|functions [--ranks N] [--calls K] [--size S] [--block B]
//       [--stripe U] [--no-fs] [--mem-align A] [--no-parent] [--seed X]
//       [--expected E.json]
//
// Patterns, per rank r (calls of S bytes):
//   sequential  K writes of its own segment [r*K*S, (r+1)*K*S), then K reads
//               of it, in order;
//   strided     K writes at (i*N + r)*S, then K reads of them;
//   random      K writes at random multiples of S (every fourth call 512
//               bytes further, every third S/2 long), then K random reads;
//   overlap     its segment written, then the whole file read twice;
//   functions   under one "main" span: K spans of write_particles, each one
//               write of its segment [r*K*S, (r+1)*K*S) in order; one span
//               of write_index with K writes at N*K*S + (i*N + r)*S; one
//               span of read_back reading the first half of its segment
//               twice (K reads). The other patterns' calls are roots:
//               "(no function)"'s.
// --mem-align A: each rank's CM "mem_alignment" is A (>= 8) and every
// third call (the second of each three) carries "mem_align":4; without it
// the trace has neither (an older runtime's). --no-parent: no level and
// p_idx (parents by time, as upstream's dev branch).
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace tracegen {

namespace {

using Json = nlohmann::ordered_json;

struct Call {
  bool Write;
  uint64_t Offset, Size;
  int Fn = -1;       // into FnNames; -1: a root
  uint64_t Span = 0; // calls of one function span share it (with Fn)
};

const char *const FnNames[] = {"write_particles", "write_index", "read_back"};

std::vector<Call> pattern(const std::string &P, uint64_t R, uint64_t N,
                          uint64_t K, uint64_t S, uint64_t &Seed) {
  std::vector<Call> C;
  auto Rand = [&] {
    Seed = Seed * 6364136223846793005ull + 1442695040888963407ull;
    return Seed >> 33;
  };
  if (P == "sequential") {
    for (bool W : {true, false})
      for (uint64_t I = 0; I < K; ++I)
        C.push_back({W, (R * K + I) * S, S});
  } else if (P == "strided") {
    for (bool W : {true, false})
      for (uint64_t I = 0; I < K; ++I)
        C.push_back({W, (I * N + R) * S, S});
  } else if (P == "random") {
    for (bool W : {true, false})
      for (uint64_t I = 0; I < K; ++I)
        C.push_back({W, (Rand() % (K * N)) * S + (I % 4 == 1 ? 512 : 0),
                     I % 3 == 2 ? S / 2 : S});
  } else if (P == "overlap") {
    for (uint64_t I = 0; I < K; ++I)
      C.push_back({true, (R * K + I) * S, S});
    for (int Pass = 0; Pass < 2; ++Pass)
      for (uint64_t I = 0; I < K * N; ++I)
        C.push_back({false, I * S, S});
  } else if (P == "functions") {
    uint64_t Span = 0;
    for (uint64_t I = 0; I < K; ++I)
      C.push_back({true, (R * K + I) * S, S, 0, Span++});
    for (uint64_t I = 0; I < K; ++I)
      C.push_back({true, N * K * S + (I * N + R) * S, S, 1, Span});
    ++Span;
    for (uint64_t I = 0; I < K; ++I)
      C.push_back({false, (R * K + I % (K / 2 ? K / 2 : 1)) * S, S, 2, Span});
  }
  return C;
}

/// The most common values, most common first (ties: smaller value).
Json top4(const std::map<int64_t, uint64_t> &M) {
  std::vector<std::pair<int64_t, uint64_t>> V(M.begin(), M.end());
  std::stable_sort(V.begin(), V.end(), [](const auto &A, const auto &B) {
    return A.second > B.second;
  });
  Json J = Json::array();
  for (size_t I = 0; I < V.size() && I < 4; ++I)
    J.push_back({V[I].first, V[I].second});
  return J;
}

/// The access figures of a set of calls (a file's, or a function's).
struct Figures {
  uint64_t Reads = 0, Writes = 0, SeqR = 0, SeqW = 0, ConR = 0, ConW = 0,
           Switches = 0, NotAligned = 0, NotAlignedBytes = 0, SameR = 0,
           SameW = 0, MemNotAligned = 0;
  int64_t MaxR = -1, MaxW = -1;
  std::map<int64_t, uint64_t> Sizes, Strides;

  /// The keys of the report's "access" object both scopes have.
  Json json(uint64_t Unit, bool Assumed, uint64_t MemAlign) const {
    Json J{{"reads", Reads},
           {"writes", Writes},
           {"reads_without_offset", 0},
           {"writes_without_offset", 0},
           {"seq_reads", SeqR},
           {"seq_writes", SeqW},
           {"consec_reads", ConR},
           {"consec_writes", ConW},
           {"rw_switches", Switches},
           {"common_access", top4(Sizes)},
           {"strides", top4(Strides)},
           {"not_aligned", NotAligned},
           {"not_aligned_bytes", NotAlignedBytes},
           {"alignment", Unit},
           {"alignment_assumed", Assumed ? Reads + Writes : 0},
           {"max_byte_read", MaxR},
           {"max_byte_written", MaxW},
           {"redundant_read_same_process", SameR},
           {"redundant_written_same_process", SameW},
           {"redundant_at_least", false}};
    if (MemAlign) {
      J["mem_not_aligned"] = MemNotAligned;
      J["mem_alignment"] = MemAlign;
    } else {
      J["mem_alignment"] = "unknown, not recorded";
    }
    return J;
  }
};

std::string line(const Json &J) { return J.dump(); }

} // namespace

int access(int Argc, char **Argv) {
  std::string Dir, Pattern = "sequential", Expected;
  uint64_t N = 2, K = 16, S = 4096, Block = 4096, Stripe = 0, Seed = 1;
  uint64_t MemAlign = 0; // the CM record's; 0: none
  bool Fs = true, NoParent = false;
  for (int I = 2; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Next = [&]() -> std::string {
      if (I + 1 >= Argc) {
        std::cerr << "access: " << A << " needs a value\n";
        std::exit(2);
      }
      return Argv[++I];
    };
    if (A == "--dir")
      Dir = Next();
    else if (A == "--pattern")
      Pattern = Next();
    else if (A == "--expected")
      Expected = Next();
    else if (A == "--ranks")
      N = std::stoull(Next());
    else if (A == "--calls")
      K = std::stoull(Next());
    else if (A == "--size")
      S = std::stoull(Next());
    else if (A == "--block")
      Block = std::stoull(Next());
    else if (A == "--stripe")
      Stripe = std::stoull(Next());
    else if (A == "--seed")
      Seed = std::stoull(Next());
    else if (A == "--no-fs")
      Fs = false;
    else if (A == "--mem-align")
      MemAlign = std::stoull(Next());
    else if (A == "--no-parent")
      NoParent = true;
    else {
      std::cerr << "access: unknown option " << A << "\n";
      return 2;
    }
  }
  if (Dir.empty() || !N || !K || S < 2 ||
      (Pattern != "sequential" && Pattern != "strided" &&
       Pattern != "random" && Pattern != "overlap" &&
       Pattern != "functions") ||
      (MemAlign && MemAlign < 8)) {
    std::cerr << "usage: dftracer_trace_gen access --dir D --pattern "
                 "sequential|strided|random|overlap|functions [--ranks N] "
                 "[--calls K] [--size S] [--block B] [--stripe U] [--no-fs] "
                 "[--mem-align A (>= 8)] [--no-parent] [--seed X] "
                 "[--expected E.json]\n";
    return 2;
  }
  const std::string Path = "/data/" + Pattern + ".dat";
  const uint64_t FHash = 4242, DHash = 777;
  const uint64_t Unit = !Fs ? 1 << 20 : Stripe ? Stripe : Block;

  // The model: per rank, the state Darshan keeps per file record.
  uint64_t FileSize = 0;
  std::vector<std::vector<Call>> Calls(N);
  for (uint64_t R = 0; R < N; ++R) {
    Calls[R] = pattern(Pattern, R, N, K, S, Seed);
    for (const Call &C : Calls[R])
      FileSize = std::max(FileSize, C.Offset + C.Size);
  }
  Figures All;                 // the file's
  std::map<int, Figures> ByFn; // the functions' (-1: no function)
  bool Model = !Expected.empty(); // byte maps: small sets only
  std::vector<uint32_t> ReadersOf(Model ? FileSize : 0),
      WritersOf(Model ? FileSize : 0);
  std::vector<uint64_t> RankBytes(N), RankTime(N);
  for (uint64_t R = 0; R < N && Model; ++R) {
    std::vector<uint8_t> Read(FileSize), Written(FileSize);
    int64_t LastR = -1, LastW = -1;
    int Kind = 0;
    for (size_t CallNo = 0; CallNo < Calls[R].size(); ++CallNo) {
      const Call &C = Calls[R][CallNo];
      std::vector<uint8_t> &Map = C.Write ? Written : Read;
      uint64_t Again = 0;
      for (uint64_t B = C.Offset; B < C.Offset + C.Size; ++B) {
        Again += Map[B];
        Map[B] = 1;
      }
      // The call is judged against the previous call of its rank on the
      // file, whatever function made that one; the file and the call's
      // function both count it.
      int64_t Off = static_cast<int64_t>(C.Offset);
      int64_t End = Off + static_cast<int64_t>(C.Size);
      int64_t &Last = C.Write ? LastW : LastR;
      for (Figures *F : {&All, &ByFn[C.Fn]}) {
        if (Kind && Kind != (C.Write ? 2 : 1))
          ++F->Switches;
        if (Last >= 0) {
          (C.Write ? F->SeqW : F->SeqR) += Off >= Last;
          (C.Write ? F->ConW : F->ConR) += Off == Last;
          ++F->Strides[Off - Last];
        }
        ++F->Sizes[static_cast<int64_t>(C.Size)];
        ++(C.Write ? F->Writes : F->Reads);
        int64_t &Max = C.Write ? F->MaxW : F->MaxR;
        Max = std::max(Max, End - 1);
        if (C.Offset % Unit) {
          ++F->NotAligned;
          F->NotAlignedBytes += C.Size;
        }
        (C.Write ? F->SameW : F->SameR) += Again;
        F->MemNotAligned += MemAlign && CallNo % 3 == 1;
      }
      Last = End;
      Kind = C.Write ? 2 : 1;
      RankBytes[R] += C.Size;
      RankTime[R] += 1 + R;
    }
    for (uint64_t B = 0; B < FileSize; ++B) {
      ReadersOf[B] += Read[B];
      WritersOf[B] += Written[B];
    }
  }
  uint64_t CrossR = 0, CrossW = 0;
  for (uint64_t B = 0; B < ReadersOf.size(); ++B) {
    CrossR += ReadersOf[B] ? ReadersOf[B] - 1 : 0;
    CrossW += WritersOf[B] ? WritersOf[B] - 1 : 0;
  }

  // The traces: one file per rank, pid 100 + r.
  for (uint64_t R = 0; R < N; ++R) {
    int64_t Pid = static_cast<int64_t>(100 + R);
    std::ofstream Out(Dir + "/access-" + std::to_string(R) + ".pfw");
    auto Meta = [&](const char *Name, Json Args) {
      Out << line({{"id", 0}, {"name", Name}, {"cat", "dftracer"},
                   {"pid", Pid}, {"tid", Pid}, {"ph", "M"}, {"args", Args}})
          << "\n";
    };
    uint64_t Id = 1;
    int64_t Ts = 1000;
    // One span, written when it ends (children first): its id, level and
    // parent; with --no-parent its times alone place it.
    auto Write = [&](uint64_t SpanId, const char *Name, const char *Cat,
                     int64_t Start, int64_t Dur, int Level, uint64_t Parent,
                     Json Args) {
      if (!NoParent) {
        Args["level"] = Level;
        Args["p_idx"] = Parent;
      }
      Out << line({{"id", SpanId}, {"name", Name}, {"cat", Cat},
                   {"pid", Pid}, {"tid", Pid}, {"ts", Start}, {"dur", Dur},
                   {"ph", "X"}, {"args", Args}})
          << "\n";
    };
    auto Span = [&](const char *Name, const char *Cat, int64_t Dur,
                    Json Args) {
      Args["fhash"] = FHash;
      Write(Id++, Name, Cat, Ts, Dur, 1, 0, Args);
      Ts += 10;
    };
    Out << "[\n";
    Meta("CM", {{"name", "rank"}, {"value", std::to_string(R)}});
    if (MemAlign)
      Meta("CM", {{"name", "mem_alignment"},
                  {"value", std::to_string(MemAlign)}});
    Meta("NODE", {{"hostname", "node" + std::to_string(R % 2)},
                  {"mem_total", 1ull << 34}, {"cpus", 8}});
    Meta("FH", {{"name", Path}, {"value", FHash}});
    if (Fs) {
      Json A{{"fhash", FHash}, {"fs_type", Stripe ? "lustre" : "ext4"},
             {"mount", "/data"}, {"block_size", Block}};
      if (Stripe) {
        A["stripe_size"] = Stripe;
        A["stripe_count"] = 4;
      }
      Meta("FS", A);
    }
    Span("MPI_File_open", "MPIIO", 3, {{"comm_size", N}, {"ret", 0}});
    Meta("MPIIO_HINTS", {{"fhash", FHash}, {"comm_size", N}, {"amode", 9},
                         {"hints", {{"cb_nodes", "2"},
                                    {"romio_cb_write", "enable"}}}});
    Span("MPI_File_set_view", "MPIIO", 1,
         {{"etype_size", 4}, {"filetype_size", 64}, {"filetype_extent", 128},
          {"contiguous", 0}, {"ret", 0}});
    Span("H5Fopen", "HDF5", 2, {{"ret", 1}});
    Meta("HDF5_FILE", {{"fhash", FHash}, {"vfd", "mpio"},
                       {"alignment_threshold", 1}, {"alignment", 1 << 20},
                       {"meta_block_size", 2048}, {"coll_metadata_read", 0},
                       {"coll_metadata_write", 1}, {"page_buffer_size", 0},
                       {"sieve_buf_size", 65536}});
    Meta("HDF5_DSET", {{"fhash", FHash}, {"dhash", DHash}, {"dset", "/g/d"},
                       {"layout", "chunked"}, {"chunk", {64, 64}},
                       {"dims", {256, 64}}, {"type_size", 8},
                       {"fill_time", "ifset"}});
    Span("H5Dwrite", "HDF5", 5,
         {{"dhash", DHash}, {"xfer", "collective"}, {"io_mode", "collective"},
          {"selection", 4096}, {"bytes", 32768}, {"ret", 0}});
    Span("H5Dwrite", "HDF5", 5,
         {{"dhash", DHash}, {"xfer", "independent"}, {"io_mode", "independent"},
          {"selection", 1024}, {"bytes", 8192}, {"ret", 0}});
    // The data calls; with functions, each function span around its calls
    // (from 1 us before the first to 1 us after the last's end) and "main"
    // around them all.
    const bool Nested = Calls[R].front().Fn >= 0;
    const uint64_t MainId = Nested ? Id++ : 0;
    const int64_t MainTs = Ts - 2, Dur = static_cast<int64_t>(1 + R);
    uint64_t FnId = 0;
    int64_t FnTs = 0;
    auto SameSpan = [&](size_t A, size_t B) {
      return Calls[R][A].Fn == Calls[R][B].Fn &&
             Calls[R][A].Span == Calls[R][B].Span;
    };
    for (size_t CallNo = 0; CallNo < Calls[R].size(); ++CallNo) {
      const Call &C = Calls[R][CallNo];
      if (Nested && (CallNo == 0 || !SameSpan(CallNo, CallNo - 1))) {
        FnId = Id++;
        FnTs = Ts - 1;
      }
      Json Args{{"fhash", FHash}, {"fd", 5}, {"count", C.Size},
                {"offset", C.Offset}};
      if (MemAlign && CallNo % 3 == 1)
        Args["mem_align"] = 4;
      Args["ret"] = C.Size;
      Write(Id++, C.Write ? "pwrite64" : "pread64", "POSIX", Ts, Dur,
            Nested ? 3 : 1, Nested ? FnId : 0, Args);
      int64_t End = Ts + Dur;
      Ts += 10;
      if (Nested &&
          (CallNo + 1 == Calls[R].size() || !SameSpan(CallNo, CallNo + 1))) {
        Write(FnId, FnNames[C.Fn], "C_APP", FnTs, End + 1 - FnTs, 2, MainId,
              Json::object());
        Ts += 10;
      }
    }
    if (Nested)
      Write(MainId, "main", "C_APP", MainTs, Ts - MainTs, 1, 0, Json::object());
    Out << "]\n";
    if (!Out) {
      std::cerr << "access: cannot write " << Dir << "\n";
      return 1;
    }
  }
  if (Expected.empty())
    return 0;

  uint64_t MinB = 0, MaxB = 0;
  for (uint64_t R = 1; R < N; ++R) {
    if (RankBytes[R] < RankBytes[MinB])
      MinB = R;
    if (RankBytes[R] > RankBytes[MaxB])
      MaxB = R;
  }
  uint64_t RW = All.Reads && All.Writes;
  Json Access = All.json(Unit, !Fs, MemAlign);
  Access["redundant_bytes_read"] = All.SameR + CrossR;
  Access["redundant_bytes_written"] = All.SameW + CrossW;
  Access["redundant_read_other_processes"] = CrossR;
  Access["redundant_written_other_processes"] = CrossW;
  // Every function record, by name; "main" holds no data call directly.
  Json Functions = Json::array();
  for (const auto &[Fn, F] : ByFn) {
    Json Rec{{"name", Fn < 0 ? "(no function)" : FnNames[Fn]}};
    if (Fn >= 0) { // a span per call (write_particles) or per function
      uint64_t Spans = 0;
      for (size_t I = 0; I < Calls[0].size(); ++I)
        Spans += Calls[0][I].Fn == Fn &&
                 (I == 0 || Calls[0][I - 1].Span != Calls[0][I].Span ||
                  Calls[0][I - 1].Fn != Fn);
      Rec["calls"] = Spans * N;
      Rec["io_ops"] = (F.Reads + F.Writes);
    }
    Rec["access"] = F.json(Unit, !Fs, MemAlign);
    Functions.push_back(Rec);
  }
  if (Calls[0].front().Fn >= 0) {
    Functions.push_back({{"name", "main"}, {"calls", N}, {"io_ops", 0}});
    Functions.push_back({{"name", "(no function)"}});
  }
  Json File{{"path", Path},
            {"processes", N},
            {"fs_type", !Fs ? "unknown" : Stripe ? "lustre" : "ext4"},
            {"access", Access},
            {"ranks",
             {{"count", N},
              {"shared", N > 1},
              {"fewest_bytes",
               {{"rank", std::to_string(MinB)}, {"bytes", RankBytes[MinB]}}},
              {"most_bytes",
               {{"rank", std::to_string(MaxB)}, {"bytes", RankBytes[MaxB]}}},
              {"fastest", {{"rank", "0"}, {"time_us", RankTime[0]}}},
              {"slowest",
               {{"rank", std::to_string(N - 1)}, {"time_us", RankTime[N - 1]}}}}},
            {"slowest_call",
             {{"name", Calls[N - 1][0].Write ? "pwrite64" : "pread64"},
              {"dur_us", N},
              {"bytes", Calls[N - 1][0].Size},
              {"rank", std::to_string(N - 1)}}},
            {"mpiio",
             {{"opens_with_hints", N},
              {"hints", {{"cb_nodes", "2"}, {"romio_cb_write", "enable"}}},
              {"comm_sizes", {{std::to_string(N), N}}},
              {"amodes", {{"9", N}}},
              {"views", {{{"etype_size", 4}, {"filetype_size", 64},
                          {"filetype_extent", 128}, {"contiguous", 0},
                          {"calls", N}}}}}},
            {"hdf5",
             {{"opens", N},
              {"properties",
               {{"alignment", "1048576"}, {"alignment_threshold", "1"},
                {"coll_metadata_read", "0"}, {"coll_metadata_write", "1"},
                {"meta_block_size", "2048"}, {"page_buffer_size", "0"},
                {"sieve_buf_size", "65536"}, {"vfd", "mpio"}}}}}};
  if (Fs)
    File["fs"] = {{"mount", "/data"}, {"block_size", Block}};
  Json Dset{{"file", Path},
            {"dset", "/g/d"},
            {"records", N},
            {"properties",
             {{"chunk", "[64,64]"}, {"dims", "[256,64]"},
              {"fill_time", "ifset"}, {"layout", "chunked"},
              {"type_size", "8"}}},
            {"writes", {{"ops", 2 * N}, {"time_us", 10 * N},
                        {"bytes", 40960 * N}}},
            {"collective", N},
            {"independent", N},
            {"collective_share", 0.5},
            {"selection_elements", 5120 * N},
            {"transfer_sizes", {{8192, N}, {32768, N}}},
            {"io_mode", {{"collective", N}, {"independent", N}}}};
  Json E{{"file_count", 1},
         {"file_classes", {{"read_only", 0}, {"write_only", 0},
                           {"read_write", RW}, {"no_data", 0}}},
         {"files_all", {File}},
         {"datasets", {Dset}},
         {"functions", Functions}};
  std::ofstream Out(Expected);
  Out << E.dump(2) << "\n";
  return Out ? 0 : 1;
}

} // namespace tracegen
