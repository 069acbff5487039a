//===- Analysis.cpp - Many files, many threads, one Aggregate -------------===//

#include "Analysis.h"

#include <algorithm>
#include <sys/stat.h>

namespace dftanalyze {

std::vector<uint32_t> largestFirst(const std::vector<std::string> &Files,
                                   std::vector<uint32_t> Indices) {
  std::vector<std::pair<int64_t, uint32_t>> Sized;
  for (uint32_t I : Indices) {
    struct stat St;
    int64_t Size = ::stat(Files[I].c_str(), &St) == 0 ? St.st_size : 0;
    Sized.emplace_back(-Size, I);
  }
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
  forEachFile(Files, Indices, Jobs, [&](uint32_t I, unsigned Slot) {
    PerWorker[Slot].merge(analyzeFile(Files[I], I, Options));
  });
  Aggregate Total;
  for (Aggregate &A : PerWorker)
    Total.merge(std::move(A));
  return Total;
}

} // namespace dftanalyze
