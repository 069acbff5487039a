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
// --strace LOG (repeatable: `strace -ff` writes a log per process): the
// per-file number of successful opens and of close/read/write/pread64/
// pwrite64/lseek/fsync calls, and the bytes read and written, from
// `strace -y` logs, must equal the trace's POSIX events on the same files
// (paths under PREFIX only). An aio request that was queued stands for the
// pread64/pwrite64 glibc's helper thread makes for it, with the bytes it
// asked for (docs/trace-format.md). Files used through streams are left
// out: the system calls libc makes inside fopen/fwrite/fclose have no
// function of their own, so no wrapper sees them (their STDIO events count
// them).
//
// Exit 0 when everything holds, 1 with one line per difference otherwise.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <cstdio>
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

struct Traces {
  std::vector<Event> Events;
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

/// The system call a traced POSIX name makes, or "" when not compared.
std::string syscallOf(const std::string &Name) {
  static const std::map<std::string, std::string> Map = {
      {"open", "open"},        {"open64", "open"},      {"__open_2", "open"},
      {"__open64_2", "open"},  {"openat", "open"},      {"openat64", "open"},
      {"__openat_2", "open"},  {"__openat64_2", "open"}, {"creat", "open"},
      {"creat64", "open"},     {"close", "close"},      {"read", "read"},
      {"__read_chk", "read"},  {"write", "write"},      {"pread", "pread64"},
      {"pread64", "pread64"},  {"__pread_chk", "pread64"},
      {"__pread64_chk", "pread64"}, {"pwrite", "pwrite64"},
      {"pwrite64", "pwrite64"}, {"lseek", "lseek"},     {"lseek64", "lseek"},
      {"fsync", "fsync"},
      // Calls whose system call libc makes internally, one for one: the
      // directory's open and close, the transfer of a queued aio request
      // (made by glibc's helper thread).
      {"opendir", "open"},     {"closedir", "close"},   {"aio_read", "pread64"},
      {"aio_read64", "pread64"}, {"aio_write", "pwrite64"},
      {"aio_write64", "pwrite64"}};
  auto It = Map.find(Name);
  return It == Map.end() ? "" : It->second;
}

using Tally = std::map<std::string, std::map<std::string, long>>; // path->op->n

void tallyTrace(const Traces &T, const std::string &Prefix, Tally &Out) {
  for (const Event &E : T.Events) {
    std::string Op = syscallOf(E.Name);
    int64_t Ret = E.Args.value("ret", (int64_t)-1);
    bool Aio = E.Name.rfind("aio_", 0) == 0;
    if (E.Cat != "POSIX" || Op.empty() || E.File.rfind(Prefix, 0) != 0 ||
        ((Op == "open" || Aio) && Ret < 0)) // refused: no system call
      continue;
    Out[E.File][Op] += 1;
    if (Aio) // queued: the bytes asked for
      Ret = E.Args.value("count", (int64_t)0);
    if (Ret > 0 && (Op == "read" || Op == "pread64"))
      Out[E.File]["bytes_read"] += Ret;
    if (Ret > 0 && (Op == "write" || Op == "pwrite64"))
      Out[E.File]["bytes_written"] += Ret;
  }
}

void tallyStrace(const std::string &Log, const std::string &Prefix,
                 Tally &Out, std::vector<std::string> &Errors) {
  std::ifstream In(Log);
  if (!In) {
    Errors.push_back(Log + ": cannot open");
    return;
  }
  // `[pid N] ` or `N ` prefix, the call, its first argument and result.
  static const std::regex Call(
      R"(^(?:\[pid +\d+\] |\d+ +)?(\w+)\((.*)\) += (-?\d+)(?:<([^>]*)>)?)");
  static const std::regex FdArg(R"(^-?\d+<([^>]*)>)");
  static const std::regex PathArg(R"(^(?:AT_FDCWD|\d+<[^>]*>), "([^"]*)\")");
  std::string Line;
  while (std::getline(In, Line)) {
    std::smatch M;
    if (!std::regex_search(Line, M, Call))
      continue;
    std::string Op = M[1], Args = M[2], File;
    long Ret = std::stol(M[3]);
    if (Op == "openat" || Op == "open" || Op == "creat") {
      if (Ret < 0 || !M[4].matched)
        continue;
      Op = "open";
      File = M[4];
    } else if (Op == "close" || Op == "read" || Op == "write" ||
               Op == "pread64" || Op == "pwrite64" || Op == "lseek" ||
               Op == "fsync") {
      std::smatch F;
      if (!std::regex_search(Args, F, FdArg))
        continue;
      File = F[1];
    } else {
      continue;
    }
    if (File.rfind(Prefix, 0) != 0 || excludedPath(File))
      continue;
    Out[File][Op] += 1;
    if (Ret > 0 && (Op == "read" || Op == "pread64"))
      Out[File]["bytes_read"] += Ret;
    if (Ret > 0 && (Op == "write" || Op == "pwrite64"))
      Out[File]["bytes_written"] += Ret;
  }
}

void compareTallies(const Traces &T, const Tally &Trace, const Tally &Strace,
                    std::vector<std::string> &Errors) {
  std::set<std::string> Files, Streams;
  for (const Event &E : T.Events)
    if (E.Cat == "STDIO")
      Streams.insert(E.File);
  for (const auto &[F, _] : Trace)
    Files.insert(F);
  for (const auto &[F, _] : Strace)
    Files.insert(F);
  for (const std::string &F : Files) {
    if (Streams.count(F)) {
      std::cout << F << ": used through a stream, not compared\n";
      continue;
    }
    std::map<std::string, long> A, B;
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
      if (X != Y)
        Errors.push_back(F + ": " + O + ": trace " + std::to_string(X) +
                         ", strace " + std::to_string(Y));
    }
    std::cout << F << ":";
    for (const auto &[O, N] : A)
      std::cout << " " << O << "=" << N;
    std::cout << "\n";
  }
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Specs, StraceLogs;
  std::string Prefix = "/";
  std::vector<std::string> Files;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--expect" && I + 1 < Argc)
      Specs.push_back(Argv[++I]);
    else if (A == "--strace" && I + 1 < Argc)
      StraceLogs.push_back(Argv[++I]);
    else if (A == "--strace-only" && I + 1 < Argc)
      Prefix = Argv[++I];
    else
      Files.push_back(A);
  }
  if (Files.empty()) {
    std::cerr << "usage: dft-io-expect [--expect SPEC] [--strace LOG "
                 "[--strace-only PREFIX]] TRACE...\n";
    return 2;
  }
  Traces T;
  for (const std::string &F : Files)
    readTrace(F, T);
  std::vector<std::string> Errors = T.Errors;
  for (const std::string &Spec : Specs)
    checkSpec(Spec, T, Errors);
  if (!StraceLogs.empty()) {
    Tally A, B;
    tallyTrace(T, Prefix, A);
    for (const std::string &Log : StraceLogs)
      tallyStrace(Log, Prefix, B, Errors);
    compareTallies(T, A, B, Errors);
  }
  for (const std::string &E : Errors)
    std::cout << "error: " << E << "\n";
  std::cout << T.Events.size() << " I/O events, "
            << (Errors.empty() ? "all expectations hold" : "MISMATCH") << "\n";
  return Errors.empty() ? 0 : 1;
}
