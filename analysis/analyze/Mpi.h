//===- Mpi.h - Splitting the files across MPI ranks ---------------*- C++ -*-===//
//
// Under `mpiexec -n N dftracer-analyze ...` every rank reads its share of
// the files (the largest-first list dealt out round-robin), and the
// serialised aggregates (Archive.h) are merged up a binomial tree to rank
// 0, which prints the report. Merging is order-independent, so the report
// is the bytes a single process prints.
//
// MPI is initialised only when a launcher started the program (PMI_RANK,
// PMIX_RANK or OMPI_COMM_WORLD_RANK in the environment): run alone, the
// tool never touches MPI. Built without MPI, the functions below describe a
// single process.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_MPI_H
#define DFTRACER_ANALYZE_MPI_H

#include "Aggregate.h"

#include <cstdint>
#include <string>
#include <vector>

namespace dftanalyze {

struct MpiWorld {
  int Rank = 0;
  int Size = 1;
  int LocalSize = 1; // ranks on this node
  bool Active = false;
};

/// True when a launcher started this process (see above).
bool launchedByMpi();
/// MPI_Init when launchedByMpi(); otherwise a world of one.
MpiWorld mpiStart(int &Argc, char **&Argv, std::string &Error);
void mpiStop(const MpiWorld &W);
/// Whether this build can run under MPI.
bool mpiAvailable();

/// Every file's index, largest first (largestFirst), the same on every
/// rank: each rank stat()s its 1/Size of the files and the sizes are
/// summed over the ranks, so a shared file system sees each file stat'ed
/// once, not once per rank (issue 41); each rank with Jobs threads.
std::vector<uint32_t> mpiLargestFirst(const MpiWorld &W,
                                      const std::vector<std::string> &Files,
                                      unsigned Jobs = 1);
/// This rank's files: Ordered (largest first) dealt out round-robin.
std::vector<uint32_t> mpiShare(const MpiWorld &W,
                               const std::vector<uint32_t> &Ordered);
/// Merges every rank's A into rank 0's A, in a binomial tree of
/// ceil(log2 Size) rounds (others keep theirs, or a partial merge).
void mpiGather(const MpiWorld &W, Aggregate &A);
/// Rank 0's Bytes, on every rank.
void mpiBroadcastBytes(const MpiWorld &W, std::string &Bytes);
/// Rank 0's value of Code, on every rank.
int mpiBroadcast(const MpiWorld &W, int Code);
/// True on every rank when Mine is true on every rank (a barrier too).
bool mpiAll(const MpiWorld &W, bool Mine);

} // namespace dftanalyze

#endif
