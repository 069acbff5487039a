//===- OffsetCheck.cpp - Test-only: recorded offsets against strace -------===//
//
// dft-offset-check STRACE_LOG TRACE...
//
// io_offsets.c precedes each non-positioned read or write with a probe:
// getppid() as a marker, then lseek(fd, 0, SEEK_CUR) (SEEK_END before a
// write that appends). In the `strace -y` log, the lseek after each
// getppid is the position the kernel had: per file, in order, those must
// equal the `offset` of the trace's read/write/readv/writev/fread/fwrite
// events (and their forms), in id order, every one of which must carry an
// offset; a SEEK_END probe must meet an event with `append` 1. The
// positioned calls need no probe: per file, in order, the offset of each
// pread64/pwrite64 system call strace shows must be the `offset` of the
// trace's pread/pwrite events (and their forms).
//
// Exit 0 when they agree, 1 with one line per difference.
//
//===----------------------------------------------------------------------===//

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

namespace {

struct Probe {
  long long Pos;
  bool End;
};

struct Data {
  unsigned long long Id;
  std::string Name;
  bool HasOffset;
  long long Offset;
  bool Append;
};

const std::set<std::string> Moving = {
    "read",   "__read_chk",     "write",          "readv",
    "writev", "fread",          "__fread_chk",    "fread_unlocked",
    "fwrite", "fwrite_unlocked"};

const std::set<std::string> Positioned = {
    "pread",  "pread64",  "__pread_chk", "__pread64_chk",
    "pwrite", "pwrite64"};

/// One file's positioned events (in id order) against its pread64/pwrite64
/// system calls (in order); prints each difference, returns their number.
int comparePositioned(const std::string &File, const std::vector<Data> &E,
                      const std::vector<long long> &Sys) {
  int Bad = 0;
  if (E.size() != Sys.size()) {
    std::cout << File << ": " << E.size() << " positioned events, "
              << Sys.size() << " pread64/pwrite64 calls\n";
    ++Bad;
  }
  for (size_t I = 0; I < E.size() && I < Sys.size(); ++I)
    if (!E[I].HasOffset || E[I].Offset != Sys[I]) {
      std::cout << File << ": positioned call " << I + 1 << " (" << E[I].Name
                << ", id " << E[I].Id << "): offset "
                << (E[I].HasOffset ? std::to_string(E[I].Offset) : "absent")
                << ", strace " << Sys[I] << "\n";
      ++Bad;
    }
  std::cout << File << ": " << E.size() << " positioned offsets checked\n";
  return Bad;
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::cerr << "usage: dft-offset-check STRACE_LOG TRACE...\n";
    return 2;
  }
  std::map<std::string, std::vector<Probe>> Probes;
  std::map<std::string, std::vector<long long>> SysPositioned;
  {
    std::ifstream In(Argv[1]);
    std::regex Seek(R"(^lseek\(\d+<([^>]*)>, 0, SEEK_(CUR|END)\) = (\d+))");
    std::regex At(R"(^p(read|write)64\(\d+<([^>]*)>, .*, \d+, (\d+)\) = \d+)");
    std::string Line;
    bool Marked = false;
    while (std::getline(In, Line)) {
      std::smatch M;
      if (std::regex_search(Line, M, At)) {
        SysPositioned[M[2]].push_back(std::stoll(M[3]));
        Marked = false;
        continue;
      }
      if (Line.rfind("getppid()", 0) == 0) {
        Marked = true;
        continue;
      }
      if (Marked && std::regex_search(Line, M, Seek))
        Probes[M[1]].push_back({std::stoll(M[3]), M[2] == "END"});
      Marked = false;
    }
  }
  std::map<std::string, std::vector<Data>> Events, PosEvents;
  for (int I = 2; I < Argc; ++I) {
    std::ifstream In(Argv[I]);
    std::map<unsigned long long, std::string> Paths;
    std::string Line;
    while (std::getline(In, Line)) {
      if (Line.empty() || Line[0] != '{')
        continue;
      auto J = nlohmann::json::parse(Line);
      if (J.value("name", "") == "FH") {
        Paths[J["args"]["value"].get<unsigned long long>()] =
            J["args"]["name"].get<std::string>();
        continue;
      }
      std::string Name = J.value("name", "");
      bool IsPositioned = Positioned.count(Name) > 0;
      if (!J.contains("args") || !J["args"].contains("fhash") ||
          !(Moving.count(Name) || IsPositioned))
        continue;
      const auto &A = J["args"];
      Data D{J["id"].get<unsigned long long>(), Name, A.contains("offset"),
             A.value("offset", -1LL), A.value("append", 0) == 1};
      (IsPositioned ? PosEvents : Events)[Paths[A["fhash"].get<unsigned long long>()]]
          .push_back(D);
    }
  }
  int Bad = 0;
  // The traced files' positioned calls: strace also shows the loader's and
  // libc's on files the trace leaves out.
  std::set<std::string> PosFiles;
  for (auto &[P, V] : PosEvents)
    PosFiles.insert(P);
  for (auto &[P, V] : SysPositioned)
    if (Events.count(P))
      PosFiles.insert(P);
  for (const auto &File : PosFiles) {
    auto &E = PosEvents[File];
    std::sort(E.begin(), E.end(),
              [](const Data &A, const Data &B) { return A.Id < B.Id; });
    Bad += comparePositioned(File, E, SysPositioned[File]);
  }
  std::set<std::string> Files;
  for (auto &[P, V] : Probes)
    Files.insert(P);
  for (auto &[P, V] : Events)
    Files.insert(P);
  for (const auto &File : Files) {
    auto &E = Events[File];
    auto &Pr = Probes[File];
    std::sort(E.begin(), E.end(),
              [](const Data &A, const Data &B) { return A.Id < B.Id; });
    if (E.size() != Pr.size()) {
      std::cout << File << ": " << E.size() << " data events, " << Pr.size()
                << " probes\n";
      ++Bad;
    }
    for (size_t I = 0; I < E.size() && I < Pr.size(); ++I) {
      const auto &D = E[I];
      if (!D.HasOffset || D.Offset != Pr[I].Pos || D.Append != Pr[I].End) {
        std::cout << File << ": call " << I + 1 << " (" << D.Name << ", id "
                  << D.Id << "): offset "
                  << (D.HasOffset ? std::to_string(D.Offset) : "absent")
                  << (D.Append ? " append" : "") << ", strace "
                  << Pr[I].Pos << (Pr[I].End ? " (end)" : "") << "\n";
        ++Bad;
      }
    }
    std::cout << File << ": " << E.size() << " offsets checked\n";
  }
  return Bad ? 1 : 0;
}
