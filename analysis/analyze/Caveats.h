//===- Caveats.h - What a report's figures do not hold ----------*- C++ -*-===//
//
// One line each, plain text (the HTML report escapes them):
//
// \code
//   2 functions or calls throttled (records "throttled"): their spans are
//     counted, not placed
//   1 of ranks 0-3 have no trace
//   APP: 4094304 of the ops are throttled records (counted by the runtime,
//     not in the trace: no union time, file or rank)
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_CAVEATS_H
#define DFTRACER_ANALYZE_CAVEATS_H

#include "Report.h"

#include <string>
#include <vector>

namespace dftanalyze {

/// What the trace itself says it does not hold, as every finding carries
/// it: first the tuning settings that did not take effect (tuningCaveats,
/// Configuration.h), then functions or calls throttled, calls left
/// untraced by the data-dir filter, processes that stopped tracing early,
/// layers bypassed, ranks missing (numeric ranks 0..max with gaps),
/// problems in the input.
std::vector<std::string> traceCaveats(const Report &R);

/// The HTML report's caveats box: traceCaveats, then what the text report
/// says beside its tables: the sources not annotated (coverageCaveats), how
/// to get function names (functionNamesHint), MPI's shared memory
/// (sharedMemoryCaveat); per layer, the ops that are throttled records;
/// times that include a sampled estimate (~); each file's caveats (the
/// first Top, then how many more).
std::vector<std::string> reportCaveats(const Report &R, size_t Top);

/// Sources a coverage caveat names at most; the JSON's "coverage" lists
/// every source the record holds.
inline constexpr size_t CoverageListed = 5;

/// Per program whose coverage record (issue 38) has sources that were not
/// annotated: "6 of 12 sources of vpic were not annotated (h5.c: not
/// annotated (expected ')'); io.c: filtered by ANNOTATE_EXCLUDE; ... 4
/// more, --json lists them): calls in them are attributed to their
/// annotated callers". Nothing without a record.
std::vector<std::string> coverageCaveats(const Report &R);

/// A trace with I/O calls but no annotated function at all and no coverage
/// record (the program ran under LD_PRELOAD alone): how to get function
/// names, said once; "" for any other trace.
std::string functionNamesHint(const Report &R);

/// A finding's caveats from the coverage records of its processes (Ranks:
/// their labels; empty: every process): a site of "(no function)" has no
/// annotated caller, and an annotated function's I/O may be made in the
/// un-annotated sources it calls, which are named. Functions: its sites'
/// functions. Nothing without a record that lists un-annotated sources.
std::vector<std::string>
coverageSiteCaveats(const Report &R, const std::vector<std::string> &Functions,
                    const std::vector<std::string> &Ranks);

/// MPI's shared-memory segments are not the program's files: MPICH's
/// /dev/shm/mpich_shar_tmpXXXXXX, UCX's /dev/shm/ucx_shm_posix_<hex>
/// (MPICH's ch4:ucx transport, opened with shm_open), Open MPI's
/// vader_segment.* (4.x) and sm_segment.* (5.x). Any other file under
/// /dev/shm is the program's: data staged in memory counts. The findings
/// leave them out; the reports mark them and keep their bytes in the totals.
bool mpiSharedMemory(const std::string &Path);
/// A call on such a file is its own call site: its name with this suffix
/// ("(no function) > write (MPI shared memory)"), so the sites' tables
/// show MPI's transport apart and the findings can leave it out. Known
/// when the file's FH record comes before the call, as this runtime
/// writes it.
inline constexpr const char *MpiSharedMemoryCall = " (MPI shared memory)";
bool mpiSharedMemoryChain(const std::string &Chain);

/// The calls and bytes of the files mpiSharedMemory names, per I/O layer.
struct SharedMemoryFigures {
  size_t Files = 0;
  std::string First; // the first path, by name
  IoTotals Layers[NumIoLayers];
};
SharedMemoryFigures sharedMemoryFigures(const Report &R);

/// "3 files are MPI's own shared memory (/dev/shm/ucx_shm_posix_1f, ...),
/// its transport between ranks, not the program's data: POSIX 204 calls,
/// 12878160 B written, 0 B read of the layer's totals (kept in them; the
/// findings leave these files out)"; "" without such files.
std::string sharedMemoryCaveat(const Report &R);

} // namespace dftanalyze

#endif
