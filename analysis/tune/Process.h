//===- Process.h - One run of the command, kept with its evidence -*- C++
//-*-===//
//
// dftracer-tune runs each replicate as a child process in its own process
// group (so that a timeout stops an mpiexec and its ranks together), with
// stdout and stderr written to Dir/stdout and Dir/stderr, the command to
// Dir/command and the variables the runner set to Dir/environment. It keeps
// the exit status or the signal, the wall time, and whether the timeout
// stopped it (SIGTERM to the group, SIGKILL 5 s later).
//
// \code
//   RunSpec S{{"./app", "-n", "4"}, {{"DFTRACER_ENABLE", "1"}}, "/w/r0", 60};
//   RunResult R = runProcess(S, [](double Elapsed) { ... });
//   R.failed(); // a signal, a non-zero exit or the timeout
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TUNE_PROCESS_H
#define DFTRACER_TUNE_PROCESS_H

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace dfttune {

struct RunSpec {
  std::vector<std::string> Argv;
  std::vector<std::pair<std::string, std::string>> Env; // set over ours
  std::string Dir;           // exists; stdout, stderr, command go here
  double TimeoutSeconds = 0; // 0: none
};

struct RunResult {
  int ExitStatus = -1; // when it exited
  int Signal = 0;      // when a signal ended it
  bool TimedOut = false;
  double WallSeconds = 0;
  std::string StartError; // could not be started (fork failed)

  bool failed() const {
    return TimedOut || Signal != 0 || ExitStatus != 0 || !StartError.empty();
  }
  /// "signal 11 (Segmentation fault)", "exit 3", "timeout after 60 s", "ok".
  std::string text() const;
};

/// Runs S; Tick (when given) is called about every 200 ms with the time
/// elapsed.
RunResult runProcess(const RunSpec &S,
                     const std::function<void(double)> &Tick = nullptr);

/// The last Lines lines of the file at Path ("" when unreadable).
std::string tailOf(const std::string &Path, size_t Lines);

} // namespace dfttune

#endif
