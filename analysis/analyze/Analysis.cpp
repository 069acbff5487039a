//===- Analysis.cpp - Many files, many threads, one Aggregate -------------===//

#include "Analysis.h"

#include <algorithm>
#include <cstdint>
#include <sys/mman.h>
#include <sys/stat.h>

namespace dftanalyze {

void adviseHugePages(void *Data, size_t Bytes) {
  // Whole 2 MiB pages inside [Data, Data + Bytes) only: the advice is for
  // this buffer, and the kernel takes it where THP is "madvise" (Debian's
  // default). 100,000 rank records are 150 MB: ~37,000 page faults at
  // first touch without it, ~75 with it.
  constexpr uintptr_t Huge = 2u << 20;
  uintptr_t From = (reinterpret_cast<uintptr_t>(Data) + Huge - 1) & ~(Huge - 1);
  uintptr_t To = (reinterpret_cast<uintptr_t>(Data) + Bytes) & ~(Huge - 1);
  if (To > From)
    ::madvise(reinterpret_cast<void *>(From), To - From, MADV_HUGEPAGE);
}

int64_t fileSize(const std::string &File) {
  struct stat St;
  return ::stat(File.c_str(), &St) == 0 ? St.st_size : 0;
}

std::vector<uint32_t> largestFirst(const std::vector<std::string> &Files,
                                   std::vector<uint32_t> Indices) {
  std::vector<int64_t> Sizes(Files.size());
  for (uint32_t I : Indices)
    Sizes[I] = fileSize(Files[I]);
  return largestFirst(Sizes, std::move(Indices));
}

std::vector<uint32_t> largestFirst(const std::vector<int64_t> &Sizes,
                                   std::vector<uint32_t> Indices) {
  std::vector<std::pair<int64_t, uint32_t>> Sized;
  for (uint32_t I : Indices)
    Sized.emplace_back(-Sizes[I], I);
  std::sort(Sized.begin(), Sized.end());
  for (size_t K = 0; K < Sized.size(); ++K)
    Indices[K] = Sized[K].second;
  return Indices;
}

Aggregate analyzeFiles(const std::vector<std::string> &Files,
                       const std::vector<uint32_t> &Indices, unsigned Jobs,
                       const AnalyzeOptions &Options) {
  Jobs = std::max(1u, Jobs);
  std::vector<Aggregate> PerWorker(Jobs);
  // A process per file, as a rule: each worker's list is allocated once
  // (a 1.5 KB record per rank, issue 41), the first worker's for all,
  // since the others are merged into it.
  for (unsigned W = 0; W < Jobs; ++W) {
    std::vector<ProcessStat> &Ps = PerWorker[W].Processes;
    Ps.reserve(W ? Indices.size() / Jobs + 1 : Indices.size());
    adviseHugePages(Ps.data(), Ps.capacity() * sizeof(ProcessStat));
  }
  std::vector<std::unique_ptr<WorkerAnalyzer>> Readers(Jobs);
  forEachFile(Indices, Jobs, [&](uint32_t I, unsigned Slot) {
    if (!Readers[Slot])
      Readers[Slot] = std::make_unique<WorkerAnalyzer>(Options);
    Readers[Slot]->analyze(Files[I], I, PerWorker[Slot]);
  });
  Readers.clear();
  // The first worker's aggregate is the total (merging it into an empty
  // one held two copies of the largest tables at once, the peak of the
  // run); each other one is freed once merged.
  Aggregate Total = std::move(PerWorker[0]);
  for (size_t W = 1; W < PerWorker.size(); ++W) {
    Total.merge(std::move(PerWorker[W]));
    PerWorker[W] = Aggregate();
  }
  return Total;
}

} // namespace dftanalyze
