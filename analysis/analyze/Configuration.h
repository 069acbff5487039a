//===- Configuration.h - The run's configuration, per program ---*- C++ -*-===//
//
// What a tuner must know to read or repeat a run (issue 35): per program,
// its command line, working directory, I/O environment, library versions,
// ranks and nodes, and the settings the runtime applied (DFTRACER_TUNE,
// MPI-IO hints from the environment) with their statuses; and, first of
// all, the settings that did not take effect.
//
// \code
//   CONFIG {"exe":"/bin/vpic","argv":["./vpic","-n","4"],...} x 2 processes,
//   MPI_JOB {"rank":0,"size":2}, NODE {"hostname":"n1"}, tuning {...}
//     -> ProgramConfig{Exe "/bin/vpic", Argv {"./vpic","-n","4"},
//                      Processes 2, Ranks 2, Nodes 1, Tuning {...}}
//   tuning {"key":"hdf5.alignment","requested":"4096,4096",
//           "status":"ignored","reason":"H5Fopen: create-only"} on /x.h5
//     -> "DFTRACER_TUNE hdf5.alignment=4096,4096 was ignored on /x.h5:
//         H5Fopen: create-only"
// \endcode
//
// A program is the processes with the same exe and argv (CONFIG); the
// processes of a trace without CONFIG are grouped by the trace file name's
// prefix, as Report labels ranks. Everything is sorted, so the section is
// the same whatever the merge order (-j, mpiexec).
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_CONFIGURATION_H
#define DFTRACER_ANALYZE_CONFIGURATION_H

#include "Report.h"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace dftanalyze {

/// One setting the runtime judged, the same in every process listed.
struct TuningRow {
  TuningStat T;                   // Path "" for a process-wide record
  std::vector<std::string> Ranks; // process labels, rank order
};

struct ProgramConfig {
  bool HasConfig = false; // else Exe and Argv are empty; Program names it
  // Program: the trace file name's program without CONFIG; with it, the
  // ranks' program label (RankFigures::Program: empty unless several
  // programs are read together).
  std::string Exe, Program;
  std::vector<std::string> Argv;
  uint64_t ArgvDropped = 0, EnvDropped = 0; // the largest of its processes
  std::string Cwd; // its processes' ("a | b" when they differ)
  std::vector<std::pair<std::string, std::string>> Env; // by name
  // Variables whose value differs between its processes (or that some
  // lack: ""), by name, values sorted.
  std::map<std::string, std::vector<std::string>> EnvVaries;
  // Library ("HDF5", "MPI", "glibc") -> version ("a | b" when they differ).
  std::map<std::string, std::string> Versions;
  size_t Processes = 0;
  uint64_t Ranks = 0; // MPI_JOB's size (the largest); 0: no MPI_JOB record
  size_t Nodes = 0;   // distinct NODE host names; 0: no NODE record
  std::vector<TuningRow> Tuning; // by path, key, status, ...
};

/// The programs of R, those with CONFIG first (by exe, argv), then the
/// others by trace name prefix; empty when no process has any of CONFIG,
/// VERSION, MPI_JOB or tuning records (a trace from before issue 35).
std::vector<ProgramConfig> programConfigs(const Report &R);

/// A program's coverage record (issue 38): which of its sources the build
/// annotated. Its processes each wrote one (the same); the first is kept.
struct ProgramCoverage {
  const CoverageStat *C = nullptr;
  std::vector<std::string> Ranks; // labels of its processes, rank order

  /// Sources not annotated (failed or excluded): the counts, or the list
  /// when a record gives no counts.
  uint64_t notAnnotated() const;
};

/// The coverage records of R, one per program ("program" of the record),
/// by program name; empty when no process wrote one (plain LD_PRELOAD, a
/// program not built through annotate-cc or annotate_target).
std::vector<ProgramCoverage> programCoverage(const Report &R);

/// "KEY=VALUE" (or "KEY?=VALUE") of a tuning record, as the user wrote it
/// without its glob; its "setting" when it has no key or value.
std::string tuningText(const TuningStat &T);

/// Each setting that did not take effect (status "ignored" or "invalid"),
/// once, with its files and processes:
/// "DFTRACER_TUNE hdf5.alignment=4096,4096 was ignored on /x.h5: reason".
std::vector<std::string> tuningCaveats(const Report &R);

/// Argv as a shell would need it typed: arguments with blanks or shell
/// characters single-quoted.
std::string shellWords(const std::vector<std::string> &Argv);

} // namespace dftanalyze

#endif
