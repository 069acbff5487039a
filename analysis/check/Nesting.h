//===- Nesting.h - Spans must nest per thread, checked as they come -*- C++ -*-===//
//
// On one thread (same file, pid and tid) any two spans are either disjoint or
// one contains the other. When the runtime's args.p_idx and args.level are
// present they must agree with that structure:
//
// \code
//   main   [0, 100)  level 1, p_idx 0
//   read   [10, 30)  level 2, p_idx <main's id>    ok
//   write  [25, 40)  overlaps read without nesting  -> problem
// \endcode
//
// Spans are written when they end, so a span's children come before it. The
// checker is fed one span at a time (add) and keeps only what a check still
// needs while a span can get a child; the tree is dftracer-analyze's
// (reader/SpanNesting.h builds it for both: the entries by p_idx, the
// stacks by time):
//  - by p_idx: per open parent, a fixed-size summary of its children so far
//    (how many, their earliest start and latest end, thread, level, time per
//    thread, the last sibling): when the parent comes, the summary says
//    whether every child lies inside it, one level deeper, on its thread,
//    with no two siblings overlapping. Memory follows the open spans.
//  - without p_idx (B/E pairs, foreign traces): per thread, a stack of the
//    spans no span has claimed yet, in end order; a span claims those on top
//    that lie inside it (its direct children) and overlapping one without
//    nesting is a problem. The thread's outermost spans stay until the end
//    of the file (a span still to come may contain them), as in
//    dftracer-analyze.
//  - ids already used, as an interval set per process (the runtime's ids
//    are dense: a run of ids is one entry).
// A summary that fails names no span, so the file is read again (recheck):
// only the children of the parents that failed, of the parents that never
// came, and the spans whose id repeats are collected then, and reported one
// by one as before. A trace that nests is read once.
//
// A child whose p_idx names no span by the end of the file is the signature
// of a missing END; in a process whose tracing stopped (trace_stopped), its
// parent was still open when the budget ran out, which is a caveat, provided
// it could have been: its id is below the child's (ids are taken when a span
// starts) and the child began before the stop.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_CHECK_NESTING_H
#define DFTRACER_CHECK_NESTING_H

#include "Trace.h"
#include "reader/MetadataRecords.h"
#include "reader/SpanNesting.h"

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dftcheck {

class NestingChecker {
public:
  explicit NestingChecker(size_t FileIndex) : FileIndex(FileIndex) {}

  /// Checks S against the spans before it. False when S is not counted (its
  /// id repeats one already used); otherwise SelfUs is its duration minus
  /// that of its direct children.
  bool add(const Span &S, double &SelfUs);

  /// Ends the first reading. Stopped: the processes with a trace_stopped
  /// record, and when it says (µs, -1 when it does not). Children whose
  /// parent never came in one of them, when that parent could have been
  /// open at the stop (its id is below theirs, they all began by the stop),
  /// make one caveat per process. OpenAtExit: the spans other threads
  /// still had open when their process finished (open_at_exit records), by
  /// (pid, id): children of one of them make one caveat per such parent.
  /// True when the spans must be fed again, in the same order, to recheck().
  bool finish(const std::map<int64_t, double> &Stopped,
              const dftrace::OpenAtExitSpans &OpenAtExit = {});
  /// The second reading: collects what the failed checks need.
  void recheck(const Span &S);
  /// Ends it: the problems, one per span, as a full check finds them.
  void finishRecheck();

  /// Problems found, by line (the order of the file).
  std::vector<Problem> takeProblems();
  std::vector<Problem> &caveats() { return Caveats; }

  /// Entries held now: summaries, unclaimed spans, id runs (the bound).
  size_t held() const;

private:
  /// What a check needs of one span.
  struct Entry {
    double Ts = 0, Dur = 0;
    uint64_t Id = 0;
    int64_t Tid = 0;
    int64_t Level = 0;
    bool HasLevel = false;
    uint32_t Name = 0; // into Names
    size_t Line = 0;
    double end() const { return Ts + Dur; }
  };
  /// Siblings so far, in the order a check would sort them: the last one
  /// and the latest end. A new sibling that sorts after the last and starts
  /// at or after every end overlaps none (the sorted check finds nothing
  /// new); anything else is suspect and rechecked.
  struct SiblingOrder {
    bool Any = false, Suspect = false;
    Entry Last;
    double MaxEnd = 0;
    void add(const Entry &E);
  };
  /// The children of one parent that has not come yet (Nest's entries).
  struct Children {
    uint64_t N = 0;
    double MinTs = 0, MaxEnd = 0;
    double MaxTs = 0;   // the latest start (trace_stopped: before the stop)
    uint64_t MinId = 0; // a parent is numbered before its children
    int64_t Tid = 0;
    bool MixedTids = false;
    int64_t Level = 0;
    bool HasLevel = false, MixedLevels = false;
    std::vector<std::pair<int64_t, double>> TimeByTid; // usually one
    SiblingOrder Order;
    void reset() { *this = Children(); }
  };
  using PidTid = std::pair<int64_t, int64_t>;
  using PidId = std::pair<int64_t, uint64_t>;

  Entry entryOf(const Span &S);
  std::string describe(const Entry &E) const;
  void problem(size_t Line, std::string Message);
  bool claimId(int64_t Pid, uint64_t Id);
  bool idUsed(int64_t Pid, uint64_t Id) const;
  double claimByParent(const Span &S, const Entry &Me);
  double claimByTime(const Span &S, const Entry &Me);
  void checkChildren(const Entry &Parent, int64_t Pid,
                     const std::vector<Entry> &Kids);
  void checkRoots(int64_t Pid, int64_t Tid, std::vector<Entry> &Roots);

  size_t FileIndex;
  std::vector<std::string> Names;
  std::unordered_map<std::string, uint32_t> NameIds;
  // By parent (pid, p_idx), the children's summary; per thread, the spans
  // without p_idx that no span has claimed.
  dftrace::SpanNesting<Children, Entry> Nest;
  std::map<PidTid, SiblingOrder> Roots; // outermost spans by p_idx
  std::map<int64_t, std::map<uint64_t, uint64_t>> UsedIds; // [first, last]
  std::vector<Problem> Problems, Caveats;

  // For the recheck, from the first reading.
  std::map<PidId, Entry> Failed;   // parents whose children's summary failed
  std::set<PidId> Orphaned;        // parents that never came
  std::set<PidTid> SuspectRoots;   // threads whose outermost spans overlap
  std::map<PidId, size_t> Repeated; // (pid, id) used again -> first line
  std::vector<std::pair<PidId, size_t>> Duplicates; // and the later lines
  std::set<size_t> DuplicateLines;
  std::map<PidId, std::vector<Entry>> Collected; // children, by parent
  std::map<PidTid, std::vector<Entry>> CollectedRoots;
};

} // namespace dftcheck

#endif
