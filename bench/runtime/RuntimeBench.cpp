//===- RuntimeBench.cpp - Cost of a START+END pair ------------------------===//
//
// Measures one annotated call (START+END) with tracing off and on, on 1 and
// 2 threads, next to an empty call, a bare clock_gettime pair and the cost of
// writing one trace line's bytes to a file (BM_WriteFloor), all from the same
// run, then prints each cost as a ratio to the clock pair: a span needs two
// clock reads, so that ratio is what tracing adds on top of the cheapest
// possible span, whatever the machine.
//
// Tracing must be on when the library loads, so without DFTRACER_ENABLE=1
// the program re-executes itself with it set and a temporary trace prefix,
// deleted at the end. "Off" is measured by clearing dftracer_active, which
// is exactly the state of a process started without DFTRACER_ENABLE.
//
//===----------------------------------------------------------------------===//

#include "traced.h"

#include <dftracer/dftracer.h>

#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
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

void BM_PairOn(benchmark::State &State) {
  setTracing(true);
  for (auto _ : State)
    dftBenchTracedPair();
}

/// The same pair charged with the CPU time of every thread of the process:
/// the traced thread's cost plus the writer thread's write() calls, i.e.
/// what tracing costs the machine rather than the traced code's latency.
void BM_PairOnProcessCpu(benchmark::State &State) {
  setTracing(true);
  for (auto _ : State)
    dftBenchTracedPair();
}

/// The I/O floor of a traced span: appending one line of the size the
/// runtime writes for dftBenchTracedPair to a 64 KiB buffer, written to a
/// preallocated file when full, as the runtime does. Measured in the same run
/// so the report can tell the runtime's own cost from the kernel's.
void BM_WriteFloor(benchmark::State &State) {
  constexpr size_t LineBytes = 150, BufferBytes = 64 * 1024;
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

BENCHMARK(BM_EmptyCall)->Threads(1)->Threads(2);
BENCHMARK(BM_WriteFloor)->Threads(1)->Threads(2);
BENCHMARK(BM_ClockPair)->Threads(1)->Threads(2);
BENCHMARK(BM_PairOff)->Threads(1)->Threads(2);
// One thread only: with more, every thread would be charged the whole
// process's time. A fixed count (150 MB of trace per repetition) and a place
// before BM_PairOn: on a virtual machine the kernel's copy into the page
// cache gets several times dearer once a file has grown past a few GB (fresh
// guest pages fault on the host), and this figure is meant to show the
// writer's steady cost, not how much was written before it.
BENCHMARK(BM_PairOnProcessCpu)
    ->MeasureProcessCPUTime()
    ->Iterations(1000000)
    ->Threads(1);
BENCHMARK(BM_PairOn)->Threads(1)->Threads(2);

/// Console output as usual, plus the ratio table at the end.
class RatioReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &Runs) override {
    ConsoleReporter::ReportRuns(Runs);
    // With --benchmark_repetitions the median stands for the benchmark;
    // otherwise its single run does.
    for (const Run &R : Runs) {
      std::string Name = R.run_name.str();
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
  }

private:
  std::map<std::string, double> Nanos;
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
  execv("/proc/self/exe", Argv);
  std::perror("dftracer-bench: re-exec with DFTRACER_ENABLE=1");
  std::exit(2);
}

/// --warm_mb=N: touch and free N MiB of memory before measuring. On a fresh
/// virtual machine the first write to a guest page costs a host page fault,
/// which then shows up in whichever benchmark first fills the page cache;
/// warming makes BM_WriteFloor and BM_PairOn pay the same steady-state price.
/// Removed from argv before Google Benchmark parses it.
void warmMemory(int &Argc, char **Argv) {
  const char Flag[] = "--warm_mb=";
  size_t MiB = 0;
  int Out = 1;
  for (int I = 1; I < Argc; ++I) {
    if (std::strncmp(Argv[I], Flag, sizeof(Flag) - 1) == 0)
      MiB = std::strtoull(Argv[I] + sizeof(Flag) - 1, nullptr, 10);
    else
      Argv[Out++] = Argv[I];
  }
  Argc = Out;
  Argv[Argc] = nullptr;
  if (MiB == 0)
    return;
  size_t Bytes = MiB << 20;
  void *P = mmap(nullptr, Bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (P == MAP_FAILED) {
    std::perror("dftracer-bench: --warm_mb");
    return;
  }
  std::memset(P, 1, Bytes);
  munmap(P, Bytes);
  std::printf("warmed %zu MiB\n", MiB);
}

} // namespace

int main(int Argc, char **Argv) {
  ensureTracingAtLoad(Argv);
  warmMemory(Argc, Argv);
  benchmark::Initialize(&Argc, Argv);
  if (benchmark::ReportUnrecognizedArguments(Argc, Argv))
    return 2;
  DFTRACER_C_INIT(nullptr, nullptr, nullptr);
  RatioReporter Reporter;
  benchmark::RunSpecifiedBenchmarks(&Reporter);
  setTracing(true);
  DFTRACER_C_FINI();
  Reporter.printRatios();
  if (const char *Tmp = std::getenv("DFTRACER_BENCH_TMPDIR")) {
    std::error_code Ec;
    uintmax_t Bytes = 0;
    for (const auto &E : std::filesystem::directory_iterator(Tmp, Ec))
      Bytes += E.file_size(Ec);
    std::printf("\n(trace written: %.1f MB, deleted with %s)\n", Bytes / 1e6,
                Tmp);
    std::filesystem::remove_all(Tmp, Ec);
  }
  benchmark::Shutdown();
  return 0;
}
