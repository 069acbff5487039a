//===- IoExpect.cpp - Test-only checker of the I/O events in traces -------===//
//
// dft-io-expect [--expect SPEC] [--strace LOG [--strace-only PREFIX]] TRACE...
//
// Always checks the I/O contract of docs/trace-format.md on every file:
// each `fhash` has an FH line earlier in the same file, each path has one
// FH line per file, hashes are below 2^53, I/O events carry `level` and
// `p_idx`, and no FH names /proc, /sys, /dev (but /dev/shm) or a trace
// file; each `fhash` also has one FS record (fs_type, mount, block_size)
// after its FH line and before its first event.
//
// --expect SPEC: one expectation per line, `#` comments:
//   NAME CAT COUNT [parent=NAME] [file=TEXT] [nofile] [no=KEY] [KEY=VALUE]...
// exactly COUNT (or, written >=COUNT, at least COUNT) events named NAME
// (`a|b`: either, `*`: any) in category CAT (`*`: any) whose enclosing span
// is named parent (`a|b` too), whose file's path contains TEXT
// (nofile: events without fhash), whose args have no KEY (no=KEY), and
// whose args have KEY=VALUE.
//
// --strace LOG (repeatable: `strace -ff` writes a log per process), with
// --strace-only PREFIX: per file under PREFIX, the successful opens and the
// calls on its descriptor that strace_calls.txt compares (close, the read
// and write families, lseek, the syncs, ftruncate, fallocate, fadvise64,
// sync_file_range, flock, fcntl, dup), and the bytes read and
// written, from `strace -y` logs, must equal the trace's events on the
// same files. An aio request that was queued stands for the pread64/
// pwrite64 glibc's helper thread makes for it, with the bytes it asked for
// (docs/trace-format.md). A file used through a stream is compared on its
// opens, closes and bytes (its STDIO events' `size` x `ret` and its POSIX
// events'): libc's buffer decides how many reads, writes and seeks it
// makes, which are printed, not compared. A comparison that compared no
// file fails, and so does --strace-only without a log.
//
// --strace-account BUCKET (repeatable): the bytes strace saw read and
// written on the descriptors of a kind (`socket`, `pipe`, `memfd`,
// `anon`, `tty`: the names strace -y gives them) or on the files under
// an absolute directory that the trace does not trace must equal that
// kind's or directory's entry of the `untraced` records (summed over the
// files).
//
// Exit 0 when everything holds, 1 with one line per difference otherwise.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

using nlohmann::json;

struct Event {
  std::string Name, Cat, File;
  size_t Trace = 0; // which file: ids are unique per file only
  int64_t Pid = 0;
  uint64_t Id = 0, Parent = 0;
  json Args;
};

struct UntracedCounts {
  long Opens = 0, Reads = 0, Writes = 0, BytesRead = 0, BytesWritten = 0;
};

struct Traces {
  std::vector<Event> Events;
  std::map<std::string, UntracedCounts> Untraced; // dir or kind -> sums
  std::set<std::string> Named;              // every FH path
  std::map<std::tuple<size_t, int64_t, uint64_t>, std::string> SpanNames;
  size_t Files = 0;
  std::vector<std::string> Errors;
};

bool readLines(const std::string &Path, std::vector<std::string> &Lines) {
  gzFile F = gzopen(Path.c_str(), "rb");
  if (!F)
    return false;
  std::string Text;
  char Buf[1 << 16];
  int N;
  while ((N = gzread(F, Buf, sizeof(Buf))) > 0)
    Text.append(Buf, (size_t)N);
  gzclose(F);
  std::istringstream In(Text);
  std::string Line;
  while (std::getline(In, Line))
    Lines.push_back(Line);
  return true;
}

bool isIoCat(const std::string &Cat) {
  return Cat == "POSIX" || Cat == "STDIO" || Cat == "MPIIO" || Cat == "HDF5";
}

bool excludedPath(const std::string &P) {
  auto Under = [&](const char *Dir) {
    return P.rfind(Dir, 0) == 0 &&
           (P.size() == strlen(Dir) || P[strlen(Dir)] == '/');
  };
  // /dev/shm is a tmpfs of regular files, traced like any directory.
  for (const char *Dir : {"/proc", "/sys", "/dev"})
    if (Under(Dir) && !Under("/dev/shm"))
      return true;
  auto Ends = [&](const std::string &S) {
    return P.size() >= S.size() && P.compare(P.size() - S.size(), S.size(), S) == 0;
  };
  return Ends(".pfw") || Ends(".pfw.gz");
}

void readTrace(const std::string &Path, Traces &T) {
  std::vector<std::string> Lines;
  if (!readLines(Path, Lines)) {
    T.Errors.push_back(Path + ": cannot open");
    return;
  }
  std::map<uint64_t, std::string> Names; // fhash -> path, in this file
  std::set<std::string> Named;
  std::set<uint64_t> Described; // fhashes with an FS record, in this file
  for (size_t I = 1; I < Lines.size(); ++I) {
    std::string Where = Path + ":" + std::to_string(I + 1) + ": ";
    if (Lines[I].empty() || Lines[I] == "]")
      continue;
    json J = json::parse(Lines[I], nullptr, false);
    if (J.is_discarded() || !J.is_object()) {
      T.Errors.push_back(Where + "not JSON");
      continue;
    }
    std::string Ph = J.value("ph", "");
    if (Ph == "M" && J.value("name", "") == "FH") {
      const json &A = J["args"];
      if (!A.contains("value") || !A["value"].is_number_unsigned() ||
          !A.contains("name") || !A["name"].is_string()) {
        T.Errors.push_back(Where + "FH needs args.name and an unsigned args.value");
        continue;
      }
      uint64_t H = A["value"].get<uint64_t>();
      std::string Name = A["name"].get<std::string>();
      if (H >= (1ull << 53))
        T.Errors.push_back(Where + "hash not below 2^53");
      if (!Named.insert(Name).second)
        T.Errors.push_back(Where + "second FH line for " + Name);
      if (excludedPath(Name))
        T.Errors.push_back(Where + "FH for a path never traced: " + Name);
      Names[H] = Name;
      T.Named.insert(Name);
      continue;
    }
    if (Ph == "M" && J.value("name", "") == "untraced") {
      const json &A = J["args"];
      if (!A.contains("dirs") || !A["dirs"].is_array()) {
        T.Errors.push_back(Where + "untraced needs args.dirs");
        continue;
      }
      for (const json &D : A["dirs"]) {
        UntracedCounts &U = T.Untraced[D.value("dir", "")];
        U.Opens += D.value("opens", 0L);
        U.Reads += D.value("reads", 0L);
        U.Writes += D.value("writes", 0L);
        U.BytesRead += D.value("bytes_read", 0L);
        U.BytesWritten += D.value("bytes_written", 0L);
      }
      continue;
    }
    if (Ph == "M" && J.value("name", "") == "FS") {
      const json &A = J["args"];
      if (!A.contains("fhash") || !A["fhash"].is_number_unsigned() ||
          !A.contains("fs_type") || !A["fs_type"].is_string() ||
          !A.contains("mount") || !A["mount"].is_string() ||
          !A.contains("block_size") || !A["block_size"].is_number_unsigned()) {
        T.Errors.push_back(Where + "FS needs args.fhash, fs_type, mount, block_size");
        continue;
      }
      uint64_t H = A["fhash"].get<uint64_t>();
      if (!Names.count(H))
        T.Errors.push_back(Where + "FS before the FH line of its fhash");
      if (!Described.insert(H).second)
        T.Errors.push_back(Where + "second FS record for fhash " +
                           std::to_string(H));
      continue;
    }
    if (Ph != "X")
      continue;
    Event E;
    E.Name = J.value("name", "");
    E.Cat = J.value("cat", "");
    E.Trace = T.Files;
    E.Pid = J.value("pid", (int64_t)0);
    E.Id = J.value("id", (uint64_t)0);
    E.Args = J.value("args", json::object());
    E.Parent = E.Args.value("p_idx", (uint64_t)0);
    T.SpanNames[{E.Trace, E.Pid, E.Id}] = E.Name;
    if (!isIoCat(E.Cat))
      continue;
    if (!E.Args.contains("level") || !E.Args.contains("p_idx"))
      T.Errors.push_back(Where + "I/O event without level/p_idx");
    if (E.Args.contains("fhash")) {
      uint64_t H = E.Args["fhash"].get<uint64_t>();
      auto It = Names.find(H);
      if (It == Names.end())
        T.Errors.push_back(Where + "fhash " + std::to_string(H) +
                           " has no FH line before it in this file");
      else
        E.File = It->second;
      if (!Described.count(H))
        T.Errors.push_back(Where + "fhash " + std::to_string(H) +
                           " has no FS record before it in this file");
    }
    T.Events.push_back(std::move(E));
  }
  ++T.Files;
}

std::string parentName(const Traces &T, const Event &E) {
  auto It = T.SpanNames.find({E.Trace, E.Pid, E.Parent});
  return It == T.SpanNames.end() ? "" : It->second;
}

bool argEquals(const json &Args, const std::string &Key, const std::string &V) {
  auto It = Args.find(Key);
  if (It == Args.end())
    return false;
  return It->is_string() ? It->get<std::string>() == V : It->dump() == V;
}

void checkSpec(const std::string &Spec, const Traces &T,
               std::vector<std::string> &Errors) {
  std::ifstream In(Spec);
  if (!In) {
    Errors.push_back(Spec + ": cannot open");
    return;
  }
  std::string Line;
  for (size_t No = 1; std::getline(In, Line); ++No) {
    std::istringstream Words(Line);
    std::string Name, Cat, CountText, Word;
    if (!(Words >> Name) || Name[0] == '#')
      continue;
    if (!(Words >> Cat >> CountText) ||
        CountText.find_first_not_of(">=0123456789") != std::string::npos) {
      Errors.push_back(Spec + ":" + std::to_string(No) + ": NAME CAT COUNT ...");
      continue;
    }
    bool AtLeast = CountText.rfind(">=", 0) == 0;
    long Count = std::stol(CountText.substr(AtLeast ? 2 : 0));
    std::vector<std::pair<std::string, std::string>> Filters;
    while (Words >> Word) {
      size_t Eq = Word.find('=');
      Filters.push_back(Eq == std::string::npos
                            ? std::make_pair(Word, std::string())
                            : std::make_pair(Word.substr(0, Eq), Word.substr(Eq + 1)));
    }
    long Got = 0;
    for (const Event &E : T.Events) {
      if ((Name != "*" && ("|" + Name + "|").find("|" + E.Name + "|") ==
                              std::string::npos) ||
          (Cat != "*" && E.Cat != Cat))
        continue;
      bool Ok = true;
      for (const auto &[K, V] : Filters) {
        if (K == "parent")
          Ok = ("|" + V + "|").find("|" + parentName(T, E) + "|") !=
               std::string::npos;
        else if (K == "file")
          Ok = E.File.find(V) != std::string::npos;
        else if (K == "nofile")
          Ok = E.File.empty();
        else if (K == "no")
          Ok = !E.Args.contains(V);
        else
          Ok = argEquals(E.Args, K, V);
        if (!Ok)
          break;
      }
      Got += Ok;
    }
    if (AtLeast ? Got < Count : Got != Count)
      Errors.push_back(Spec + ":" + std::to_string(No) + ": expected " +
                       std::to_string(Count) + ", found " + std::to_string(Got) +
                       ": " + Line);
  }
}

// --- strace cross-check -------------------------------------------------------

/// The system call a traced POSIX or STDIO name makes ("" when it is not
/// compared): strace_calls.txt's rows without a reason.
std::string syscallOf(const std::string &Name) {
  static const std::map<std::string, std::string> Map = [] {
    std::map<std::string, std::string> M;
    auto Add = [&](std::initializer_list<const char *> Names,
                   const char *Call) {
      for (const char *N : Names)
        M[N] = Call;
    };
    Add({"open", "open64", "__open_2", "__open64_2", "openat", "openat64",
         "__openat_2", "__openat64_2", "creat", "creat64", "mkstemp",
         "mkstemp64", "mkostemp", "mkostemp64", "mkstemps", "mkstemps64",
         "mkostemps", "mkostemps64", "shm_open",
         // Calls whose system call libc makes internally, one for one: the
         // directory's open, a stream's.
         "opendir", "fopen", "fopen64", "freopen", "freopen64", "tmpfile",
         "tmpfile64"},
        "open");
    Add({"close", "closedir", "fclose"}, "close");
    Add({"read", "__read_chk"}, "read");
    Add({"write"}, "write");
    Add({"pread", "pread64", "__pread_chk", "__pread64_chk",
         // The transfer of a queued aio request (glibc's helper thread).
         "aio_read", "aio_read64"},
        "pread64");
    Add({"pwrite", "pwrite64", "aio_write", "aio_write64"}, "pwrite64");
    Add({"readv"}, "readv");
    Add({"writev"}, "writev");
    Add({"preadv", "preadv64"}, "preadv");
    Add({"pwritev", "pwritev64"}, "pwritev");
    Add({"lseek", "lseek64"}, "lseek");
    Add({"fsync"}, "fsync");
    Add({"fdatasync"}, "fdatasync");
    Add({"ftruncate", "ftruncate64"}, "ftruncate");
    Add({"fallocate", "fallocate64", "posix_fallocate", "posix_fallocate64"},
        "fallocate");
    Add({"posix_fadvise", "posix_fadvise64"}, "fadvise64");
    Add({"sync_file_range"}, "sync_file_range");
    Add({"flock"}, "flock");
    Add({"fcntl", "fcntl64"}, "fcntl");
    Add({"dup"}, "dup");
    Add({"dup2"}, "dup2");
    Add({"dup3"}, "dup3");
    return M;
  }();
  auto It = Map.find(Name);
  return It == Map.end() ? "" : It->second;
}

bool isReadOp(const std::string &Op) {
  return Op == "read" || Op == "pread64" || Op == "readv" || Op == "preadv";
}
bool isWriteOp(const std::string &Op) {
  return Op == "write" || Op == "pwrite64" || Op == "writev" ||
         Op == "pwritev";
}

using Tally = std::map<std::string, std::map<std::string, long>>; // path->op->n

/// The ops of a file used through a stream that are compared.
bool streamCompared(const std::string &Op) {
  return Op == "open" || Op == "close" || Op == "bytes_read" ||
         Op == "bytes_written";
}

void tallyTrace(const Traces &T, const std::string &Prefix, Tally &Out) {
  for (const Event &E : T.Events) {
    if ((E.Cat != "POSIX" && E.Cat != "STDIO") || E.File.rfind(Prefix, 0) != 0)
      continue;
    int64_t Ret = E.Args.value("ret", (int64_t)-1);
    // A stream's data calls (fread, fwrite, fprintf, fputs, ...): `size`
    // x `ret` bytes.
    if (E.Cat == "STDIO" && E.Args.contains("size")) {
      int64_t Bytes = Ret > 0 ? Ret * E.Args.value("size", (int64_t)0) : 0;
      Out[E.File][E.Name.find("read") != std::string::npos ? "bytes_read"
                                                            : "bytes_written"] +=
          Bytes;
      continue;
    }
    std::string Op = syscallOf(E.Name);
    bool Aio = E.Name.rfind("aio_", 0) == 0;
    if (Op.empty() || ((Op == "open" || Aio) && Ret < 0)) // refused
      continue;
    Out[E.File][Op] += 1;
    if (Aio) // queued: the bytes asked for
      Ret = E.Args.value("count", (int64_t)0);
    if (Ret > 0 && isReadOp(Op))
      Out[E.File]["bytes_read"] += Ret;
    if (Ret > 0 && isWriteOp(Op))
      Out[E.File]["bytes_written"] += Ret;
  }
}

/// What strace -y names a descriptor: a path (" (deleted)" dropped), or a
/// kind ("kind:socket") for what is not a file.
std::string straceFile(std::string F) {
  static const std::string Deleted = " (deleted)";
  if (F.size() > Deleted.size() &&
      F.compare(F.size() - Deleted.size(), Deleted.size(), Deleted) == 0)
    F.resize(F.size() - Deleted.size());
  if (F.rfind("socket:", 0) == 0)
    return "kind:socket";
  if (F.rfind("pipe:", 0) == 0)
    return "kind:pipe";
  if (F.rfind("anon_inode:", 0) == 0)
    return "kind:anon";
  if (F.rfind("/memfd:", 0) == 0)
    return "kind:memfd";
  if (F.rfind("/dev/pts/", 0) == 0 || F.rfind("/dev/tty", 0) == 0)
    return "kind:tty";
  return F;
}

/// Every file's tally in the strace logs (paths, and kinds as straceFile
/// names them).
void tallyStrace(const std::string &Log, Tally &Out,
                 std::vector<std::string> &Errors) {
  std::ifstream In(Log);
  if (!In) {
    Errors.push_back(Log + ": cannot open");
    return;
  }
  // `[pid N] ` or `N ` prefix, the call, its arguments and result (with
  // -y, the file of a new descriptor; a failure's errno after it).
  static const std::regex Call(
      R"(^(?:\[pid +\d+\] |\d+ +)?(\w+)\((.*)\) += (-?\d+)(?:<(.*?)>)?(?: [A-Z].*)?$)");
  static const std::regex FdArg(R"(^-?\d+<((?:[^>]|>(?!,|$))*)>)");
  static const std::set<std::string> FdCalls = {
      "close",     "read",      "write",     "pread64",   "pwrite64",
      "readv",     "writev",    "preadv",    "pwritev",   "lseek",
      "fsync",     "fdatasync", "ftruncate", "fallocate", "fadvise64",
      "sync_file_range", "flock", "fcntl", "dup", "dup2", "dup3"};
  std::string Line;
  while (std::getline(In, Line)) {
    std::smatch M;
    if (!std::regex_search(Line, M, Call))
      continue;
    std::string Op = M[1], Args = M[2], File;
    long Ret = std::stol(M[3]);
    if (Op == "openat" || Op == "open" || Op == "creat" ||
        Op == "memfd_create") {
      if (Ret < 0 || !M[4].matched)
        continue;
      Op = "open";
      File = M[4];
    } else if (FdCalls.count(Op)) {
      std::smatch F;
      if (!std::regex_search(Args, F, FdArg))
        continue;
      File = F[1];
    } else {
      continue;
    }
    File = straceFile(File);
    if (excludedPath(File))
      continue;
    Out[File][Op] += 1;
    if (Ret > 0 && isReadOp(Op))
      Out[File]["bytes_read"] += Ret;
    if (Ret > 0 && isWriteOp(Op))
      Out[File]["bytes_written"] += Ret;
  }
}

void printOps(const std::map<std::string, long> &Ops) {
  for (const auto &[O, N] : Ops)
    std::cout << " " << O << "=" << N;
}

/// Per file under Prefix: the trace's tally against strace's.
void compareTallies(const Traces &T, const std::string &Prefix,
                    const Tally &Trace, const Tally &Strace,
                    std::vector<std::string> &Errors) {
  std::set<std::string> Files, Streams;
  size_t Compared = 0;
  for (const Event &E : T.Events)
    if (E.Cat == "STDIO")
      Streams.insert(E.File);
  for (const auto &[F, _] : Trace)
    Files.insert(F);
  for (const auto &[F, _] : Strace)
    if (F.rfind(Prefix, 0) == 0)
      Files.insert(F);
  for (const std::string &F : Files) {
    bool Stream = Streams.count(F) != 0;
    std::map<std::string, long> A, B, Left;
    if (Trace.count(F))
      A = Trace.at(F);
    if (Strace.count(F))
      B = Strace.at(F);
    std::set<std::string> Ops;
    for (const auto &[O, _] : A)
      Ops.insert(O);
    for (const auto &[O, _] : B)
      Ops.insert(O);
    for (const std::string &O : Ops) {
      long X = A.count(O) ? A[O] : 0, Y = B.count(O) ? B[O] : 0;
      if (Stream && !streamCompared(O)) {
        Left[O] = Y;
        continue;
      }
      if (X != Y)
        Errors.push_back(F + ": " + O + ": trace " + std::to_string(X) +
                         ", strace " + std::to_string(Y));
    }
    ++Compared;
    std::cout << F << ":";
    printOps(A);
    if (!Left.empty()) {
      std::cout << "; through a stream, strace's not compared:";
      printOps(Left);
    }
    std::cout << "\n";
  }
  if (Compared == 0)
    Errors.push_back("strace: no file under " + Prefix +
                     " was compared (no trace event and no system call there)");
}

/// Is Path under the absolute directory Dir?
bool underDir(const std::string &Path, const std::string &Dir) {
  return Path.rfind(Dir, 0) == 0 &&
         (Path.size() == Dir.size() || Path[Dir.size()] == '/' ||
          Dir.back() == '/');
}

/// Is Path in a directory bucket of Buckets deeper than Dir? The runtime
/// counts a file against its nearest data directory, so a bucket under
/// another (a run directory under /tmp) takes its files from it.
bool inDeeperBucket(const std::string &Path, const std::string &Dir,
                    const std::vector<std::string> &Buckets) {
  for (const std::string &B : Buckets)
    if (!B.empty() && B[0] == '/' && B.size() > Dir.size() &&
        underDir(B, Dir) && underDir(Path, B))
      return true;
  return false;
}

/// Each bucket's bytes in strace (the files the trace does not trace)
/// against the trace's `untraced` records. Ignored: files only the
/// dynamic loader reads before the runtime runs (the preloaded library
/// itself: its ELF header is read wherever the build is).
void compareAccounts(const Traces &T, const Tally &Strace,
                     const std::vector<std::string> &Buckets,
                     const std::set<std::string> &Ignored,
                     std::vector<std::string> &Errors) {
  for (const std::string &Bucket : Buckets) {
    bool Kind = Bucket.empty() || Bucket[0] != '/';
    long Read = 0, Written = 0, Calls = 0, Files = 0;
    for (const auto &[F, Ops] : Strace) {
      if (Kind ? F != "kind:" + Bucket
               : (!underDir(F, Bucket) || T.Named.count(F) ||
                  Ignored.count(F) || inDeeperBucket(F, Bucket, Buckets)))
        continue;
      ++Files;
      for (const auto &[O, N] : Ops) {
        if (O == "bytes_read")
          Read += N;
        else if (O == "bytes_written")
          Written += N;
        else if (isReadOp(O) || isWriteOp(O))
          Calls += N;
      }
    }
    UntracedCounts U;
    if (T.Untraced.count(Bucket))
      U = T.Untraced.at(Bucket);
    std::cout << "not traced: " << Bucket << ": trace " << U.BytesRead
              << " bytes read, " << U.BytesWritten << " written ("
              << U.Reads + U.Writes << " calls); strace " << Read
              << " bytes read, " << Written << " written (" << Calls
              << " calls, " << Files << " descriptors or files)\n";
    if (Files == 0)
      Errors.push_back(Bucket + ": strace saw nothing there to account for");
    if (U.BytesRead != Read || U.BytesWritten != Written)
      Errors.push_back(Bucket + ": untraced bytes read/written: trace " +
                       std::to_string(U.BytesRead) + "/" +
                       std::to_string(U.BytesWritten) + ", strace " +
                       std::to_string(Read) + "/" + std::to_string(Written));
  }
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Specs, StraceLogs, Accounts;
  std::set<std::string> Ignored;
  std::string Prefix = "/";
  bool PrefixGiven = false;
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--expect" && I + 1 < Argc)
      Specs.push_back(Argv[++I]);
    else if (A == "--strace" && I + 1 < Argc)
      StraceLogs.push_back(Argv[++I]);
    else if (A == "--strace-only" && I + 1 < Argc)
      Prefix = Argv[++I], PrefixGiven = true;
    else if (A == "--strace-account" && I + 1 < Argc)
      Accounts.push_back(Argv[++I]);
    else if (A == "--strace-ignore" && I + 1 < Argc) {
      // As given and as the loader may name it (a symbolic link's target).
      std::error_code Ec;
      std::string Path = Argv[++I];
      Ignored.insert(Path);
      auto Real = std::filesystem::canonical(Path, Ec);
      if (!Ec)
        Ignored.insert(Real.string());
    }
    else
      Files.push_back(A);
  }
  if (Files.empty()) {
    std::cerr << "usage: dft-io-expect [--expect SPEC] [--strace LOG "
                 "[--strace-only PREFIX] [--strace-account BUCKET] "
                 "[--strace-ignore PATH]] "
                 "TRACE...\n";
    return 2;
  }
  Traces T;
  for (const std::string &F : Files)
    readTrace(F, T);
  std::vector<std::string> Errors = T.Errors;
  for (const std::string &Spec : Specs)
    checkSpec(Spec, T, Errors);
  if ((PrefixGiven || !Accounts.empty()) && StraceLogs.empty())
    Errors.push_back("strace comparison asked for, but no --strace log");
  if (!StraceLogs.empty()) {
    Tally A, B;
    tallyTrace(T, Prefix, A);
    for (const std::string &Log : StraceLogs)
      tallyStrace(Log, B, Errors);
    compareTallies(T, Prefix, A, B, Errors);
    compareAccounts(T, B, Accounts, Ignored, Errors);
  }
  for (const std::string &E : Errors)
    std::cout << "error: " << E << "\n";
  std::cout << T.Events.size() << " I/O events, "
            << (Errors.empty() ? "all expectations hold" : "MISMATCH") << "\n";
  return Errors.empty() ? 0 : 1;
}
