//===- Process.cpp - One run of the command, kept with its evidence -------===//

#include "Process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace dfttune {

namespace {

void writeText(const std::string &Path, const std::string &Text) {
  std::ofstream Out(Path, std::ios::binary);
  Out << Text;
}

/// In the child: stdout/stderr to files, the environment, exec. Only
/// async-signal-safe calls would be strictly right after fork in a
/// threaded parent; the runner has no other threads while it runs one.
[[noreturn]] void execChild(const RunSpec &S) {
  setpgid(0, 0);
  int Out =
      open((S.Dir + "/stdout").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int Err =
      open((S.Dir + "/stderr").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (Out >= 0)
    dup2(Out, 1);
  if (Err >= 0)
    dup2(Err, 2);
  int Null = open("/dev/null", O_RDONLY);
  if (Null >= 0)
    dup2(Null, 0);
  for (const auto &[K, V] : S.Env)
    setenv(K.c_str(), V.c_str(), 1);
  std::vector<char *> Argv;
  for (const std::string &A : S.Argv)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  execvp(Argv[0], Argv.data());
  std::fprintf(stderr, "dftracer-tune: cannot run '%s': %s\n", Argv[0],
               std::strerror(errno));
  _exit(127);
}

} // namespace

std::string RunResult::text() const {
  if (!StartError.empty())
    return "not started: " + StartError;
  if (TimedOut) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "timeout after %.0f s", WallSeconds);
    return Buf;
  }
  if (Signal)
    return "signal " + std::to_string(Signal) + " (" + strsignal(Signal) + ")";
  if (ExitStatus)
    return "exit " + std::to_string(ExitStatus);
  return "ok";
}

RunResult runProcess(const RunSpec &S,
                     const std::function<void(double)> &Tick) {
  RunResult R;
  std::string Cmd, Env;
  for (const std::string &A : S.Argv)
    Cmd += A + "\n";
  for (const auto &[K, V] : S.Env)
    Env += K + "=" + V + "\n";
  writeText(S.Dir + "/command", Cmd);
  writeText(S.Dir + "/environment", Env);
  std::fflush(nullptr);
  auto Start = std::chrono::steady_clock::now();
  pid_t Pid = fork();
  if (Pid < 0) {
    R.StartError = std::strerror(errno);
    return R;
  }
  if (Pid == 0)
    execChild(S);
  setpgid(Pid, Pid); // also here: no race with the kill below
  auto Elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         Start)
        .count();
  };
  int Status = 0;
  double LastTick = 0, TermAt = -1;
  for (;;) {
    pid_t Done = waitpid(Pid, &Status, WNOHANG);
    if (Done == Pid)
      break;
    if (Done < 0 && errno != EINTR) {
      R.StartError = std::strerror(errno);
      return R;
    }
    double E = Elapsed();
    if (S.TimeoutSeconds > 0 && E > S.TimeoutSeconds && TermAt < 0) {
      R.TimedOut = true;
      kill(-Pid, SIGTERM);
      TermAt = E;
    }
    if (TermAt >= 0 && E > TermAt + 5)
      kill(-Pid, SIGKILL);
    if (Tick && E - LastTick >= 0.2) {
      Tick(E);
      LastTick = E;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  R.WallSeconds = Elapsed();
  if (WIFEXITED(Status))
    R.ExitStatus = WEXITSTATUS(Status);
  else if (WIFSIGNALED(Status))
    R.Signal = WTERMSIG(Status);
  writeText(S.Dir + "/status", R.text() + "\n");
  return R;
}

std::string tailOf(const std::string &Path, size_t Lines) {
  std::ifstream In(Path);
  std::deque<std::string> Last;
  for (std::string L; std::getline(In, L);) {
    Last.push_back(L);
    if (Last.size() > Lines)
      Last.pop_front();
  }
  std::string Out;
  for (const std::string &L : Last)
    Out += L + "\n";
  return Out;
}

} // namespace dfttune
