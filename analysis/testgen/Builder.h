//===- Builder.h - Random call trees with known I/O -*- C++ -*-===//
//
// Grows the tree of one thread (Tree.h) from a seeded xorshift generator:
// phases of annotated functions issuing POSIX, STDIO, MPI-IO and HDF5 calls
// of Darshan's size bins' edges, each call holding what the runtime nests in
// it, on a clock that only moves forward.
//
// \code
//   Builder B;
//   B.R.S = Seed;
//   while (B.Made < Spans)
//     B.phase(Root);
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TRACEGEN_BUILDER_H
#define DFTRACER_TRACEGEN_BUILDER_H

#include "Tree.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tracegen {

struct Rng {
  uint64_t S;
  uint64_t next() {
    S ^= S << 13;
    S ^= S >> 7;
    S ^= S << 17;
    return S;
  }
  uint64_t below(uint64_t N) { return next() % N; }
};

struct Builder {
  Rng R;
  int64_t T = 0;
  size_t Made = 0;
  uint64_t NoFhPath = 999; // an fhash with no FH line
  int Compute = 0;         // extra I/O-free spans after each phase
  /// --real-shape: the args the runtime writes for each call (fd, flags,
  /// mode, whence, offsets that move), not the few the totals need. Text
  /// only: the tree and its totals are the same.
  bool Real = false;
  uint64_t Offset = 0; // the next data call's offset (Real)
  std::vector<std::pair<uint64_t, std::string>> Paths;

  uint64_t fhash() {
    uint64_t I = R.below(Paths.size() + 1);
    return I == Paths.size() ? NoFhPath : Paths[I].first;
  }
  Node *add(Node *Parent, std::string Name, int Layer) {
    auto N = std::make_unique<Node>();
    N->Name = std::move(Name);
    N->Layer = Layer;
    N->Parent = Parent;
    N->Ts = T;
    ++Made;
    Parent->Children.push_back(std::move(N));
    return Parent->Children.back().get();
  }
  void close(Node *N, int64_t Min = 0) {
    T += static_cast<int64_t>(R.below(3));
    N->Dur = std::max(T - N->Ts, Min);
    T = N->Ts + N->Dur;
  }
  /// A transfer size: one of the edges of Darshan's bins.
  uint64_t size();

  /// An I/O call under Parent that does K (the analyzer's OpName) and
  /// moves Bytes: its args are `fhash` (when FHash is not 0), then Fmt.
  Node *call(Node *Parent, const char *Name, int Layer, Kind K,
             const char *OpName, uint64_t Bytes, uint64_t FHash,
             const char *Fmt, ...);

  /// Real's args for a call whose generated args are A.
  std::string realArgs(const std::string &Name, std::string A, uint64_t Bytes);

  /// An I/O call of the given layer, with what it holds.
  void io(Node *Parent, int Which);

  /// An annotated block under Parent making Calls calls of kind Which
  /// (io()'s case; negative: any).
  void block(Node *Parent, const char *Name, int Calls, int Which);

  /// "recurse" calling itself Depth times, each with a write.
  void recurse(Node *Parent, int Depth);

  /// One phase of main: a write, read, metadata, recursive, compute or
  /// mixed phase, chosen at random, then Compute spans without I/O.
  void phase(Node *Main);
};

} // namespace tracegen

#endif
