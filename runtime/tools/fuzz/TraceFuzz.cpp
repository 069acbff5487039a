//===- TraceFuzz.cpp - libFuzzer target for the trace reader --------------===//
//
// Any bytes as a trace file: plain or gzip, broken lines, broken gzip
// members, hostile nesting. The input goes to a memfd opened by path
// (/proc/self/fd/N), so it takes the same road as a file: LineReader,
// EventParser, the field rules, the whole analyzer (attribution, unions,
// timeline), and the text, JSON and HTML reports of what it found (the
// input's bytes reach them in names and in problems' excerpts). Each line
// is also parsed by simdjson's DOM alone, which must agree with the
// reader's one-pass parser (PlainLineParser.h). Crashes,
// leaks and sanitizer reports are failures; problems reported in the input
// are not.
//
//===----------------------------------------------------------------------===//

#include "EventParser.h"
#include "FileAnalyzer.h"
#include "Output.h"
#include "TraceScanner.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>

namespace {

class CountingScanner : public dftrace::TraceScanner {
public:
  uint64_t Events = 0, Problems = 0;

protected:
  void onEvent(const dftrace::Event &, uint64_t) override { ++Events; }
  void onProblem(dftrace::Issue, uint64_t, std::string) override {
    ++Problems;
  }
};

/// Every line of the input, parsed the reader's way and by simdjson's DOM
/// alone: the same answer and the same fields (PlainLineParser.h), with
/// bytes after the line that a read past its end would take for its own.
void compareParsers(const uint8_t *Data, size_t Size) {
  static dftrace::EventParser Plain, Dom;
  Dom.usePlainParser(false);
  dftrace::Event A, B;
  std::string Text;
  size_t Begin = 0;
  while (Begin < Size) {
    const void *Nl = memchr(Data + Begin, '\n', Size - Begin);
    size_t End = Nl ? static_cast<size_t>(static_cast<const uint8_t *>(Nl) - Data)
                    : Size;
    Text.assign(reinterpret_cast<const char *>(Data) + Begin, End - Begin);
    size_t Len = Text.size();
    Text.append("1\"}1\"}1\"}", 9).append(64, '1');
    bool PlainOk = Plain.parse(Text.data(), Len, Text.size(), A);
    bool DomOk = Dom.parse(Text.data(), Len, Text.size(), B);
    if (PlainOk != DomOk || (PlainOk && !A.sameAs(B)))
      __builtin_trap();
    Begin = End + 1;
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  int Fd = memfd_create("trace", 0);
  if (Fd < 0)
    return 0;
  size_t Done = 0;
  while (Done < Size) {
    ssize_t N = write(Fd, Data + Done, Size - Done);
    if (N <= 0)
      break;
    Done += static_cast<size_t>(N);
  }
  std::string Path = "/proc/self/fd/" + std::to_string(Fd);
  compareParsers(Data, Size);
  CountingScanner Scanner;
  Scanner.scan(Path);
  dftanalyze::AnalyzeOptions Options;
  Options.Timeline = true;
  dftanalyze::Aggregate A = dftanalyze::analyzeFile(Path, 0, Options);
  if (A.Events != Scanner.Events) // one reader, one count
    __builtin_trap();
  A.FileNames = {Path};
  A.finish();
  dftanalyze::Report R(A);
  dftanalyze::OutputOptions Out;
  std::ostringstream Sink;
  dftanalyze::printText(Sink, R, Out);
  Sink << dftanalyze::jsonText(dftanalyze::reportJson(R, Out), 2);
  dftanalyze::printHtml(Sink, R, Out);
  close(Fd);
  return 0;
}
