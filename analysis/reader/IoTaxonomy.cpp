//===- IoTaxonomy.cpp - Layers, operations and bytes of I/O events --------===//

#include "IoTaxonomy.h"

#include <cstring>

#include <algorithm>
#include <array>
#include <string>

namespace dftrace {

const char *layerName(Layer L) {
  static const char *Names[NumLayers] = {"APP",   "POSIX", "STDIO",
                                         "MPIIO", "HDF5",  "OTHER"};
  return Names[static_cast<size_t>(L)];
}

const char *opName(Op O) {
  static const char *Names[NumOps] = {
      "read", "write",     "open",    "close", "stat",   "seek",
      "sync", "namespace", "control", "other", "unknown"};
  return Names[static_cast<size_t>(O)];
}

namespace {

bool consumePrefix(std::string_view &S, std::string_view P) {
  if (S.size() <= P.size() || S.compare(0, P.size(), P) != 0)
    return false;
  S.remove_prefix(P.size());
  return true;
}

bool consumeSuffix(std::string_view &S, std::string_view P) {
  if (S.size() <= P.size() ||
      S.compare(S.size() - P.size(), P.size(), P) != 0)
    return false;
  S.remove_suffix(P.size());
  return true;
}

/// open64 -> open, __open_2 -> open, __pread64_chk -> pread,
/// fread_unlocked -> fread, __fxstat64 -> fxstat.
std::string_view baseName(std::string_view Name) {
  consumePrefix(Name, "__");
  consumeSuffix(Name, "_chk");
  consumeSuffix(Name, "_2");
  consumeSuffix(Name, "_unlocked");
  consumeSuffix(Name, "64");
  return Name;
}

/// aio_read, aio_write and their 64 forms: the request, whose bytes are
/// those it asked for.
bool isAioRequest(std::string_view Name) {
  return baseName(Name).compare(0, 4, "aio_") == 0;
}

struct Entry {
  std::string_view Name;
  Op O;
};

// Base names (see baseName) per layer. Sorted at first use.
constexpr Entry PosixTable[] = {
    {"read", Op::Read},         {"pread", Op::Read},
    {"readv", Op::Read},        {"preadv", Op::Read},
    {"preadv2", Op::Read},      {"preadv64v2", Op::Read},
    {"write", Op::Write},       {"pwritev64v2", Op::Write},
    {"pwrite", Op::Write},      {"writev", Op::Write},
    {"pwritev", Op::Write},     {"pwritev2", Op::Write},
    {"open", Op::Open},         {"openat", Op::Open},
    {"mkstemp", Op::Open},      {"mkostemp", Op::Open},
    {"mkstemps", Op::Open},     {"mkostemps", Op::Open},
    {"shm_open", Op::Open},     {"memfd_create", Op::Open},
    {"flock", Op::Control},     {"sync_file_range", Op::Sync},
    {"creat", Op::Open},        {"close", Op::Close},
    {"close_range", Op::Close}, {"closefrom", Op::Close},
    {"stat", Op::Stat},         {"lstat", Op::Stat},
    {"fstat", Op::Stat},        {"fstatat", Op::Stat},
    {"newfstatat", Op::Stat},   {"statx", Op::Stat},
    {"xstat", Op::Stat},        {"lxstat", Op::Stat},
    {"fxstat", Op::Stat},       {"fxstatat", Op::Stat},
    {"access", Op::Stat},       {"faccessat", Op::Stat},
    {"statfs", Op::Stat},       {"fstatfs", Op::Stat},
    {"lseek", Op::Seek},        {"fsync", Op::Sync},
    {"fdatasync", Op::Sync},    {"msync", Op::Sync},
    {"sync", Op::Sync},         {"syncfs", Op::Sync},
    {"mkdir", Op::Namespace},   {"mkdirat", Op::Namespace},
    {"rmdir", Op::Namespace},   {"unlink", Op::Namespace},
    {"unlinkat", Op::Namespace}, {"rename", Op::Namespace},
    {"renameat", Op::Namespace}, {"renameat2", Op::Namespace},
    {"link", Op::Namespace},    {"linkat", Op::Namespace},
    {"symlink", Op::Namespace}, {"symlinkat", Op::Namespace},
    {"readlink", Op::Namespace}, {"readlinkat", Op::Namespace},
    {"remove", Op::Namespace},  {"opendir", Op::Namespace},
    {"fdopendir", Op::Namespace}, {"closedir", Op::Namespace},
    {"readdir", Op::Namespace}, {"chdir", Op::Namespace},
    {"fchdir", Op::Namespace},  {"chmod", Op::Namespace},
    {"fchmod", Op::Namespace},  {"chown", Op::Namespace},
    {"fchown", Op::Namespace},  {"utime", Op::Namespace},
    {"utimes", Op::Namespace},  {"ftruncate", Op::Control},
    {"truncate", Op::Control},  {"fcntl", Op::Control},
    {"dup", Op::Control},       {"dup2", Op::Control},
    {"dup3", Op::Control},      {"fallocate", Op::Control},
    {"posix_fallocate", Op::Control}, {"posix_fadvise", Op::Control},
    {"mmap", Op::Other},        {"munmap", Op::Other},
    // POSIX aio: the request moves the data (its bytes are the `count`
    // asked for, see classifyIo); aio_return collects a finished request's
    // result, whose bytes the request already counted.
    {"aio_read", Op::Read},     {"aio_write", Op::Write},
    {"aio_return", Op::Other},
    // Process lifecycle calls the runtime intercepts to finish its trace.
    {"vfork", Op::Other},       {"execve", Op::Other},
    {"execv", Op::Other},       {"execvp", Op::Other},
    {"execvpe", Op::Other},     {"fexecve", Op::Other},
    {"execl", Op::Other},       {"execlp", Op::Other},
    {"execle", Op::Other},      {"_exit", Op::Other},
    {"_Exit", Op::Other},
};

constexpr Entry StdioTable[] = {
    {"fread", Op::Read},    {"fwrite", Op::Write},  {"fopen", Op::Open},
    {"fdopen", Op::Open},   {"freopen", Op::Open},  {"fclose", Op::Close},
    {"tmpfile", Op::Open},  {"fprintf", Op::Write}, {"vfprintf", Op::Write},
    {"fputs", Op::Write},
    {"fseek", Op::Seek},    {"fseeko", Op::Seek},   {"ftell", Op::Seek},
    {"ftello", Op::Seek},   {"rewind", Op::Seek},   {"fgetpos", Op::Seek},
    {"fsetpos", Op::Seek},  {"fflush", Op::Sync},
};

// MPI-IO names after "MPI_File_"; reads and writes are matched by prefix.
constexpr Entry MpiIoTable[] = {
    {"open", Op::Open},           {"close", Op::Close},
    {"delete", Op::Namespace},    {"seek", Op::Seek},
    {"seek_shared", Op::Seek},    {"get_position", Op::Seek},
    {"get_position_shared", Op::Seek}, {"get_byte_offset", Op::Seek},
    {"sync", Op::Sync},           {"set_view", Op::Control},
    {"get_view", Op::Control},    {"set_size", Op::Control},
    {"get_size", Op::Stat},       {"preallocate", Op::Control},
    {"set_info", Op::Control},    {"get_info", Op::Control},
    {"set_atomicity", Op::Control}, {"get_atomicity", Op::Control},
    {"get_amode", Op::Stat},      {"get_group", Op::Stat},
};

constexpr Entry Hdf5Table[] = {
    {"H5Fcreate", Op::Open},      {"H5Fopen", Op::Open},
    {"H5Freopen", Op::Open},      {"H5Fclose", Op::Close},
    {"H5Fflush", Op::Sync},       {"H5Dcreate", Op::Open},
    {"H5Dcreate1", Op::Open},     {"H5Dcreate2", Op::Open},
    {"H5Dcreate_anon", Op::Open}, {"H5Dopen", Op::Open},
    {"H5Dopen1", Op::Open},       {"H5Dopen2", Op::Open},
    {"H5Dclose", Op::Close},      {"H5Dread", Op::Read},
    {"H5Dwrite", Op::Write},      {"H5Dset_extent", Op::Control},
    {"H5Dextend", Op::Control},   {"H5Gcreate", Op::Open},
    {"H5Gcreate1", Op::Open},     {"H5Gcreate2", Op::Open},
    {"H5Gopen", Op::Open},        {"H5Gopen1", Op::Open},
    {"H5Gopen2", Op::Open},       {"H5Gclose", Op::Close},
    {"H5Acreate", Op::Open},      {"H5Acreate1", Op::Open},
    {"H5Acreate2", Op::Open},     {"H5Acreate_by_name", Op::Open},
    {"H5Aopen", Op::Open},        {"H5Aopen_name", Op::Open},
    {"H5Aopen_by_name", Op::Open}, {"H5Aopen_idx", Op::Open},
    {"H5Aclose", Op::Close},      {"H5Aread", Op::Read},
    {"H5Awrite", Op::Write},      {"H5Oopen", Op::Open},
    {"H5Oopen_by_idx", Op::Open}, {"H5Oclose", Op::Close},
    {"H5Oget_info", Op::Stat},    {"H5Oget_info1", Op::Stat},
    {"H5Oget_info2", Op::Stat},   {"H5Oget_info3", Op::Stat},
    {"H5Fget_info", Op::Stat},    {"H5Fget_info1", Op::Stat},
    {"H5Fget_info2", Op::Stat},   {"H5Fget_filesize", Op::Stat},
    {"H5Lexists", Op::Stat},      {"H5Ldelete", Op::Namespace},
    {"H5Lcreate_hard", Op::Namespace}, {"H5Lcreate_soft", Op::Namespace},
    {"H5Lmove", Op::Namespace},   {"H5Literate", Op::Namespace},
    {"H5Literate1", Op::Namespace}, {"H5Literate2", Op::Namespace},
};

template <size_t N> struct SortedTable {
  std::array<Entry, N> E;
  explicit SortedTable(const Entry (&In)[N]) {
    std::copy(In, In + N, E.begin());
    std::sort(E.begin(), E.end(), [](const Entry &A, const Entry &B) {
      return A.Name < B.Name;
    });
  }
  Op find(std::string_view Name) const {
    auto It = std::lower_bound(
        E.begin(), E.end(), Name,
        [](const Entry &A, std::string_view K) { return A.Name < K; });
    return It != E.end() && It->Name == Name ? It->O : Op::Unknown;
  }
};

Op mpiIoOp(std::string_view Name) {
  consumePrefix(Name, "P"); // PMPI_File_* as well
  if (!consumePrefix(Name, "MPI_File_"))
    return Op::Unknown;
  std::string_view Rest = Name;
  consumePrefix(Rest, "i"); // non-blocking forms
  if (Rest.compare(0, 4, "read") == 0)
    return Op::Read;
  if (Rest.compare(0, 5, "write") == 0)
    return Op::Write;
  static const SortedTable<std::size(MpiIoTable)> Table(MpiIoTable);
  return Table.find(Name);
}

} // namespace

const char *mpiKindName(MpiKind K) {
  static const char *Names[NumMpiKinds] = {
      "independent", "collective",  "nonblocking", "nonblocking_collective",
      "split_begin", "split_end"};
  return K == MpiKind::None ? "none" : Names[static_cast<size_t>(K)];
}

// The one rule of MPI-IO data calls (MPI 4.0, chapter 14.4): "i" before
// read/write is non-blocking, "_all" and "_ordered" are collective, a split
// collective ends in "_begin" or "_end". Anything else that reads or writes
// is independent (read, read_at, read_shared and their write forms).
MpiKind mpiKindOf(std::string_view Name) {
  consumePrefix(Name, "P");
  if (!consumePrefix(Name, "MPI_File_"))
    return MpiKind::None;
  bool NonBlocking = consumePrefix(Name, "i");
  if (Name.compare(0, 4, "read") != 0 && Name.compare(0, 5, "write") != 0)
    return MpiKind::None;
  if (consumeSuffix(Name, "_begin"))
    return MpiKind::SplitBegin;
  if (consumeSuffix(Name, "_end"))
    return MpiKind::SplitEnd;
  bool Collective = consumeSuffix(Name, "_all") || consumeSuffix(Name, "_ordered");
  if (NonBlocking)
    return Collective ? MpiKind::NonBlockingCollective : MpiKind::NonBlocking;
  return Collective ? MpiKind::Collective : MpiKind::Independent;
}

namespace {

Op opOfUncached(Layer L, std::string_view Name) {
  static const SortedTable<std::size(PosixTable)> Posix(PosixTable);
  static const SortedTable<std::size(StdioTable)> Stdio(StdioTable);
  static const SortedTable<std::size(Hdf5Table)> Hdf5(Hdf5Table);
  switch (L) {
  case Layer::Posix:
    return Posix.find(baseName(Name));
  case Layer::Stdio:
    return Stdio.find(baseName(Name));
  case Layer::MpiIo:
    return mpiIoOp(Name);
  case Layer::Hdf5:
    return Hdf5.find(Name);
  default:
    return Op::Unknown;
  }
}

/// opOf's answers for the names last asked, per thread, direct-mapped by a
/// hash of the name: a trace names a few dozen functions millions of times,
/// and the binary search of the name tables was 3-4% of the analyzer's
/// instructions. Zero-initialised (no guard on each access); Len 0: empty.
struct OpCache {
  static constexpr size_t Slots = 256, MaxName = 30;
  struct Slot {
    uint8_t Len;
    uint8_t L;
    Op O;
    char Name[MaxName];
  };
  Slot S[Slots];
};

} // namespace

Op opOf(Layer L, std::string_view Name) {
  if (Name.empty() || Name.size() > OpCache::MaxName)
    return opOfUncached(L, Name);
  uint32_t H = 2166136261u ^ static_cast<uint8_t>(L); // FNV-1a
  for (char C : Name)
    H = (H ^ static_cast<uint8_t>(C)) * 16777619u;
  thread_local OpCache Cache;
  OpCache::Slot &S = Cache.S[(H ^ (H >> 16)) % OpCache::Slots];
  if (S.Len == Name.size() && S.L == static_cast<uint8_t>(L) &&
      std::memcmp(S.Name, Name.data(), Name.size()) == 0)
    return S.O;
  Op O = opOfUncached(L, Name);
  S.Len = static_cast<uint8_t>(Name.size());
  S.L = static_cast<uint8_t>(L);
  S.O = O;
  std::memcpy(S.Name, Name.data(), Name.size());
  return O;
}

CallName callNameOf(Layer L, std::string_view Name) {
  CallName N;
  N.O = opOf(L, Name);
  if (L == Layer::MpiIo && isDataOp(N.O))
    N.Mpi = mpiKindOf(Name);
  N.AioRequest = L == Layer::Posix && isAioRequest(Name);
  return N;
}

IoCall classifyIo(Layer L, const Event &E) {
  return classifyIo(L, callNameOf(L, E.Name.S), E);
}

IoCall classifyIo(Layer L, const CallName &N, const Event &E) {
  IoCall C;
  C.L = L;
  C.O = N.O;
  const Field &Ret = E.Ret;
  switch (L) {
  case Layer::Posix:
    // ret is the result: bytes for data calls, -1 on error; an aio request
    // returns 0 when queued and moves the `count` it asked for.
    C.Failed = Ret.isInteger() && Ret.I < 0;
    if (!isDataOp(C.O) || !Ret.isInteger())
      break;
    if (N.AioRequest) {
      if (Ret.I == 0 && E.Count.isUnsigned())
        C.Bytes = E.Count.U;
    } else if (Ret.I > 0) {
      C.Bytes = Ret.U;
    }
    break;
  case Layer::Stdio:
    // fread/fwrite return items; fopen returns the fd or -1; fclose,
    // fflush, fseek return 0 or -1 (EOF).
    C.Failed = Ret.isInteger() && Ret.I < 0;
    if (isDataOp(C.O) && Ret.isInteger() && Ret.I > 0 && E.Size.isUnsigned())
      C.Bytes = Ret.U * E.Size.U;
    break;
  case Layer::MpiIo:
    // ret is the MPI error code: MPI_SUCCESS is 0.
    C.Failed = Ret.isInteger() && Ret.I != 0;
    C.Mpi = N.Mpi;
    if (isDataOp(C.O) && !C.Failed && E.Bytes.isUnsigned())
      C.Bytes = E.Bytes.U;
    break;
  case Layer::Hdf5:
    // herr_t / hid_t: negative on failure.
    C.Failed = Ret.isInteger() && Ret.I < 0;
    if (isDataOp(C.O) && !C.Failed && E.Bytes.isUnsigned())
      C.Bytes = E.Bytes.U;
    break;
  default:
    break;
  }
  return C;
}

size_t sizeBin(uint64_t Bytes) {
  static const uint64_t Below[NumSizeBins - 1] = {
      101,         1025,          10241,          102401,        1048577,
      4194305ull, 10485761ull, 104857601ull, 1073741825ull};
  size_t Bin = 0;
  while (Bin < NumSizeBins - 1 && Bytes >= Below[Bin])
    ++Bin;
  return Bin;
}

const char *sizeBinName(size_t Bin) {
  static const char *Names[NumSizeBins] = {
      "0-100",   "100-1K", "1K-10K",   "10K-100K", "100K-1M",
      "1M-4M",   "4M-10M", "10M-100M", "100M-1G",  "1G+"};
  return Names[Bin];
}

} // namespace dftrace
