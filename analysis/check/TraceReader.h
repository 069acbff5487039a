//===- TraceReader.h - Read and validate trace files ------------*- C++ -*-===//
//
// Line-level validation of docs/trace-format.md, through the reader shared
// with dftracer-analyze (analysis/reader): the first line is "[", every
// other non-empty line is one JSON object (a final "]" is tolerated), and
// each event has the fields its phase needs, with non-negative ts and dur:
//
// \code
//   [
//   {"id":1,"name":"main","cat":"C_APP","pid":7,"tid":7,"ts":10,"dur":5,
//    "ph":"X","args":{"level":1,"p_idx":0}}
// \endcode
//
// I/O events must have a known category, non-negative sizes, and an "FH"
// line in the same process for every fhash they use. Nesting between spans
// is checked as they come (Nesting.h), and the summary is built the same
// way: no span is kept, so memory follows the open spans, not the file.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_TRACEREADER_H
#define DFTRACER_CHECK_TRACEREADER_H

#include "Summary.h"
#include "Trace.h"
#include "reader/Upstream.h"

#include <string>
#include <vector>

namespace dftcheck {

/// Read and check one file (gzip or plain, detected from the content): its
/// problems, caveats, records and metadata go to Set, and its summary is
/// returned. Its times are in Unit unless the file records its own
/// (upstream dev's time_metric); Given says the user chose Unit
/// (--time-unit).
Summary readTraceFile(const std::string &Path, TraceSet &Set,
                   dftrace::TimeUnit Unit = dftrace::TimeUnit::Us,
                   bool Given = false);

} // namespace dftcheck

#endif
