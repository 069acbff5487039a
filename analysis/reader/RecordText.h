//===- RecordText.h - The runtime's records in words ------------*- C++ -*-===//
//
// The phrases by which both tools' text reports tell what the runtime's
// records (MetadataRecords.h) say the trace does not hold:
//
// \code
//   layer bypassed: rank 0 (pid 41): HDF5 calls do not reach the tracer
//     (H5Dwrite resolves to /usr/lib/libhdf5.so.103); fix: link ...
//   trace stopped: rank 0 (pid 41): size_limit, 1073741100 bytes written
//     of a 1073741824-byte budget; later spans are only counted
//   not traced: /usr: 13 calls (3 opens, 10 reads, 0 writes), 4096 bytes
//     read, 0 bytes written, in 2 processes (outside the traced
//     directories: DFTRACER_DATA_DIR)
// \endcode
//
// Only the phrases are shared, not the lines around them: dftracer-check
// lists every record of every process (printRecords in check/Summary.h),
// while dftracer-analyze sums a record over the processes that wrote it,
// cuts the list at --top and adds advice (printRecords in
// report/TextReport.cpp). Each tool's lines stay as they were, since tests
// and scripts read both; the "not traced" line is the same in both.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_RECORDTEXT_H
#define DFTRACER_READER_RECORDTEXT_H

#include "MetadataRecords.h"

#include <cstdint>
#include <ostream>
#include <string>

namespace dftrace {

/// "HDF5 calls do not reach the tracer (H5Dwrite resolves to LIBRARY)", a
/// layer_bypassed record; "another library" when it names none.
std::string bypassedText(const std::string &Layer, const std::string &Symbol,
                         const std::string &Library);
/// "; fix: FIX" of a layer_bypassed record, or "" when it gives none.
std::string fixText(const std::string &Fix);
/// "size_limit" or "write_error (ENOSPC)": why a trace_stopped record's
/// process stopped tracing.
std::string stoppedText(const std::string &Reason, const std::string &Error);
/// ", WRITTEN bytes written of a LIMIT-byte budget".
std::string budgetText(uint64_t Written, uint64_t Limit);
/// The "not traced: DIR: ..." line of an untraced directory, its calls and
/// bytes summed over the Processes processes whose record names it.
void printUntraced(std::ostream &Os, const UntracedDir &Sum,
                   uint64_t Processes);

/// A function's throttle reasons as one text: Reasons (names) in their
/// order, joined by Sep. dftracer-check joins the names its records held,
/// sorted, with ", " ("size_limit, throttle"); dftracer-analyze keeps them
/// as bits (ThrottleReason, Aggregate.h) and joins their names in bit
/// order with "+" ("throttle+size_limit"). Both texts are printed and read
/// as they are (text and JSON reports), so only the joining is shared.
template <class Names>
std::string reasonsText(const Names &Reasons, const char *Sep) {
  std::string Out;
  for (const auto &Name : Reasons) {
    if (!Out.empty())
      Out += Sep;
    Out += Name;
  }
  return Out;
}

} // namespace dftrace

#endif
