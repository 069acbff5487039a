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
// A compact trace's blocks carry checksums, which almost every mutation
// breaks: the reader would stop at the first block and never decode a
// record. So before reading, the harness makes a .pfc's damage look like
// records written that way (repairBlocks); the reader itself is untouched.
//
//===----------------------------------------------------------------------===//

#include "analyze/FileAnalyzer.h"
#include "reader/EventParser.h"
#include "reader/TraceScanner.h"
#include "report/Output.h"

extern "C" {
#include "compact_format.h"
}

#include <zlib.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Gives each block of a .pfc the checksum of its stored bytes, and the
// last block, when stored uncompressed, the length of what follows its
// header (mutations insert and erase bytes). A block whose reserved byte 7
// is odd is left as it is, so that damaged blocks are still tried.
void repairBlocks(std::vector<uint8_t> &D) {
  if (D.size() < DftCompactMagicLen + 4 ||
      std::memcmp(D.data(), DFT_COMPACT_MAGIC, DftCompactMagicLen) != 0)
    return;
  size_t At = DftCompactMagicLen + 4 +
              dft_get_u32le(D.data() + DftCompactMagicLen);
  while (At + DftCompactBlockHeader <= D.size() &&
         std::memcmp(D.data() + At, DFT_COMPACT_BLOCK_MAGIC, 4) == 0) {
    uint8_t *H = D.data() + At;
    size_t Left = D.size() - At - DftCompactBlockHeader;
    uint64_t Stored = dft_get_u32le(H + 12);
    bool Last = Stored >= Left ||
                std::memcmp(H + DftCompactBlockHeader + Stored,
                            DFT_COMPACT_BLOCK_MAGIC,
                            Left - Stored < 4 ? Left - Stored : 4) != 0;
    if (H[7] & 1)
      return;
    if (Last && H[4] == DftCodecNone) {
      Stored = Left;
      dft_put_u32le(H + 8, static_cast<uint32_t>(Left));
      dft_put_u32le(H + 12, static_cast<uint32_t>(Left));
    }
    if (Stored > Left)
      return;
    dft_put_u32le(H + 16, static_cast<uint32_t>(crc32(
                              0, H + DftCompactBlockHeader,
                              static_cast<uInt>(Stored))));
    At += DftCompactBlockHeader + Stored;
  }
}

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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Input, size_t Size) {
  std::vector<uint8_t> Repaired(Input, Input + Size);
  repairBlocks(Repaired);
  const uint8_t *Data = Repaired.data();
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
