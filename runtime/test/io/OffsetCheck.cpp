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
// offset; a SEEK_END probe must meet an event with `append` 1.
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

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    std::cerr << "usage: dft-offset-check STRACE_LOG TRACE...\n";
    return 2;
  }
  std::map<std::string, std::vector<Probe>> Probes;
  {
    std::ifstream In(Argv[1]);
    std::regex Seek(R"(^lseek\(\d+<([^>]*)>, 0, SEEK_(CUR|END)\) = (\d+))");
    std::string Line;
    bool Marked = false;
    while (std::getline(In, Line)) {
      std::smatch M;
      if (Line.rfind("getppid()", 0) == 0) {
        Marked = true;
        continue;
      }
      if (Marked && std::regex_search(Line, M, Seek))
        Probes[M[1]].push_back({std::stoll(M[3]), M[2] == "END"});
      Marked = false;
    }
  }
  std::map<std::string, std::vector<Data>> Events;
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
      if (!J.contains("args") || !J["args"].contains("fhash") ||
          !Moving.count(J.value("name", "")))
        continue;
      const auto &A = J["args"];
      Data D{J["id"].get<unsigned long long>(), J["name"], A.contains("offset"),
             A.value("offset", -1LL), A.value("append", 0) == 1};
      Events[Paths[A["fhash"].get<unsigned long long>()]].push_back(D);
    }
  }
  int Bad = 0;
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
