//===- Analysis.h - Many files, many threads, one Aggregate -------*- C++ -*-===//
//
// Files are handed to worker threads largest first; each worker merges the
// files it read into its own Aggregate, and the workers' aggregates are
// merged at the end. Aggregate::merge is order-independent, so the result
// does not depend on -j or on which worker read which file.
//
// \code
//   Aggregate A = analyzeFiles(Files, {0, 1, 2, 3}, /*Jobs=*/2, Options);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_ANALYSIS_H
#define DFTRACER_ANALYZE_ANALYSIS_H

#include "Aggregate.h"
#include "FileAnalyzer.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dftanalyze {

/// Reads Files[I] for each I in Indices with Jobs threads, in that order
/// (largestFirst's balances the threads). The result's FileNames is left
/// empty.
Aggregate analyzeFiles(const std::vector<std::string> &Files,
                       const std::vector<uint32_t> &Indices, unsigned Jobs,
                       const AnalyzeOptions &Options);

/// Runs Work(I) for each I in Indices on Jobs threads, in the order given:
/// largestFirst's, so that no thread is left with a large file at the end
/// (the caller sorts once; the files are not stat'ed again here).
template <class F>
void forEachFile(const std::vector<uint32_t> &Indices, unsigned Jobs,
                 F &&Work);

/// Indices in decreasing order of file size (index order among equals).
std::vector<uint32_t> largestFirst(const std::vector<std::string> &Files,
                                   std::vector<uint32_t> Indices);
/// The same from sizes already known: Sizes[I] is file I's.
std::vector<uint32_t> largestFirst(const std::vector<int64_t> &Sizes,
                                   std::vector<uint32_t> Indices);
/// The size of Files[I] (0 when it cannot be stat'ed).
int64_t fileSize(const std::string &File);
/// Asks the kernel for transparent huge pages in the 2 MiB-aligned part
/// of a large buffer not yet touched (advice: nothing changes if refused).
void adviseHugePages(void *Data, size_t Bytes);

} // namespace dftanalyze

#include <atomic>
#include <thread>

namespace dftanalyze {

template <class F>
void forEachFile(const std::vector<uint32_t> &Order, unsigned Jobs,
                 F &&Work) {
  std::atomic<size_t> Next{0};
  auto Worker = [&](unsigned Slot) {
    for (size_t I; (I = Next.fetch_add(1)) < Order.size();)
      Work(Order[I], Slot);
  };
  Jobs = std::max(1u, std::min<unsigned>(Jobs, static_cast<unsigned>(
                                                   std::max<size_t>(1, Order.size()))));
  std::vector<std::thread> Threads;
  for (unsigned T = 1; T < Jobs; ++T)
    Threads.emplace_back(Worker, T);
  Worker(0);
  for (std::thread &T : Threads)
    T.join();
}

} // namespace dftanalyze

#endif
