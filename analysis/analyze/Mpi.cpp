//===- Mpi.cpp - Splitting the files across MPI ranks ---------------------===//

#include "Mpi.h"

#include <cstdlib>
#include <stdexcept>

#ifdef DFTRACER_ANALYZE_MPI
#include <mpi.h>
#endif

namespace dftanalyze {

bool launchedByMpi() {
  for (const char *Name : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK"})
    if (std::getenv(Name))
      return true;
  return false;
}

std::vector<uint32_t> mpiShare(const MpiWorld &W,
                               const std::vector<uint32_t> &Ordered) {
  std::vector<uint32_t> Mine;
  for (size_t I = static_cast<size_t>(W.Rank); I < Ordered.size();
       I += static_cast<size_t>(W.Size))
    Mine.push_back(Ordered[I]);
  return Mine;
}

#ifdef DFTRACER_ANALYZE_MPI

bool mpiAvailable() { return true; }

MpiWorld mpiStart(int &Argc, char **&Argv, std::string &Error) {
  MpiWorld W;
  if (!launchedByMpi())
    return W;
  if (MPI_Init(&Argc, &Argv) != MPI_SUCCESS) {
    Error = "MPI_Init failed";
    return W;
  }
  W.Active = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &W.Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &W.Size);
  MPI_Comm Node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, W.Rank,
                      MPI_INFO_NULL, &Node);
  MPI_Comm_size(Node, &W.LocalSize);
  MPI_Comm_free(&Node);
  return W;
}

void mpiStop(const MpiWorld &W) {
  if (W.Active)
    MPI_Finalize();
}

void mpiGather(const MpiWorld &W, Aggregate &A) {
  if (!W.Active || W.Size == 1)
    return;
  Writer Out;
  if (W.Rank != 0)
    visit(Out, A);
  // Byte counts first (an aggregate can exceed 2 GiB only in theory: the
  // count is checked), then the bytes.
  if (Out.Bytes.size() > static_cast<size_t>(INT32_MAX))
    throw std::runtime_error("aggregate too large for MPI_Gatherv");
  int Mine = static_cast<int>(Out.Bytes.size());
  std::vector<int> Sizes(W.Rank == 0 ? W.Size : 0);
  MPI_Gather(&Mine, 1, MPI_INT, Sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::vector<int> Offsets;
  std::string All;
  if (W.Rank == 0) {
    Offsets.resize(W.Size);
    size_t Total = 0;
    for (int R = 0; R < W.Size; ++R) {
      Offsets[R] = static_cast<int>(Total);
      Total += static_cast<size_t>(Sizes[R]);
    }
    if (Total > static_cast<size_t>(INT32_MAX))
      throw std::runtime_error("aggregates too large for MPI_Gatherv");
    All.resize(Total);
  }
  MPI_Gatherv(Out.Bytes.data(), Mine, MPI_BYTE, All.data(), Sizes.data(),
              Offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
  if (W.Rank != 0)
    return;
  for (int R = 1; R < W.Size; ++R) {
    Reader In(All.data() + Offsets[R], static_cast<size_t>(Sizes[R]));
    Aggregate Part;
    visit(In, Part);
    A.merge(std::move(Part));
  }
}

void mpiBroadcastBytes(const MpiWorld &W, std::string &Bytes) {
  if (!W.Active)
    return;
  unsigned long long Size = Bytes.size();
  MPI_Bcast(&Size, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  Bytes.resize(Size);
  if (Size > static_cast<unsigned long long>(INT32_MAX))
    throw std::runtime_error("chrome-trace plan too large for MPI_Bcast");
  MPI_Bcast(Bytes.data(), static_cast<int>(Size), MPI_BYTE, 0, MPI_COMM_WORLD);
}

int mpiBroadcast(const MpiWorld &W, int Code) {
  if (W.Active)
    MPI_Bcast(&Code, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return Code;
}

bool mpiAll(const MpiWorld &W, bool Mine) {
  int All = Mine ? 1 : 0;
  if (W.Active)
    MPI_Allreduce(MPI_IN_PLACE, &All, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return All != 0;
}

#else

bool mpiAvailable() { return false; }
MpiWorld mpiStart(int &, char **&, std::string &) { return {}; }
void mpiStop(const MpiWorld &) {}
void mpiGather(const MpiWorld &, Aggregate &) {}
void mpiBroadcastBytes(const MpiWorld &, std::string &) {}
int mpiBroadcast(const MpiWorld &, int Code) { return Code; }
bool mpiAll(const MpiWorld &, bool Mine) { return Mine; }

#endif

} // namespace dftanalyze
