//===- Builder.cpp - Random call trees with known I/O -----------------------===//

#include "Builder.h"

#include <cstdarg>
#include <cstdio>
#include <iterator>

namespace tracegen {

namespace {

const uint64_t Sizes[] = {0,       50,        100,       101,      1000,
                          1024,    1025,      4096,      10240,    10241,
                          65536,   102400,    102401,    1048576,  1048577,
                          4194304, 4194305,   10485760,  10485761, 104857600,
                          104857601, 1073741824, 1073741825, 3221225472ull};

} // namespace

uint64_t Builder::size() { return Sizes[R.below(std::size(Sizes))]; }

Node *Builder::call(Node *Parent, const char *Name, int Layer, Kind K,
                    const char *OpName, uint64_t Bytes, uint64_t FHash,
                    const char *Fmt, ...) {
  Node *N = add(Parent, Name, Layer);
  N->K = K, N->OpName = OpName, N->Bytes = Bytes, N->FHash = FHash;
  char Text[200];
  va_list Ap;
  va_start(Ap, Fmt);
  std::vsnprintf(Text, sizeof Text, Fmt, Ap);
  va_end(Ap);
  std::string A = Text;
  if (Real)
    A = realArgs(Name, std::move(A), Bytes);
  N->Args = FHash ? "\"fhash\":" + std::to_string(FHash) + "," + A : A;
  return N;
}

std::string Builder::realArgs(const std::string &Name, std::string A,
                              uint64_t Bytes) {
  const std::string Zero = "\"offset\":0,";
  if (size_t At = A.find(Zero); At != std::string::npos) {
    A.replace(At, Zero.size(), "\"offset\":" + std::to_string(Offset) + ",");
    Offset += Bytes;
    return A;
  }
  if (A != "\"ret\":0")
    return A;
  if (Name == "open64" || Name == "openat" || Name == "fopen64")
    return "\"flags\":577,\"mode\":420,\"ret\":5";
  if (Name == "close" || Name == "fsync" || Name == "fclose" ||
      Name == "fflush")
    return "\"fd\":5,\"ret\":0";
  if (Name == "lseek64" || Name == "fseek")
    return "\"fd\":5,\"offset\":" + std::to_string(Offset) +
           ",\"whence\":0,\"ret\":" + std::to_string(Offset);
  if (Name == "mkdir")
    return "\"mode\":493,\"ret\":0";
  return A;
}

void Builder::io(Node *Parent, int Which) {
  T += static_cast<int64_t>(R.below(2));
  using U = unsigned long long;
  U S = size();
  Node *N;
  switch (Which) {
  case 0: // pwrite64
    N = call(Parent, "pwrite64", 1, Write, "write", S, fhash(),
             "\"fd\":5,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, S);
    break;
  case 1: { // __pread64_chk, sometimes short
    U Got = R.below(4) == 0 ? S / 2 : S;
    N = call(Parent, "__pread64_chk", 1, Read, "read", Got, fhash(),
             "\"fd\":5,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, Got);
    break;
  }
  case 2: { // metadata
    static const char *Names[] = {"open64", "close",  "lseek64", "__xstat64",
                                  "fsync",  "unlink", "mkdir",   "openat"};
    static const char *Ops[] = {"open", "close",     "seek",      "stat",
                                "sync", "namespace", "namespace", "open"};
    int I = static_cast<int>(R.below(8));
    N = call(Parent, Names[I], 1, Meta, Ops[I], 0, fhash(), "\"ret\":0");
    break;
  }
  case 3: // a failed read
    N = call(Parent, "read", 1, Read, "read", 0, fhash(),
             "\"fd\":9,\"count\":%llu,\"ret\":-1", S);
    N->Failed = true;
    break;
  case 4: { // fwrite / fread_unlocked: size x items
    bool W = R.below(2);
    U Items = S / 8;
    N = call(Parent, W ? "fwrite" : "fread_unlocked", 2, W ? Write : Read,
             W ? "write" : "read", Items * 8, fhash(),
             "\"fd\":6,\"size\":8,\"count\":%llu,\"ret\":%llu", Items, Items);
    break;
  }
  case 5: { // stdio metadata
    static const char *Names[] = {"fopen64", "fclose", "fseek", "fflush"};
    static const char *Ops[] = {"open", "close", "seek", "sync"};
    int I = static_cast<int>(R.below(4));
    N = call(Parent, Names[I], 2, Meta, Ops[I], 0, fhash(), "\"ret\":0");
    break;
  }
  case 6: { // MPI-IO collective write holding two pwrite64
    N = call(Parent, "MPI_File_write_at_all", 3, Write, "write", S, fhash(),
             "\"count\":%llu,\"bytes\":%llu,\"offset\":0,\"ret\":0", S, S);
    for (U Part : {S / 2, S - S / 2}) {
      T += 1;
      Node *C = call(N, "pwrite64", 1, Write, "write", Part, N->FHash,
                     "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":%llu",
                     Part, Part);
      T += 1 + static_cast<int64_t>(R.below(4));
      close(C);
    }
    close(N, 1);
    return;
  }
  case 7: { // HDF5 write -> MPI-IO -> POSIX
    N = call(Parent, "H5Dwrite", 4, Write, "write", S, fhash(),
             "\"bytes\":%llu,\"ret\":0", S);
    T += 1;
    Node *M = call(N, "MPI_File_write_at", 3, Write, "write", S, N->FHash,
                   "\"count\":%llu,\"bytes\":%llu,\"ret\":0", S, S);
    T += 1;
    Node *P = call(M, "pwrite64", 1, Write, "write", S, N->FHash,
                   "\"fd\":8,\"count\":%llu,\"ret\":%llu", S, S);
    T += 2;
    close(P);
    close(M, 1);
    close(N, 1);
    return;
  }
  case 8: { // HDF5 metadata and a name the taxonomy does not know
    bool Odd = R.below(3) == 0;
    N = call(Parent, Odd ? "weird_io_call" : "H5Dcreate2", Odd ? 1 : 4,
             Odd ? Unknown : Meta, Odd ? "unknown" : "open", 0, 0,
             "\"ret\":3");
    break;
  }
  case 10: { // MPI-IO non-blocking write posted as a POSIX aio request,
             // its result collected later in the calling function
    N = call(Parent, "MPI_File_iwrite_at", 3, Write, "write", S, fhash(),
             "\"count\":%llu,\"bytes\":%llu,\"offset\":0,\"ret\":0", S, S);
    T += 1;
    Node *Req = call(N, "aio_write64", 1, Write, "write", S, N->FHash,
                     "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":0", S);
    T += 1;
    close(Req);
    close(N, 1);
    // The completion moves no bytes of its own, whatever its ret says
    // (sometimes short, as a read past the end of file would be).
    T += 1 + static_cast<int64_t>(R.below(5));
    U Moved = R.below(4) == 0 ? S / 2 : S;
    Node *Done =
        call(Parent, "aio_return64", 1, Other, "other", 0, N->FHash,
             "\"fd\":7,\"count\":%llu,\"offset\":0,\"ret\":%llu", S, Moved);
    T += 1;
    close(Done);
    return;
  }
  default: { // MPI-IO read holding one pread64
    N = call(Parent, "MPI_File_read_at", 3, Read, "read", S, fhash(),
             "\"count\":%llu,\"bytes\":%llu,\"ret\":0", S, S);
    T += 1;
    Node *C = call(N, "pread64", 1, Read, "read", S, N->FHash,
                   "\"fd\":7,\"count\":%llu,\"ret\":%llu", S, S);
    T += 2;
    close(C);
    close(N, 1);
    return;
  }
  }
  T += 1 + static_cast<int64_t>(R.below(20));
  close(N);
}

void Builder::block(Node *Parent, const char *Name, int Calls, int Which) {
  Node *B = add(Parent, Name, 0);
  for (int I = 0; I < Calls; ++I)
    io(B, Which < 0 ? static_cast<int>(R.below(10)) : Which);
  T += 1;
  close(B);
}

void Builder::recurse(Node *Parent, int Depth) {
  Node *N = add(Parent, "recurse", 0);
  io(N, 0);
  if (Depth > 0)
    recurse(N, Depth - 1);
  close(N);
}

void Builder::phase(Node *Main) {
  switch (R.below(6)) {
  case 0: {
    Node *P = add(Main, "write_phase", 0);
    io(P, 2); // open, directly in the phase
    for (int I = 0; I < 3; ++I)
      block(P, "write_block", 2, R.below(2) ? 0 : 6);
    io(P, 7);
    io(P, 10);
    close(P);
    break;
  }
  case 1: {
    Node *P = add(Main, "read_phase", 0);
    for (int I = 0; I < 3; ++I)
      block(P, "read_block", 2, R.below(2) ? 1 : 9);
    io(P, 3);
    close(P);
    break;
  }
  case 2: {
    Node *P = add(Main, "meta_phase", 0);
    block(P, "stat_files", 4, 2);
    block(P, "stdio_log", 3, R.below(2) ? 4 : 5);
    Node *Region = add(P, "inner_region", 0);
    io(Region, 8);
    close(Region);
    close(P);
    break;
  }
  case 3:
    recurse(Main, static_cast<int>(R.below(4)));
    break;
  case 4: { // a function with no I/O at all
    Node *P = add(Main, "compute", 0);
    T += 5;
    close(P);
    break;
  }
  default:
    block(Main, "mixed", 3, -1);
    break;
  }
  for (int I = 0; I < Compute; ++I) {
    Node *P = add(Main, "compute", 0);
    T += 2;
    close(P);
  }
}

} // namespace tracegen
