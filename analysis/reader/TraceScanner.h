//===- TraceScanner.h - The events of one trace file --------------*- C++ -*-===//
//
// The file-level rules of docs/trace-format.md, applied the same way for
// every tool: line 1 is "[" (or already an event: upstream dev's NDJSON,
// and upstream v1's unfinished files), blank lines are skipped, a final "]"
// is tolerated ("]" then "[": traces concatenated), and every other line is
// one event. Upstream's shapes are decoded here too (Upstream.h): times in
// another unit are converted first, and what a file cannot say is reported
// once, by onCaveat().
//
// \code
//   [                                         <- required on line 1
//   {"id":1,"name":"main",...}                -> onEvent(E, 2)
//   {"id":2,"name":"broken",...               -> onProblem(InvalidLine, 3, ..)
//   {"id":3,"name":"la                        -> onProblem(TruncatedLine, 4, ..)
// \endcode
//                                                (no '\n' after line 4)
//
// A line that fails is reported and skipped; the next line is read as if
// nothing had happened, so one bad line never costs another event.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_TRACESCANNER_H
#define DFTRACER_READER_TRACESCANNER_H

#include "CompactReader.h"
#include "Event.h"
#include "EventCheck.h"
#include "IoTaxonomy.h"
#include "Upstream.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dftrace {

class TraceScanner {
public:
  virtual ~TraceScanner() = default;

  /// Reads Path (plain, gzip, or compact: CompactReader.h, told by its
  /// first bytes). Returns false when it cannot be opened.
  bool scan(const std::string &Path);

  /// Uncompressed text bytes read by the last scan().
  uint64_t textBytes() const { return TextBytes; }
  /// Lines read by the last scan().
  uint64_t lines() const { return Lines; }

  /// The unit of "ts" and "dur" in the files to scan (default
  /// microseconds); Given when the user chose it (--time-unit).
  void setTimeUnit(TimeUnit U, bool Given) {
    Unit = U;
    UnitGiven = Given;
  }
  /// The unit the last file records (upstream dev's time_metric), Unknown
  /// when it records none. When it is not the unit scanned with, the
  /// caller scans again with it: the record comes at the end of the file.
  TimeUnit recordedUnit() const { return Facts.recordedUnit(); }

protected:
  /// One JSON object line. E's strings live until the next call.
  virtual void onEvent(const Event &E, uint64_t Line) = 0;
  /// A problem of syntax or structure; Line 0 concerns the whole file.
  virtual void onProblem(Issue Kind, uint64_t Line, std::string Message) = 0;
  /// checkEvent(E), its problems passed to onProblem; true when E is usable.
  bool checkedEvent(const Event &E, uint64_t Line);
  /// Something the whole file cannot say (Upstream.h), once per file,
  /// after its events.
  virtual void onCaveat(std::string Message) { (void)Message; }

  /// The text of the line being passed to onEvent (blanks trimmed), for a
  /// reader that needs more of it than Event holds (MetadataRecords.h).
  /// A compact trace's span is printed only when asked for.
  std::string_view lineText() const {
    if (LazySpan)
      printLazySpan();
    return Current;
  }

private:
  bool scanCompact(const std::string &Path);
  void printLazySpan() const;

  std::vector<EventProblem> Problems;
  UpstreamFacts Facts;
  TimeUnit Unit = TimeUnit::Us;
  bool UnitGiven = false;
  mutable std::string_view Current;
  // The compact span being passed to onEvent, printed by lineText().
  mutable bool LazySpan = false;
  mutable std::string LazyText;
  const CompactReader *LazyReader = nullptr;
  // The compact span being passed to onEvent, whose values and category
  // the decoding already judged (CompactEvent::Suspect, StringUse::Reject).
  const Event *CheckedSpan = nullptr;
  bool CheckedClean = false; // checkEvent would accept it
  uint64_t TextBytes = 0;
  uint64_t Lines = 0;
};

/// Expands directories to the .pfw/.pfw.gz/.pfc files directly inside them
/// (sorted by name); other paths are kept as given. Directories without
/// trace files are reported in Errors.
std::vector<std::string>
expandTraceArguments(const std::vector<std::string> &Args,
                     std::vector<std::string> &Errors);

} // namespace dftrace

#endif
