//===- Sustained.cpp - What ten million traced calls cost, start to end --===//

#include "Sustained.h"

#include "traced.h"

#include <dftracer/dftracer.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sched.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

namespace {

const char ChildFlag[] = "--sustained_child=";

double nowNs(clockid_t Clock) {
  timespec Ts;
  clock_gettime(Clock, &Ts);
  return Ts.tv_sec * 1e9 + Ts.tv_nsec;
}

/// The totals of one child run, in nanoseconds, and its trace's size.
struct Run {
  double Wall = 0, ThreadCpu = 0, ProcessCpu = 0, TraceBytes = 0;
};

/// Runs Threads threads of Calls / Threads calls each, traced or clock
/// pairs; returns the totals. The clock is stopped after FINI, which hands
/// every buffer to the writer thread and waits until it has written them.
Run childRun(bool Traced, int Threads, long Calls) {
  long PerThread = Calls / Threads;
  std::atomic<int> Ready{0};
  std::atomic<bool> Go{false};
  std::vector<double> Cpu(Threads);
  std::vector<std::thread> Workers;
  DFTRACER_C_INIT(nullptr, nullptr, nullptr);
  for (int I = 0; I < Threads; ++I)
    Workers.emplace_back([&, I] {
      ++Ready;
      while (!Go.load())
        sched_yield();
      double Start = nowNs(CLOCK_THREAD_CPUTIME_ID);
      if (Traced)
        for (long N = 0; N < PerThread; ++N)
          dftBenchTracedPair();
      else
        for (long N = 0; N < PerThread; ++N)
          dftBenchClockPair();
      Cpu[I] = nowNs(CLOCK_THREAD_CPUTIME_ID) - Start;
    });
  while (Ready.load() < Threads)
    sched_yield();
  Run R;
  double Process = nowNs(CLOCK_PROCESS_CPUTIME_ID);
  double Wall = nowNs(CLOCK_MONOTONIC);
  Go = true;
  for (std::thread &W : Workers)
    W.join();
  DFTRACER_C_FINI();
  R.Wall = nowNs(CLOCK_MONOTONIC) - Wall;
  R.ProcessCpu = nowNs(CLOCK_PROCESS_CPUTIME_ID) - Process;
  for (double C : Cpu)
    R.ThreadCpu += C;
  return R;
}

/// Starts this program as a child run with DFTRACER_LOG_FILE=Prefix and
/// reads its figures; the trace files it wrote are measured and deleted.
Run spawnRun(bool Traced, int Threads, long Calls, const std::string &Prefix,
             int PauseSeconds) {
  Run R;
  int Pipe[2];
  if (PauseSeconds > 0)
    sleep((unsigned)PauseSeconds);
  if (pipe(Pipe) != 0)
    return R;
  std::string Arg = std::string(ChildFlag) + (Traced ? "traced:" : "clock:") +
                    std::to_string(Threads) + ":" + std::to_string(Calls);
  std::string OldPrefix = std::getenv("DFTRACER_LOG_FILE")
                              ? std::getenv("DFTRACER_LOG_FILE")
                              : "";
  setenv("DFTRACER_LOG_FILE", Prefix.c_str(), 1);
  std::fflush(stdout);
  pid_t Pid = fork();
  if (Pid == 0) {
    dup2(Pipe[1], 1);
    close(Pipe[0]);
    close(Pipe[1]);
    char *Argv[] = {const_cast<char *>("dftracer_runtime_bench"), Arg.data(),
                    nullptr};
    execv("/proc/self/exe", Argv);
    _exit(127);
  }
  setenv("DFTRACER_LOG_FILE", OldPrefix.c_str(), 1);
  close(Pipe[1]);
  std::string Out;
  char Buf[256];
  ssize_t N;
  while ((N = read(Pipe[0], Buf, sizeof(Buf))) > 0)
    Out.append(Buf, (size_t)N);
  close(Pipe[0]);
  int Status = 0;
  waitpid(Pid, &Status, 0);
  if (std::sscanf(Out.c_str(), "%lf %lf %lf", &R.Wall, &R.ThreadCpu,
                  &R.ProcessCpu) != 3 ||
      !WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    std::fprintf(stderr, "sustained run %s failed: '%s'\n", Arg.c_str(),
                 Out.c_str());
  namespace fs = std::filesystem;
  fs::path P(Prefix);
  std::error_code Ec;
  std::string Stem = P.filename().string() + "-";
  for (const auto &E : fs::directory_iterator(P.parent_path(), Ec))
    if (E.path().filename().string().rfind(Stem, 0) == 0) {
      R.TraceBytes += (double)E.file_size(Ec);
      fs::remove(E.path(), Ec);
    }
  return R;
}

double median(std::vector<double> V) {
  std::sort(V.begin(), V.end());
  size_t N = V.size();
  return N == 0 ? 0 : N % 2 ? V[N / 2] : (V[N / 2 - 1] + V[N / 2]) / 2;
}

double minimum(const std::vector<double> &V) {
  return V.empty() ? 0 : *std::min_element(V.begin(), V.end());
}

std::string loadAverage() {
  char Buf[64] = {0};
  if (FILE *F = std::fopen("/proc/loadavg", "r")) {
    if (!std::fgets(Buf, sizeof(Buf), F))
      Buf[0] = 0;
    std::fclose(F);
  }
  std::string S(Buf);
  size_t Third = 0;
  for (int I = 0; I < 3 && Third != std::string::npos; ++I)
    Third = S.find(' ', Third + 1);
  return S.substr(0, Third);
}

/// One figure of every round: a per-pair value for clock and traced runs
/// and their ratio within each round.
struct Series {
  std::vector<double> Clock, Traced, Ratio;
  void add(double C, double T) {
    Clock.push_back(C);
    Traced.push_back(T);
    Ratio.push_back(C > 0 ? T / C : 0);
  }
};

/// printf to the end of Out.
__attribute__((format(printf, 2, 3))) void appendf(std::string &Out,
                                                  const char *Format, ...) {
  char Buf[512];
  va_list Args;
  va_start(Args, Format);
  std::vsnprintf(Buf, sizeof(Buf), Format, Args);
  va_end(Args);
  Out += Buf;
}

void appendRow(std::string &Out, const char *Name, int Threads,
               const Series &S) {
  appendf(Out, "%-22s %7d %9.1f (%6.1f) %9.1f (%6.1f) %9.2f (%5.2f)\n", Name,
          Threads, median(S.Clock), minimum(S.Clock), median(S.Traced),
          minimum(S.Traced), median(S.Ratio), minimum(S.Ratio));
}

} // namespace

SustainedOptions parseSustainedOptions(int &Argc, char **Argv) {
  const char Calls[] = "--sustained_calls=", Rounds[] = "--sustained_rounds=",
             Pause[] = "--sustained_pause=";
  SustainedOptions O;
  int Out = 1;
  for (int I = 1; I < Argc; ++I) {
    if (std::strncmp(Argv[I], Calls, sizeof(Calls) - 1) == 0)
      O.Calls = std::strtol(Argv[I] + sizeof(Calls) - 1, nullptr, 10);
    else if (std::strncmp(Argv[I], Rounds, sizeof(Rounds) - 1) == 0)
      O.Rounds = std::atoi(Argv[I] + sizeof(Rounds) - 1);
    else if (std::strncmp(Argv[I], Pause, sizeof(Pause) - 1) == 0)
      O.PauseSeconds = std::atoi(Argv[I] + sizeof(Pause) - 1);
    else
      Argv[Out++] = Argv[I];
  }
  Argc = Out;
  Argv[Argc] = nullptr;
  if (O.Calls < 2)
    O.Calls = 2;
  return O;
}

bool runSustainedChild(int Argc, char **Argv) {
  for (int I = 1; I < Argc; ++I) {
    if (std::strncmp(Argv[I], ChildFlag, sizeof(ChildFlag) - 1) != 0)
      continue;
    char Mode[16] = {0};
    int Threads = 1;
    long Calls = 0;
    if (std::sscanf(Argv[I] + sizeof(ChildFlag) - 1, "%15[a-z]:%d:%ld", Mode,
                    &Threads, &Calls) != 3 ||
        Threads < 1) {
      std::fprintf(stderr, "bad %s\n", Argv[I]);
      std::exit(2);
    }
    Run R = childRun(std::strcmp(Mode, "traced") == 0, Threads, Calls);
    std::printf("%.0f %.0f %.0f\n", R.Wall, R.ThreadCpu, R.ProcessCpu);
    return true;
  }
  return false;
}

std::string runSustained(const SustainedOptions &Options,
                         const std::string &TraceDir) {
  const int ThreadCounts[] = {1, 2};
  // Per thread count: (a), (b), (c), events/s, writer CPU and bytes per event.
  Series A[2], B[2], C[2];
  std::vector<double> EventsPerSec[2], WriterNs[2], Bytes[2];
  std::string LoadBefore = loadAverage();
  int Serial = 0;
  if (Options.Rounds <= 0)
    return "";
  for (int Round = 0; Round < Options.Rounds; ++Round) {
    for (int K = 0; K < 2; ++K) {
      int Threads = ThreadCounts[K];
      double Pairs = (double)(Options.Calls / Threads * Threads);
      double PerThread = Pairs / Threads;
      Run Clock = spawnRun(false, Threads, Options.Calls,
                           TraceDir + "/clock" + std::to_string(Serial++),
                           Options.PauseSeconds);
      Run Traced = spawnRun(true, Threads, Options.Calls,
                            TraceDir + "/sustained" + std::to_string(Serial++),
                            Options.PauseSeconds);
      A[K].add(Clock.ThreadCpu / Pairs, Traced.ThreadCpu / Pairs);
      B[K].add(Clock.ProcessCpu / Pairs, Traced.ProcessCpu / Pairs);
      C[K].add(Clock.Wall / PerThread, Traced.Wall / PerThread);
      EventsPerSec[K].push_back(Traced.Wall > 0 ? Pairs / Traced.Wall * 1e3
                                                : 0);
      WriterNs[K].push_back((Traced.ProcessCpu - Traced.ThreadCpu) / Pairs);
      Bytes[K].push_back(Traced.TraceBytes / Pairs);
    }
  }
  std::string Out;
  appendf(Out,
          "\nSustained: %ld START+END pairs per run, split over the threads, "
          "FINI included;\n%d s pause before each run. Median (min) of %d "
          "rounds; each ratio is taken within\na round. Load average before: "
          "%s, after: %s\n",
          Options.Calls, Options.PauseSeconds, Options.Rounds,
          LoadBefore.c_str(), loadAverage().c_str());
  appendf(Out, "%-22s %7s %18s %18s %17s\n", "ns per pair", "threads",
          "clock pair", "traced pair", "traced / clock");
  for (int K = 0; K < 2; ++K)
    appendRow(Out, "(a) thread CPU", ThreadCounts[K], A[K]);
  for (int K = 0; K < 2; ++K)
    appendRow(Out, "(b) process CPU", ThreadCounts[K], B[K]);
  for (int K = 0; K < 2; ++K)
    appendRow(Out, "(c) wall, per thread", ThreadCounts[K], C[K]);
  std::vector<double> Scaling;
  for (size_t I = 0; I < EventsPerSec[0].size(); ++I)
    Scaling.push_back(EventsPerSec[0][I] > 0
                          ? EventsPerSec[1][I] / EventsPerSec[0][I]
                          : 0);
  appendf(Out,
          "traced events/s: 1 thread %.2f M/s, 2 threads %.2f M/s, ratio "
          "%.2f (min %.2f, max %.2f)\n",
          median(EventsPerSec[0]), median(EventsPerSec[1]), median(Scaling),
          minimum(Scaling), *std::max_element(Scaling.begin(), Scaling.end()));
  // With one traced thread, it and the writer run side by side: wall >=
  // max(a, w) per event. With two on two cores every core is busy: wall >=
  // (a + w) / 2 per event. Hence the best ratio these costs allow.
  double Ta = median(A[0].Traced), Tw = median(WriterNs[0]);
  appendf(Out,
          "writer thread's CPU per event w = (b - a): 1 thread %.1f ns, 2 "
          "threads %.1f ns;\ntrace bytes per event %.1f\n",
          Tw, median(WriterNs[1]), median(Bytes[0]));
  if (Ta + Tw > 0)
    appendf(Out,
            "on 2 cores, 1 thread needs >= max(a, w) and 2 threads >= "
            "(a + w) / 2 per event:\nthese costs allow a ratio of at most "
            "2 max(a, w) / (a + w) = %.2f\n",
            2 * std::max(Ta, Tw) / (Ta + Tw));
  return Out;
}
