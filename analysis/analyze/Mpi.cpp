//===- Mpi.cpp - Splitting the files across MPI ranks ---------------------===//

#include "Mpi.h"

#include "Analysis.h"

#include <algorithm>
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

std::vector<uint32_t> mpiLargestFirst(const MpiWorld &W,
                                      const std::vector<std::string> &Files,
                                      unsigned Jobs) {
  std::vector<uint32_t> All(Files.size()), Mine;
  std::vector<int64_t> Sizes(Files.size());
  for (uint32_t I = 0; I < All.size(); ++I) {
    All[I] = I;
    if (!W.Active || I % static_cast<uint32_t>(W.Size) ==
                         static_cast<uint32_t>(W.Rank))
      Mine.push_back(I);
  }
  // On Jobs threads: a stat is a path walk and a system call, ~3.5 us
  // here, a third of a second before the first event at 100,000 files.
  forEachFile(Mine, Jobs,
              [&](uint32_t I, unsigned) { Sizes[I] = fileSize(Files[I]); });
#ifdef DFTRACER_ANALYZE_MPI
  // Each size is one rank's, the others' 0: the sum is every size. In
  // pieces below INT_MAX elements.
  constexpr size_t Piece = 1 << 28;
  for (size_t At = 0; W.Active && At < Sizes.size(); At += Piece)
    MPI_Allreduce(MPI_IN_PLACE, Sizes.data() + At,
                  static_cast<int>(std::min(Piece, Sizes.size() - At)),
                  MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
#endif
  return largestFirst(Sizes, std::move(All));
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

namespace {

// MPI counts are ints: an aggregate goes in pieces of at most this many
// bytes (an aggregate past 2 GiB is not expected, but is not refused).
constexpr size_t MaxPiece = size_t(1) << 30;

void sendBytes(const std::string &Bytes, int To) {
  unsigned long long Size = Bytes.size();
  MPI_Send(&Size, 1, MPI_UNSIGNED_LONG_LONG, To, 0, MPI_COMM_WORLD);
  for (size_t At = 0; At < Bytes.size(); At += MaxPiece)
    MPI_Send(Bytes.data() + At,
             static_cast<int>(std::min(MaxPiece, Bytes.size() - At)),
             MPI_BYTE, To, 1, MPI_COMM_WORLD);
}

std::string receiveBytes(int From) {
  unsigned long long Size = 0;
  MPI_Recv(&Size, 1, MPI_UNSIGNED_LONG_LONG, From, 0, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  std::string Bytes(static_cast<size_t>(Size), '\0');
  for (size_t At = 0; At < Bytes.size(); At += MaxPiece)
    MPI_Recv(Bytes.data() + At,
             static_cast<int>(std::min(MaxPiece, Bytes.size() - At)),
             MPI_BYTE, From, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return Bytes;
}

} // namespace

// A binomial tree: in round k (Step = 2^k) a rank whose bit k is set sends
// its aggregate (its own files' and what it received in earlier rounds) to
// Rank - Step and is done; the others receive from Rank + Step, if there
// is one, and merge. Rank 0 ends with all of them after ceil(log2 Size)
// rounds, holding one partial aggregate in flight at a time, and the
// merges of a round run on different ranks at once. Merging is
// order-independent (Aggregate.h), so the report does not depend on the
// shape of the tree.
void mpiGather(const MpiWorld &W, Aggregate &A) {
  if (!W.Active || W.Size == 1)
    return;
  for (int Step = 1; Step < W.Size; Step <<= 1) {
    if (W.Rank & Step) {
      Writer Out;
      visit(Out, A);
      sendBytes(Out.Bytes, W.Rank - Step);
      return;
    }
    if (W.Rank + Step < W.Size) {
      std::string Bytes = receiveBytes(W.Rank + Step);
      Reader In(Bytes.data(), Bytes.size());
      Aggregate Part;
      visit(In, Part);
      std::string().swap(Bytes);
      A.merge(std::move(Part));
    }
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
