//===- ExpectCounts.h - Compare call counts with expectations ---*- C++ -*-===//
//
// `--expect-counts FILE.json` takes {"function_name": calls, ...}. Counts are
// summed over all trace files; every listed name must match exactly (0 means
// "must not appear"); names that are not listed are not checked. A plain
// name counts the application's spans (annotated functions); the events of
// the traced I/O layers are "LAYER:name" ("POSIX:write", "HDF5:H5Dwrite"),
// so a method `write` is never confused with POSIX `write` (whose count
// depends on what MPI's transports write).
//
// \code
//   call counts differ from expected.json:
//     function     expected   actual
//     write_data          4        3
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_EXPECTCOUNTS_H
#define DFTRACER_CHECK_EXPECTCOUNTS_H

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

namespace dftcheck {

struct CountMismatch {
  std::string Name;
  uint64_t Expected = 0;
  uint64_t Actual = 0;
};

/// Parse the expectation file; on failure return false and set Error.
bool loadExpectedCounts(const std::string &Path,
                        std::map<std::string, uint64_t> &Out,
                        std::string &Error);

std::vector<CountMismatch>
compareCounts(const std::map<std::string, uint64_t> &Expected,
              const std::map<std::string, uint64_t> &Actual);

void printCountDiff(std::ostream &Os, const std::string &Path,
                    const std::vector<CountMismatch> &Mismatches);

} // namespace dftcheck

#endif
