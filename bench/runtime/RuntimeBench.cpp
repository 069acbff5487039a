//===- RuntimeBench.cpp - Cost of a START+END pair and of an I/O call ----===//
//
// One command prints everything the runtime's performance figures need
// (docs/performance.md), each next to its baseline measured in the same run:
//
//  - Google Benchmark cases: an annotated call with tracing off
//    (BM_PairOff) next to the same call unannotated (BM_EmptyCall) and a
//    bare clock_gettime pair (BM_ClockPair); the kernel's cost of writing
//    one trace line's bytes to a file (BM_WriteFloor); the I/O cases
//    (BM_Pwrite/*, BM_Write/*, BM_Fwrite/*, BM_Fflush/*): a 1-byte pwrite
//    at offset 0, a 1-byte write (the position moves: its offset is the
//    runtime's to keep, issue 22), a 1-byte fwrite into a stream's buffer
//    (a system call every 4096), and an fflush with nothing to flush,
//    through the interception (tracing off; on, on a
//    file outside the data dir; on, on a traced file) next to libc's own
//    function called directly. The files are in DFTRACER_BENCH_IODIR
//    (default: the temporary directory; point it at a tmpfs to keep the
//    disk out). Then each cost as a ratio to the clock pair, and what each
//    I/O case adds.
//  - The sustained runs (Sustained.h): 10 million annotated calls in a
//    child process on 1 and 2 threads, trace closed, with the traced
//    threads' CPU, the whole process's CPU and the wall time per pair, next
//    to a child doing clock pairs.
//
// Tracing must be on when the library loads, so without DFTRACER_ENABLE=1
// the program re-executes itself with it set and a temporary trace prefix,
// deleted at the end. "Off" is measured by clearing dftracer_active, which
// is exactly the state of a process started without DFTRACER_ENABLE.
//
//===----------------------------------------------------------------------===//

#include "Sustained.h"
#include "traced.h"

#include <dftracer/dftracer.h>

#include <benchmark/benchmark.h>

#include <dlfcn.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

void setTracing(bool On) {
  __atomic_store_n(&dftracer_active, On ? 1 : 0, __ATOMIC_RELAXED);
}

void BM_EmptyCall(benchmark::State &State) {
  for (auto _ : State)
    dftBenchEmptyCall();
}

void BM_ClockPair(benchmark::State &State) {
  for (auto _ : State)
    dftBenchClockPair();
}

void BM_PairOff(benchmark::State &State) {
  setTracing(false);
  for (auto _ : State)
    dftBenchTracedPair();
}

/// The kernel's share of a traced span: appending one line of the size the
/// runtime writes for dftBenchTracedPair to a buffer that goes to a
/// preallocated file in 256 KiB writes, as the writer thread does (sink.c).
/// The line comes from the cache here; the writer's come from the traced
/// thread's core.
void BM_WriteFloor(benchmark::State &State) {
  constexpr size_t LineBytes = 149, BufferBytes = 256 * 1024;
  std::string Dir = std::getenv("DFTRACER_BENCH_TMPDIR")
                        ? std::getenv("DFTRACER_BENCH_TMPDIR")
                        : "/tmp";
  std::string Path = Dir + "/write-floor-" + std::to_string(getpid()) + "-" +
                     std::to_string(State.thread_index());
  int Fd = open(Path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (Fd < 0) {
    State.SkipWithError("cannot create the write-floor file");
    return;
  }
  std::vector<char> Buffer(BufferBytes);
  char Line[LineBytes];
  std::memset(Line, 'x', sizeof(Line));
  size_t Used = 0;
  off_t Written = 0, Reserved = 0;
  for (auto _ : State) {
    std::memcpy(Buffer.data() + Used, Line, LineBytes);
    Used += LineBytes;
    if (Used + LineBytes > BufferBytes) {
      if (Written + (off_t)Used > Reserved) {
        (void)fallocate(Fd, FALLOC_FL_KEEP_SIZE, Reserved, 64 << 20);
        Reserved += 64 << 20;
      }
      if (write(Fd, Buffer.data(), Used) != (ssize_t)Used) {
        State.SkipWithError("write failed");
        break;
      }
      Written += (off_t)Used;
      Used = 0;
    }
  }
  close(Fd);
  unlink(Path.c_str());
}

/// How an I/O benchmark calls: libc's function directly (the baseline), or
/// the interception with tracing off, on a file outside the data dir, or on
/// a traced file.
enum class Via { Libc, Off, UntracedFile, Traced };

/// A file for the I/O benchmarks: under the data dir unless UntracedFile.
int ioFile(Via V) {
  std::string Dir = std::getenv("DFTRACER_BENCH_IODIR");
  std::string Path =
      Dir + (V == Via::UntracedFile ? "/untraced/f" : "/traced/f");
  return open(Path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0644);
}

/// Function Name as the benchmark calls it through V.
template <typename Fn> Fn ioFunction(Via V, const char *Name, Fn Wrapper) {
  if (V != Via::Libc)
    return Wrapper;
  void *Libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  return Libc ? reinterpret_cast<Fn>(dlsym(Libc, Name)) : nullptr;
}

/// A 1-byte pwrite at offset 0.
void BM_Pwrite(benchmark::State &State, Via V) {
  auto Fn = ioFunction(V, "pwrite", &pwrite);
  int Fd = ioFile(V);
  char Byte = 'x';
  if (Fd < 0 || !Fn) {
    State.SkipWithError("cannot open the benchmark file or find pwrite");
    return;
  }
  setTracing(V != Via::Off);
  for (auto _ : State)
    if (Fn(Fd, &Byte, 1, 0) != 1)
      State.SkipWithError("pwrite failed");
  setTracing(true);
  close(Fd);
}

/// A 1-byte write at the descriptor's position, which moves: the file grows
/// by a byte per call.
void BM_Write(benchmark::State &State, Via V) {
  auto Fn = ioFunction(V, "write", &write);
  int Fd = ioFile(V);
  char Byte = 'x';
  if (Fd < 0 || !Fn) {
    State.SkipWithError("cannot open the benchmark file or find write");
    return;
  }
  setTracing(V != Via::Off);
  for (auto _ : State)
    if (Fn(Fd, &Byte, 1) != 1)
      State.SkipWithError("write failed");
  setTracing(true);
  close(Fd);
}

/// A 1-byte fwrite: into the stream's buffer, written out every 4096.
void BM_Fwrite(benchmark::State &State, Via V) {
  auto Fn = ioFunction(V, "fwrite", &fwrite);
  FILE *F = fdopen(ioFile(V), "w");
  char Byte = 'x';
  if (!F || !Fn) {
    State.SkipWithError("cannot open the benchmark stream or find fwrite");
    return;
  }
  setTracing(V != Via::Off);
  for (auto _ : State)
    if (Fn(&Byte, 1, 1, F) != 1)
      State.SkipWithError("fwrite failed");
  setTracing(true);
  fclose(F);
}

/// fflush of a stream with nothing buffered: no system call, so the
/// difference to libc is the interception alone, without a ~500 ns system
/// call's noise around it.
void BM_Fflush(benchmark::State &State, Via V) {
  auto Fn = ioFunction(V, "fflush", &fflush);
  FILE *F = fdopen(ioFile(V), "w");
  if (!F || !Fn) {
    State.SkipWithError("cannot open the benchmark stream or find fflush");
    return;
  }
  setTracing(V != Via::Off);
  for (auto _ : State)
    Fn(F);
  setTracing(true);
  fclose(F);
}

/// The fastest repetition, reported as the "min" aggregate.
double fastest(const std::vector<double> &V) {
  return V.empty() ? 0 : *std::min_element(V.begin(), V.end());
}

/// BM_Pwrite/<via> and BM_Fflush/<via>, each with the "min" aggregate.
int registerIoCases() {
  const std::pair<const char *, Via> Vias[] = {{"Libc", Via::Libc},
                                               {"Off", Via::Off},
                                               {"UntracedFile", Via::UntracedFile},
                                               {"Traced", Via::Traced}};
  const std::pair<const char *, void (*)(benchmark::State &, Via)> Calls[] = {
      {"BM_Pwrite/", BM_Pwrite},
      {"BM_Write/", BM_Write},
      {"BM_Fwrite/", BM_Fwrite},
      {"BM_Fflush/", BM_Fflush}};
  for (const auto &[Prefix, Fn] : Calls)
    for (const auto &[Name, V] : Vias)
      benchmark::RegisterBenchmark((std::string(Prefix) + Name).c_str(), Fn, V)
          ->ComputeStatistics("min", fastest);
  return 0;
}
const int IoCases = registerIoCases();

BENCHMARK(BM_EmptyCall)->Threads(1)->Threads(2);
BENCHMARK(BM_WriteFloor)->Threads(1)->Threads(2);
BENCHMARK(BM_ClockPair)->Threads(1)->Threads(2);
BENCHMARK(BM_PairOff)->Threads(1)->Threads(2);

/// Console output as usual, plus the ratio table at the end.
class RatioReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    // With --benchmark_repetitions the median stands for the benchmark;
    // otherwise its single run does.
    for (const Run &R : Runs) {
      std::string Name = R.run_name.str();
      bool IsMin = R.run_type == Run::RT_Aggregate && R.aggregate_name == "min";
      if ((R.run_type == Run::RT_Iteration || IsMin) && !R.error_occurred) {
        double Ns = R.GetAdjustedCPUTime() /
                    benchmark::GetTimeUnitMultiplier(R.time_unit) * 1e9;
        auto [It, New] = Min.emplace(Name, Ns);
        if (!New && Ns < It->second)
          It->second = Ns;
      }
      bool IsMedian =
          R.run_type == Run::RT_Aggregate && R.aggregate_name == "median";
      if (!IsMedian && (R.run_type != Run::RT_Iteration || Medians.count(Name)))
        continue;
      if (IsMedian)
        Medians.insert(Name);
      Nanos[Name] = R.GetAdjustedCPUTime() /
                    benchmark::GetTimeUnitMultiplier(R.time_unit) * 1e9;
    }
  }

  void printRatios() const {
    std::printf("\n%-52s %12s %16s\n", "benchmark", "ns/call", "x clock pair");
    for (const auto &[Name, Ns] : Nanos) {
      // The clock pair measured with the same number of threads.
      size_t Threads = Name.find("/threads:");
      std::string Clock =
          "BM_ClockPair" + (Threads == std::string::npos
                                ? std::string()
                                : Name.substr(Threads, Name.find('/', Threads + 1) - Threads));
      auto It = Nanos.find(Clock);
      if (It == Nanos.end() || It->second <= 0)
        std::printf("%-52s %12.2f %16s\n", Name.c_str(), Ns, "-");
      else
        std::printf("%-52s %12.2f %16.3f\n", Name.c_str(), Ns, Ns / It->second);
    }
    // The I/O costs are differences of ~500 ns system calls: on a busy
    // machine the fastest repetition (run with
    // --benchmark_enable_random_interleaving, so that A and B see the same
    // load) is the steadier estimate; both are printed.
    printAdded("BM_Pwrite/", "1-byte pwrite");
    printAdded("BM_Write/", "1-byte write");
    printAdded("BM_Fwrite/", "1-byte fwrite, buffered");
    printAdded("BM_Fflush/", "fflush, nothing buffered");
  }

  /// What each of the Prefix benchmarks adds to Prefix + "Libc".
  void printAdded(const std::string &Prefix, const char *Title) const {
    auto Libc = Nanos.find(Prefix + "Libc");
    auto LibcMin = Min.find(Prefix + "Libc");
    if (Libc == Nanos.end() || LibcMin == Min.end())
      return;
    std::printf("\n%-28s %12s %12s %14s %14s\n", Title, "median ns",
                "min ns", "added (med)", "added (min)");
    for (const auto &[Name, Ns] : Nanos)
      if (Name.rfind(Prefix, 0) == 0 && Min.count(Name))
        std::printf("%-28s %12.2f %12.2f %14.2f %14.2f\n", Name.c_str(), Ns,
                    Min.at(Name), Ns - Libc->second,
                    Min.at(Name) - LibcMin->second);
  }

private:
  std::map<std::string, double> Nanos;
  std::map<std::string, double> Min; // fastest repetition
  std::set<std::string> Medians;
};

/// Re-executes with tracing on; returns only if already on.
void ensureTracingAtLoad(char **Argv) {
  const char *Enable = std::getenv("DFTRACER_ENABLE");
  if (Enable && std::strcmp(Enable, "1") == 0)
    return;
  char Dir[] = "/tmp/dftracer-bench-XXXXXX";
  if (!mkdtemp(Dir)) {
    std::perror("dftracer-bench: mkdtemp");
    std::exit(2);
  }
  setenv("DFTRACER_ENABLE", "1", 1);
  setenv("DFTRACER_LOG_FILE", (std::string(Dir) + "/bench").c_str(), 1);
  setenv("DFTRACER_BENCH_TMPDIR", Dir, 1);
  // What is measured is the written span: 10 million calls of one empty
  // function would otherwise be throttled after the first thousand
  // (docs/runtime.md, Throttling). DFTRACER_THROTTLE=1 measures that.
  setenv("DFTRACER_THROTTLE", "0", 0);
  // The I/O benchmarks' files: <iodir>/traced (the data dir) and
  // <iodir>/untraced.
  std::string Io = std::getenv("DFTRACER_BENCH_IODIR")
                       ? std::getenv("DFTRACER_BENCH_IODIR")
                       : Dir;
  mkdir((Io + "/traced").c_str(), 0755);
  mkdir((Io + "/untraced").c_str(), 0755);
  setenv("DFTRACER_BENCH_IODIR", Io.c_str(), 1);
  setenv("DFTRACER_DATA_DIR", (Io + "/traced").c_str(), 1);
  execv("/proc/self/exe", Argv);
  std::perror("dftracer-bench: re-exec with DFTRACER_ENABLE=1");
  std::exit(2);
}

} // namespace

int main(int Argc, char **Argv) {
  ensureTracingAtLoad(Argv);
  if (runSustainedChild(Argc, Argv))
    return 0;
  SustainedOptions Sustained = parseSustainedOptions(Argc, Argv);
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 2;
  // First, while this process has traced nothing: its own trace would take
  // page cache that the children's traces then do without.
  const char *Tmp = std::getenv("DFTRACER_BENCH_TMPDIR");
  std::string SustainedReport = runSustained(Sustained, Tmp ? Tmp : "/tmp");
  DFTRACER_C_INIT(nullptr, nullptr, nullptr);
  RatioReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  setTracing(true);
  DFTRACER_C_FINI();
  Reporter.printRatios();
  std::fputs(SustainedReport.c_str(), stdout);
  if (const char *Tmp = std::getenv("DFTRACER_BENCH_TMPDIR")) {
    std::error_code Ec;
    uintmax_t Bytes = 0;
    for (const auto &E : std::filesystem::directory_iterator(Tmp, Ec))
      Bytes += E.file_size(Ec);
    std::printf("\n(trace written: %.1f MB, deleted with %s)\n", Bytes / 1e6,
                Tmp);
    std::filesystem::remove_all(Tmp, Ec);
    if (const char *Io = std::getenv("DFTRACER_BENCH_IODIR")) {
      std::filesystem::remove_all(std::string(Io) + "/traced", Ec);
      std::filesystem::remove_all(std::string(Io) + "/untraced", Ec);
    }
  }
  benchmark::Shutdown();
  return 0;
}
