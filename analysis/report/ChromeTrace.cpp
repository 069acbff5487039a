//===- ChromeTrace.cpp - --chrome-trace: Trace Event JSON -----------------===//

#include "ChromeTrace.h"

#include "analyze/Report.h"
#include "reader/IoTaxonomy.h"
#include "reader/TraceScanner.h"

#include <zlib.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace dftanalyze {

namespace {

std::vector<std::string> split(const std::string &Text, char Sep) {
  std::vector<std::string> Out;
  std::stringstream In(Text);
  for (std::string Item; std::getline(In, Item, Sep);)
    Out.push_back(Item);
  return Out;
}

bool parseInt(const std::string &S, int64_t &Out) {
  auto [P, Ec] = std::from_chars(S.data(), S.data() + S.size(), Out);
  return Ec == std::errc() && P == S.data() + S.size();
}

void appendEscaped(std::string &Out, std::string_view S) {
  for (char C : S) {
    unsigned char U = static_cast<unsigned char>(C);
    if (C == '"' || C == '\\') {
      Out += '\\';
      Out += C;
    } else if (U < 0x20) {
      char Buf[8];
      std::snprintf(Buf, sizeof(Buf), "\\u%04x", U);
      Out += Buf;
    } else {
      Out += C;
    }
  }
}

void appendInt(std::string &Out, int64_t V) {
  char Buf[24];
  auto [P, Ec] = std::to_chars(Buf, Buf + sizeof(Buf), V);
  (void)Ec;
  Out.append(Buf, P);
}

std::string partPath(const std::string &Output, size_t Index) {
  return Output + ".part" + std::to_string(Index);
}

/// One file's events as ",\n{...}" lines.
class Converter : public dftrace::TraceScanner {
public:
  Converter(uint32_t FileIndex, const ChromePlan &Plan, std::FILE *Out)
      : FileIndex(FileIndex), Plan(Plan), Out(Out) {}

  void finish() {
    for (const auto &[Key, P] : Plan.Processes) {
      if (Key.first != FileIndex || !P.Keep)
        continue;
      std::string Name = "\"name\":\"";
      appendEscaped(Name, P.Name);
      metadata("process_name", P.ChromePid, 0, Name + "\"");
      metadata("process_sort_index", P.ChromePid, 0,
               "\"sort_index\":" + std::to_string(P.ChromePid));
    }
    for (const auto &[ChromePid, Tid] : Threads)
      metadata("thread_name", ChromePid, Tid,
               "\"name\":\"tid " + std::to_string(Tid) + "\"");
    flush();
  }

protected:
  void onEvent(const dftrace::Event &E, uint64_t Line) override {
    // The spans the analysis used: the same field rules decide.
    if (!E.isComplete() || E.isTracerSpan() || !checkedEvent(E, Line))
      return;
    dftrace::Layer L = dftrace::layerOf(E);
    if (!(Plan.Layers & (1u << static_cast<unsigned>(L))))
      return;
    int64_t Ts = dftrace::microseconds(E.Ts);
    int64_t Dur = dftrace::microseconds(E.Dur);
    if (Ts >= Plan.ToUs || Ts + Dur < Plan.FromUs)
      return;
    const ChromePlan::Process *P = process(E.Pid.I);
    if (!P || !P->Keep)
      return;
    Threads.emplace(P->ChromePid, E.Tid.I);
    Buf += ",\n{\"name\":\"";
    appendEscaped(Buf, E.Name.S);
    Buf += "\",\"cat\":\"";
    appendEscaped(Buf, E.Cat.S);
    Buf += "\",\"ph\":\"X\",\"ts\":";
    appendInt(Buf, Ts);
    Buf += ",\"dur\":";
    appendInt(Buf, Dur);
    Buf += ",\"pid\":";
    appendInt(Buf, P->ChromePid);
    Buf += ",\"tid\":";
    appendInt(Buf, E.Tid.I);
    Buf += '}';
    if (Buf.size() >= (1 << 20))
      flush();
  }
  void onProblem(dftrace::Issue, uint64_t, std::string) override {}
  void onCaveat(std::string) override {}

private:
  /// ",\n{"name":Name,"ph":"M","pid":Pid,"tid":Tid,"ts":0,"args":{Args}}".
  void metadata(const char *Name, int64_t Pid, int64_t Tid,
                const std::string &Args) {
    Buf += ",\n{\"name\":\"";
    Buf += Name;
    Buf += "\",\"ph\":\"M\",\"pid\":";
    appendInt(Buf, Pid);
    Buf += ",\"tid\":";
    appendInt(Buf, Tid);
    Buf += ",\"ts\":0,\"args\":{";
    Buf += Args;
    Buf += "}}";
  }
  const ChromePlan::Process *process(int64_t Pid) {
    if (Last && LastPid == Pid)
      return Last;
    auto It = Plan.Processes.find({FileIndex, Pid});
    Last = It == Plan.Processes.end() ? nullptr : &It->second;
    LastPid = Pid;
    return Last;
  }
  void flush() {
    if (!Buf.empty() && std::fwrite(Buf.data(), 1, Buf.size(), Out) != Buf.size())
      Failed = true;
    Buf.clear();
  }

public:
  bool Failed = false;

private:
  uint32_t FileIndex;
  const ChromePlan &Plan;
  std::FILE *Out;
  std::string Buf;
  std::set<std::pair<int64_t, int64_t>> Threads;
  const ChromePlan::Process *Last = nullptr;
  int64_t LastPid = 0;
};

/// Plain or gzip output, chosen by the name.
class Sink {
public:
  explicit Sink(const std::string &Path, bool Gzip) : Gzip(Gzip) {
    if (Gzip)
      Z = gzopen(Path.c_str(), "wb1");
    else
      F = std::fopen(Path.c_str(), "wb");
  }
  ~Sink() { close(); }
  bool ok() const { return (Gzip ? Z != nullptr : F != nullptr) && !Failed; }
  void write(const char *Data, size_t Size) {
    if (!Size || !ok())
      return;
    if (Gzip)
      Failed |= gzwrite(Z, Data, static_cast<unsigned>(Size)) !=
                static_cast<int>(Size);
    else
      Failed |= std::fwrite(Data, 1, Size, F) != Size;
  }
  bool close() {
    if (Gzip && Z) {
      Failed |= gzclose(Z) != Z_OK;
      Z = nullptr;
    } else if (F) {
      Failed |= std::fclose(F) != 0;
      F = nullptr;
    }
    return !Failed;
  }

private:
  bool Gzip;
  gzFile Z = nullptr;
  std::FILE *F = nullptr;
  bool Failed = false;
};

} // namespace

bool ChromeFilter::parseRanks(const std::string &Text, std::string &Error) {
  for (const std::string &Item : split(Text, ',')) {
    size_t Dash = Item.find('-', 1);
    int64_t A = 0, B = 0;
    bool Ok = Dash == std::string::npos
                  ? parseInt(Item, A) && (B = A, true)
                  : parseInt(Item.substr(0, Dash), A) &&
                        parseInt(Item.substr(Dash + 1), B);
    if (!Ok || A < 0 || B < A) {
      Error = "--ranks: '" + Item + "' is not a rank or a range A-B";
      return false;
    }
    Ranks.emplace_back(A, B);
  }
  return true;
}

bool ChromeFilter::parseWindow(const std::string &Text, std::string &Error) {
  size_t Colon = Text.find(':');
  char *End = nullptr;
  if (Colon != std::string::npos) {
    std::string A = Text.substr(0, Colon), B = Text.substr(Colon + 1);
    FromS = A.empty() ? 0 : std::strtod(A.c_str(), &End);
    bool OkA = A.empty() || *End == '\0';
    ToS = B.empty() ? HUGE_VAL : std::strtod(B.c_str(), &End);
    bool OkB = B.empty() || *End == '\0';
    if (OkA && OkB && FromS >= 0 && ToS > FromS) {
      HasWindow = true;
      return true;
    }
  }
  Error = "--window: '" + Text +
          "' is not START:END in seconds after the first event (e.g. 1.5:3)";
  return false;
}

bool ChromeFilter::parseLayers(const std::string &Text, std::string &Error) {
  Layers = 0;
  for (std::string Item : split(Text, ',')) {
    for (char &C : Item)
      C = static_cast<char>(std::toupper(static_cast<unsigned char>(C)));
    bool Found = false;
    for (size_t L = 0; L < dftrace::NumLayers; ++L)
      if (Item == dftrace::layerName(static_cast<dftrace::Layer>(L))) {
        Layers |= 1u << L;
        Found = true;
      }
    if (!Found) {
      Error = "--layers: unknown layer '" + Item +
              "' (APP, POSIX, STDIO, MPIIO, HDF5, OTHER)";
      return false;
    }
  }
  return true;
}

ChromePlan ChromePlan::make(const Report &R, const ChromeFilter &F) {
  ChromePlan Plan;
  Plan.Layers = F.Layers;
  if (F.HasWindow) {
    Plan.FromUs = R.FirstUs + static_cast<int64_t>(std::llround(F.FromS * 1e6));
    Plan.ToUs = std::isinf(F.ToS)
                    ? INT64_MAX
                    : R.FirstUs + static_cast<int64_t>(std::llround(F.ToS * 1e6));
  }
  int64_t Next = 0;
  for (const RankFigures &Rk : R.Ranks) {
    Process P;
    P.ChromePid = Next++;
    P.Name = (Rk.P->Rank.empty() ? "" : "rank " + Rk.P->Rank + " ") + "(pid " +
             std::to_string(Rk.P->Pid) + ")";
    if (!F.Ranks.empty()) {
      int64_t Rank = 0;
      P.Keep = false;
      if (parseInt(Rk.P->Rank, Rank))
        for (const auto &[A, B] : F.Ranks)
          P.Keep |= Rank >= A && Rank <= B;
    }
    Plan.Processes[{Rk.P->FileIndex, Rk.P->Pid}] = P;
  }
  return Plan;
}

bool writeChromePart(const std::vector<std::string> &Files, uint32_t Index,
                     const ChromePlan &Plan, const std::string &Output,
                     std::string &Error) {
  std::string Path = partPath(Output, Index);
  std::FILE *Out = std::fopen(Path.c_str(), "wb");
  if (!Out) {
    Error = Path + ": cannot create: " + std::strerror(errno);
    return false;
  }
  Converter C(Index, Plan, Out);
  C.scan(Files[Index]);
  C.finish();
  bool Ok = !C.Failed && std::fclose(Out) == 0;
  if (!Ok)
    Error = Path + ": write error";
  return Ok;
}

bool joinChromeParts(size_t NumFiles, const std::string &Output,
                     std::string &Error) {
  bool Gzip = Output.size() > 3 && Output.compare(Output.size() - 3, 3, ".gz") == 0;
  std::string Tmp = Output + ".tmp";
  bool Ok = true;
  {
    Sink S(Tmp, Gzip);
    if (!S.ok()) {
      Error = Output + ": cannot write: " + std::strerror(errno);
      Ok = false;
    }
    const char Head[] = "{\"traceEvents\":[";
    S.write(Head, sizeof(Head) - 1);
    bool First = true;
    std::vector<char> Buf(1 << 20);
    for (size_t I = 0; Ok && I < NumFiles; ++I) {
      std::string Part = partPath(Output, I);
      std::FILE *In = std::fopen(Part.c_str(), "rb");
      if (!In) { // every file has a part: without it events would be lost
        Error = Part + ": cannot read: " + std::strerror(errno) +
                " (under MPI the output's directory must be shared by the "
                "ranks)";
        Ok = false;
        break;
      }
      size_t N;
      while ((N = std::fread(Buf.data(), 1, Buf.size(), In)) > 0) {
        size_t Skip = First ? 1 : 0; // the first event has no comma before it
        First = false;
        S.write(Buf.data() + Skip, N - Skip);
      }
      std::fclose(In);
    }
    const char Tail[] = "\n],\"displayTimeUnit\":\"ms\"}\n";
    S.write(Tail, sizeof(Tail) - 1);
    if (Ok && !(S.ok() && S.close())) {
      Error = Output + ": cannot write: " + std::strerror(errno);
      Ok = false;
    }
  }
  removeChromeParts(NumFiles, Output);
  if (Ok && std::rename(Tmp.c_str(), Output.c_str()) != 0) {
    Error = Output + ": cannot write: " + std::strerror(errno);
    Ok = false;
  }
  if (!Ok)
    std::remove(Tmp.c_str());
  return Ok;
}

void removeChromeParts(size_t NumFiles, const std::string &Output) {
  for (size_t I = 0; I < NumFiles; ++I)
    std::remove(partPath(Output, I).c_str());
}

} // namespace dftanalyze
