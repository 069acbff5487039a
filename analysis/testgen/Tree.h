//===- Tree.h - The generated call tree -*- C++ -*-===//
//
// One process of a generated trace set: per thread, a tree of annotated
// functions and the I/O calls they make, as the runtime would record them
// (MPI-IO and HDF5 calls hold the calls they make).
//
//   main                         Node{Layer 0 (APP)}
//     write_phase
//       pwrite64                 Node{Layer 1 (POSIX), K Write, Bytes 4096}
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_TRACEGEN_TREE_H
#define DFTRACER_TRACEGEN_TREE_H

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace tracegen {

enum Kind { Read, Write, Meta, Other, Unknown };
inline const char *const LayerNames[] = {"APP", "POSIX", "STDIO", "MPIIO", "HDF5", "OTHER"};
inline const char *const Cats[] = {"C_APP", "POSIX", "STDIO", "MPIIO", "HDF5", "GPU"};

struct Node {
  std::string Name;
  int Layer = 0; // index into LayerNames
  Kind K = Other;
  const char *OpName = ""; // the analyzer's operation name, for I/O
  int64_t Ts = 0, Dur = 0;
  uint64_t Id = 0;
  int Level = 1;
  uint64_t FHash = 0;
  uint64_t Bytes = 0;   // bytes moved (data calls that succeed)
  bool Failed = false;
  std::string Args;     // I/O args after level/p_idx
  std::vector<std::unique_ptr<Node>> Children;
  Node *Parent = nullptr;
  bool Written = true;
  bool BadDur = false; // written with a negative dur: not usable
};

struct Process {
  std::map<uint64_t, std::string> PathOf; // fhash -> path, as reported
  int64_t Pid = 0;
  int Rank = 0;
  std::vector<std::unique_ptr<Node>> Roots; // per thread: a root "main"
  std::vector<int64_t> Tids;
  std::vector<std::vector<Node *>> Order;   // per thread: post-order
};

/// Numbers N and its subtree in order of start (ids from Next), with levels.
void number(Node *N, uint64_t &Next, int Level);
/// N's subtree in the order the runtime writes it: children first.
void postOrder(Node *N, std::vector<Node *> &Out);

} // namespace tracegen

#endif
