//===- DftracerTune.cpp - dftracer-tune: options and main -----------------===//
//
//   dftracer-tune run [options] -- COMMAND...
//   dftracer-tune ledger [--app NAME] [--json|--markdown] [--ledger FILE]
//
// Exit 0: done (a failed candidate is a result, not an error); 1: the
// baseline failed or left no trace, or the ledger could not be used;
// 2: usage.
//
//===----------------------------------------------------------------------===//

#include "diagnose/Compare.h"
#include "tune/Ledger.h"
#include "tune/Tune.h"

#include "CommandLine.h"

#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace dfttune;
using dfttools::UsageError;

namespace {

const char UsageLines[] =
    "usage: dftracer-tune run [options] -- COMMAND...\n"
    "       dftracer-tune ledger [--app NAME] [--json|--markdown] "
    "[--ledger FILE]\n";

const char Description[] =
    "The tuning loop (docs/tuning.md): run a command and each candidate\n"
    "change of it, several times, interleaved; analyse every run's traces;\n"
    "say for each candidate whether the run got faster beyond the noise\n"
    "(the verdict of dftracer-analyze --compare) and whether the setting\n"
    "took effect; keep every trial, failed ones included, in a ledger.";

const char RunFooter[] =
    "Each run has its own directory WORK/<baseline|tryN>/runR with traces/\n"
    "(DFTRACER_ENABLE=1, DFTRACER_LOG_FILE=traces/), stdout, stderr,\n"
    "command, environment and status. {run} in COMMAND or --try-args is\n"
    "replaced by that run's fresh, empty directory (runR/out): the way to\n"
    "give each run fresh output files (-- ./app -o {run}/data.h5).\n"
    "Rounds are interleaved and rotated: A B C, B C A, C A B, ...\n"
    "A crash (signal), a non-zero exit or a timeout is a failed trial, kept\n"
    "with its evidence. A setting that failed or was slower for the same\n"
    "program (file system, ranks) in the ledger is skipped unless --retry.\n"
    "Ledger: --ledger FILE, else $XDG_DATA_HOME/annotate/ledger.sqlite,\n"
    "else ~/.local/share/annotate/ledger.sqlite.\n"
    "\n"
    "exit status: 0 trials done; 1 the baseline failed or left no trace, or\n"
    "the ledger could not be used; 2 usage error";

const char LedgerFooter[] =
    "exit status: 0 listed; 1 the ledger could not be read; 2 usage error";

bool parseNumber(const std::string &S, double &Out) {
  char *End = nullptr;
  Out = std::strtod(S.c_str(), &End);
  return !S.empty() && End && *End == '\0' && Out >= 0;
}

/// The program's name for the ledger: COMMAND's first word that is not a
/// launcher or an option (nor an option's value), without its directory.
std::string programName(const std::vector<std::string> &Cmd) {
  static const char *Launchers[] = {"mpirun", "mpiexec", "mpiexec.hydra",
                                    "srun",   "aprun",   "jsrun",
                                    "flux",   "env",     "time"};
  bool Launcher = false;
  for (size_t I = 0; I < Cmd.size(); ++I) {
    std::string Base = Cmd[I].substr(Cmd[I].find_last_of('/') + 1);
    bool IsLauncher = false;
    for (const char *L : Launchers)
      IsLauncher |= Base == L;
    if (I == 0 && IsLauncher) {
      Launcher = true;
      continue;
    }
    if (!Launcher)
      return Base;
    // After a launcher: the first word that is an executable path or a
    // program on PATH, skipping options and their values.
    if (Cmd[I].empty() || Cmd[I][0] == '-' ||
        Cmd[I].find('=') != std::string::npos)
      continue;
    if (Cmd[I].find('/') != std::string::npos
            ? access(Cmd[I].c_str(), X_OK) == 0
            : !std::isdigit(Cmd[I][0]))
      return Base;
  }
  std::string First = Cmd.empty() ? "program" : Cmd[0];
  return First.substr(First.find_last_of('/') + 1);
}

int runMain(int Argc, char **Argv) {
  TuneOptions O;
  std::vector<std::string> Command;
  bool NameGiven = false;
  dfttools::CommandLine::Grammar G;
  G.Unknown = [](const std::string &A) {
    return "unknown option '" + A +
           "' (or it needs a value; the command "
           "goes after --)";
  };
  dfttools::CommandLine CL("dftracer-tune", UsageLines, Description, RunFooter,
                           G);
  CL.value("--name", "NAME",
           "the program's name in the ledger (default: the\n"
           "command's program, after a launcher)",
           [&](const std::string &V) {
             O.Name = V;
             NameGiven = true;
           });
  CL.value("--replicates", "N",
           "runs of the baseline and of each candidate\n"
           "(default 5; 4 is the fewest that can decide)",
           [&](const std::string &V) {
             double N = 0;
             if (!parseNumber(V, N) || N < 1 || N > 1000 || N != int(N))
               throw UsageError("--replicates needs a number of runs (1 to "
                                "1000), not '" +
                                V + "'");
             O.Replicates = static_cast<unsigned>(N);
           });
  CL.value("--timeout", "S",
           "seconds a run may take before it is stopped\n"
           "and counted failed (default: none)",
           [&](const std::string &V) {
             if (!parseNumber(V, O.TimeoutSeconds))
               throw UsageError("--timeout needs seconds, not '" + V + "'");
           });
  CL.value("--try", "SETTING",
           "a candidate: DFTRACER_TUNE=SETTING (docs/runtime.md)",
           [&](const std::string &V) {
             Candidate C;
             C.K = Candidate::Tune;
             C.Value = V;
             O.Candidates.push_back(C);
           });
  CL.value("--try-args", "ARGS",
           "a candidate: COMMAND with ARGS (an option COMMAND\n"
           "has gets ARGS's value: -t 4k with '-t 1m' -> -t 1m;\n"
           "the rest of ARGS is appended)",
           [&](const std::string &V) {
             Candidate C;
             C.K = Candidate::Args;
             C.Value = V;
             std::string Error;
             if (!splitWords(V, C.ArgWords, Error))
               throw UsageError("--try-args: " + Error);
             O.Candidates.push_back(C);
           });
  CL.value("--try-env", "K=V", "a candidate: K=V in the environment",
           [&](const std::string &V) {
             size_t Eq = V.find('=');
             if (Eq == std::string::npos || Eq == 0)
               throw UsageError("--try-env needs NAME=VALUE, not '" + V + "'");
             Candidate C;
             C.K = Candidate::Env;
             C.Value = V;
             O.Candidates.push_back(C);
           });
  CL.value("--from-findings", "TRACES",
           "candidates from the findings of TRACES (a\n"
           "directory or file; repeat for more): each distinct\n"
           "\"try\" list of their advice, as DFTRACER_TUNE",
           [&](const std::string &V) { O.FromFindings.push_back(V); });
  CL.value("--metric", "M",
           "the run metric of the verdict: io (default: the\n"
           "slowest rank's I/O time), wall, bandwidth or\n"
           "function:NAME (dftracer-analyze --metric)",
           [&](const std::string &V) {
             std::string Error;
             if (!dftanalyze::parseRunMetric(V, O.Metric, Error))
               throw UsageError(Error);
           });
  CL.value("--ledger", "FILE", "the ledger (default above)",
           [&](const std::string &V) { O.LedgerPath = V; });
  CL.value("--note", "TEXT", "a note kept with each trial of this run",
           [&](const std::string &V) { O.Note = V; });
  CL.flag("--retry", "run settings the ledger says failed or were slower",
          O.Retry);
  CL.value("--work", "DIR",
           "where the runs go, a new or empty directory\n"
           "(default: dftracer-tune/NAME-YYYYmmdd-HHMMSS)",
           [&](const std::string &V) { O.WorkDir = V; });
  CL.value("--preload", "LIB",
           "LD_PRELOAD LIB (libdftracer_preload.so) for every\n"
           "run, for a program not linked with the runtime",
           [&](const std::string &V) { O.Preload = V; });
  CL.value("--diagnosis-rules", "FILE",
           "the diagnosis rules (default: the installed ones)",
           [&](const std::string &V) { O.RulesPath = V; });
  CL.flag("--json", "print the trials as JSON instead of the table", O.Json);
  CL.helpFlag("-h,--help", "this text");
  CL.positionals("COMMAND", "the command to tune, after --", Command);
  int Code = CL.parse(Argc, Argv);
  if (Code >= 0)
    return Code;
  if (Command.empty())
    return CL.usageError("no command given (dftracer-tune run [options] -- "
                         "COMMAND...)");
  if (O.Candidates.empty() && O.FromFindings.empty())
    return CL.usageError("no candidate: give --try, --try-args, --try-env or "
                         "--from-findings");
  O.Command = Command;
  if (!NameGiven)
    O.Name = programName(Command);
  if (O.LedgerPath.empty())
    O.LedgerPath = defaultLedgerPath();
  O.Progress = isatty(2);
  return runTune(O, std::cout, std::cerr);
}

int ledgerMain(int Argc, char **Argv) {
  std::string App, Path;
  bool Json = false, Markdown = false;
  dfttools::CommandLine::Grammar G;
  G.Unknown = [](const std::string &A) {
    return "unknown option '" + A + "' (or it needs a value)";
  };
  dfttools::CommandLine CL("dftracer-tune", UsageLines,
                           "The trials in the ledger (docs/tuning.md).",
                           LedgerFooter, G);
  CL.value("--app", "NAME", "only this program's trials",
           [&](const std::string &V) { App = V; });
  CL.value("--ledger", "FILE", "the ledger (default as for run)",
           [&](const std::string &V) { Path = V; });
  CL.flag("--json", "the trials as JSON", Json);
  CL.flag("--markdown",
          "one entry per trial with the fields of a tuning\n"
          "notebook (date, app, workload, file system, ranks,\n"
          "bottleneck, setting, result, before, after,\n"
          "change, verdict, note)",
          Markdown);
  CL.helpFlag("-h,--help", "this text");
  std::vector<std::string> Extra;
  CL.positionals("", "", Extra);
  int Code = CL.parse(Argc, Argv);
  if (Code >= 0)
    return Code;
  if (!Extra.empty())
    return CL.usageError("ledger takes no argument: '" + Extra.front() + "'");
  if (Json && Markdown)
    return CL.usageError("--json and --markdown exclude each other");
  return printLedger(Path.empty() ? defaultLedgerPath() : Path, App,
                     Json       ? LedgerFormat::Json
                     : Markdown ? LedgerFormat::Markdown
                                : LedgerFormat::Text,
                     std::cout, std::cerr);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Sub = Argc > 1 ? Argv[1] : "";
  if (Sub == "run")
    return runMain(Argc - 1, Argv + 1);
  if (Sub == "ledger")
    return ledgerMain(Argc - 1, Argv + 1);
  if (Sub == "-h" || Sub == "--help") {
    std::cout << UsageLines << "\n"
              << Description << "\n\n"
              << "dftracer-tune run --help, dftracer-tune ledger --help: "
                 "their options\n";
    return 0;
  }
  std::cerr << "dftracer-tune: "
            << (Sub.empty() ? std::string("no subcommand")
                            : "unknown subcommand '" + Sub + "'")
            << " (run or ledger)\n"
            << UsageLines;
  return 2;
}
