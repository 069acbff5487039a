//===- DftracerConvert.cpp - Compact traces back to .pfw ------------------===//
//
//   dftracer-convert [--gzip] [--force] [-o OUT] TRACE.pfc...
//   dftracer-convert --compact [--force] [-o OUT] TRACE.pfw[.gz]...
//
// Writes each compact trace as the .pfw the runtime writes for the same
// events (TRACE.pfw beside it, or OUT; "-" is standard output), or as
// .pfw.gz with --gzip (zlib level 1 with the gzip wrapper, as the runtime).
// Spans are printed with the runtime's own event_format.c, metadata lines
// were kept as their text: the .pfw is byte for byte the runtime's.
//
// With --compact, the other way: each .pfw or .pfw.gz through the
// runtime's own encoder (compact_encoder.c) into TRACE.pfc (its "[" line
// is the compact header; every other line is encoded as the runtime would).
//
// Exit status: 0 all converted; 1 an input was truncated or corrupt (what
// it held before the damage is written, and the byte offset is named);
// 2 bad usage, or an input that cannot be read or is not compact, or an
// output that exists (without --force) or cannot be written.
//
//===----------------------------------------------------------------------===//

#include "reader/CompactReader.h"
#include "reader/LineReader.h"

#include "CommandLine.h"

extern "C" {
#include "compact_writer.h"
}
#define ZSTD_STATIC_LINKING_ONLY // ZSTD_initStaticCCtx, as the runtime
#include <zstd.h>

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/uio.h>
#include <string>
#include <unistd.h>
#include <vector>

using dftrace::CompactReader;

namespace {

/// Buffered output, plain or gzip.
class Output {
public:
  bool open(const std::string &Path, bool Gzip, bool Force, std::string &Err) {
    if (Path == "-") {
      Fd = STDOUT_FILENO;
    } else {
      int Flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | (Force ? 0 : O_EXCL);
      Fd = ::open(Path.c_str(), Flags, 0644);
      if (Fd < 0) {
        Err = std::strerror(errno);
        if (errno == EEXIST)
          Err += " (use --force to replace it)";
        return false;
      }
    }
    if (Gzip) {
      Z.zalloc = Z_NULL;
      Z.zfree = Z_NULL;
      Z.opaque = Z_NULL;
      if (deflateInit2(&Z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
          Z_OK) {
        Err = "cannot start zlib";
        return false;
      }
      Deflating = true;
    }
    return true;
  }
  void write(const char *Data, size_t Len) {
    Buf.append(Data, Len);
    if (Buf.size() >= (1u << 20))
      flush(Z_NO_FLUSH);
  }
  bool close(std::string &Err) {
    flush(Z_FINISH);
    if (Deflating)
      deflateEnd(&Z);
    if (Fd != STDOUT_FILENO && Fd >= 0 && ::close(Fd) != 0 && !Failed) {
      Failed = true;
      Error = std::strerror(errno);
    }
    Err = Error;
    return !Failed;
  }

private:
  void raw(const char *Data, size_t Len) {
    while (Len > 0 && !Failed) {
      ssize_t N = ::write(Fd, Data, Len);
      if (N < 0 && errno == EINTR)
        continue;
      if (N <= 0) {
        Failed = true;
        Error = std::strerror(N < 0 ? errno : ENOSPC);
        return;
      }
      Data += N;
      Len -= size_t(N);
    }
  }
  void flush(int Mode) {
    if (!Deflating) {
      raw(Buf.data(), Buf.size());
      Buf.clear();
      return;
    }
    std::vector<unsigned char> Out(256 << 10);
    Z.next_in = reinterpret_cast<Bytef *>(Buf.data());
    Z.avail_in = static_cast<uInt>(Buf.size());
    int Rc;
    do {
      Z.next_out = Out.data();
      Z.avail_out = static_cast<uInt>(Out.size());
      Rc = deflate(&Z, Mode);
      raw(reinterpret_cast<char *>(Out.data()), Out.size() - Z.avail_out);
    } while (!Failed && (Z.avail_in > 0 || (Mode == Z_FINISH && Rc != Z_STREAM_END)));
    Buf.clear();
  }

  int Fd = -1;
  bool Deflating = false, Failed = false;
  z_stream Z{};
  std::string Buf, Error;
};

std::string outputFor(const std::string &In, bool Gzip) {
  std::string Base = In;
  if (Base.size() > 4 && Base.compare(Base.size() - 4, 4, ".pfc") == 0)
    Base.resize(Base.size() - 4);
  return Base + (Gzip ? ".pfw.gz" : ".pfw");
}

void *initStaticCCtx(void *Mem, size_t Bytes) {
  return ZSTD_initStaticCCtx(Mem, Bytes);
}
size_t compressCCtx(void *C, void *To, size_t Cap, const void *From,
                    size_t Len, int Level) {
  return ZSTD_compressCCtx(static_cast<ZSTD_CCtx *>(C), To, Cap, From, Len,
                           Level);
}

void writeTo(void *Arg, struct iovec *Iov, int Count) {
  Output *O = static_cast<Output *>(Arg);
  for (int I = 0; I < Count; ++I)
    O->write(static_cast<const char *>(Iov[I].iov_base), Iov[I].iov_len);
}

/// In as .pfc into To; 0, 1 (In was damaged: what came before is written)
/// or 2.
int toCompact(const std::string &In, const std::string &To, bool Force) {
  dftrace::LineReader R(In);
  std::string Err;
  if (!R.open(Err)) {
    std::fprintf(stderr, "dftracer-convert: %s: %s\n", In.c_str(), Err.c_str());
    return 2;
  }
  Output O;
  if (!O.open(To, false, Force, Err)) {
    std::fprintf(stderr, "dftracer-convert: %s: %s\n", To.c_str(), Err.c_str());
    return 2;
  }
  dftracer_compact_zstd Z{ZSTD_estimateCCtxSize, initStaticCCtx, compressCCtx,
                          ZSTD_compressBound, ZSTD_isError, 1};
  dftracer_compact *C = dftracer_compact_start_with(&Z, writeTo, &O);
  if (!C) {
    std::fprintf(stderr, "dftracer-convert: out of memory\n");
    return 2;
  }
  dftrace::Line L;
  std::string Buf;
  while (R.next(L)) {
    if (L.Number == 1 && L.Size == 1 && L.Data[0] == '[')
      continue;
    Buf.assign(L.Data, L.Size);
    if (L.Terminated)
      Buf.push_back('\n');
    dftracer_compact_feed(C, Buf.data(), Buf.size());
  }
  dftracer_compact_finish(C);
  int Status = 0;
  if (!O.close(Err)) {
    std::fprintf(stderr, "dftracer-convert: %s: %s\n", To.c_str(), Err.c_str());
    Status = 2;
  }
  if (!R.error().empty()) {
    std::fprintf(stderr, "dftracer-convert: %s: %s\n", In.c_str(),
                 R.error().c_str());
    Status = Status ? Status : 1;
  }
  return Status;
}

std::string compactOutputFor(const std::string &In) {
  std::string Base = In;
  for (const char *Ext : {".pfw.gz", ".pfw"}) {
    size_t N = std::strlen(Ext);
    if (Base.size() > N && Base.compare(Base.size() - N, N, Ext) == 0) {
      Base.resize(Base.size() - N);
      break;
    }
  }
  return Base + ".pfc";
}

const char UsageLines[] =
    "usage: dftracer-convert [--gzip] [--force] [-o OUT] TRACE.pfc...\n"
    "       dftracer-convert --compact [--force] [-o OUT] TRACE.pfw[.gz]...\n";

const char Description[] =
    "Write each compact trace (.pfc) as the .pfw the runtime writes for the\n"
    "same events, byte for byte (TRACE.pfw beside it, or OUT), or with\n"
    "--compact each .pfw or .pfw.gz as .pfc through the runtime's encoder.";

const char Footer[] =
    "exit status: 0 all converted; 1 an input was truncated or corrupt (what\n"
    "it held before the damage is written, and the byte offset is named);\n"
    "2 bad usage, or an input that cannot be read or is not compact, or an\n"
    "output that exists (without --force) or cannot be written";

} // namespace

int main(int Argc, char **Argv) {
  bool Gzip = false, Force = false, Compact = false;
  std::string Out;
  std::vector<std::string> Inputs;

  // The options (CommandLine.h: CLI11, with the spellings of before: no
  // --opt=VALUE, no -oOUT, and `--` is not an option here).
  dfttools::CommandLine::Grammar G;
  G.DashDashEndsOptions = false;
  G.FullHelpOnError = false;
  G.Unknown = [](const std::string &A) { return "unknown option " + A; };
  dfttools::CommandLine CL("dftracer-convert", UsageLines, Description,
                           Footer, G);
  dfttools::CommandLine::ValueForm Separate;
  Separate.Equals = false;
  CL.flag("--gzip",
          "write .pfw.gz (zlib level 1 with the gzip wrapper,\n"
          "as the runtime) instead of .pfw",
          Gzip);
  CL.flag("--compact",
          "the other way: each .pfw or .pfw.gz into TRACE.pfc",
          Compact);
  CL.flag("--force", "replace an output that exists", Force);
  CL.value("-o", "OUT",
           "write to OUT (one input only; \"-\": standard output)",
           [&](const std::string &V) { Out = V; }, Separate);
  CL.helpFlag("-h,--help", "this text");
  CL.positionals("TRACE", "the traces to convert", Inputs);
  int Code = CL.parse(Argc, Argv);
  if (Code >= 0)
    return Code;
  if (Inputs.empty())
    return CL.usageError("no input");
  if (!Out.empty() && Inputs.size() > 1)
    return CL.usageError("-o takes one input");
  if (Compact && Gzip)
    return CL.usageError("--compact writes .pfc: not with --gzip");
  int Status = 0;
  if (Compact) {
    for (const std::string &In : Inputs)
      Status = std::max(Status, toCompact(In, Out.empty() ? compactOutputFor(In)
                                                          : Out, Force));
    return Status;
  }
  for (const std::string &In : Inputs) {
    CompactReader R(In);
    std::string Err;
    if (!R.open(Err)) {
      std::fprintf(stderr, "dftracer-convert: %s: %s\n", In.c_str(), Err.c_str());
      Status = 2;
      continue;
    }
    std::string To = Out.empty() ? outputFor(In, Gzip) : Out;
    Output O;
    if (!O.open(To, Gzip, Force, Err)) {
      std::fprintf(stderr, "dftracer-convert: %s: %s\n", To.c_str(), Err.c_str());
      Status = 2;
      continue;
    }
    O.write("[\n", 2);
    CompactReader::Record Rec;
    std::string Line;
    uint64_t Records = 0;
    while (R.next(Rec)) {
      ++Records;
      if (Rec.K == CompactReader::Record::SpanRecord) {
        Line.clear();
        R.formatSpan(Rec, Line);
        O.write(Line.data(), Line.size());
      } else {
        O.write(Rec.Text.data(), Rec.Text.size());
        if (Rec.Terminated)
          O.write("\n", 1);
      }
    }
    if (!O.close(Err)) {
      std::fprintf(stderr, "dftracer-convert: %s: %s\n", To.c_str(), Err.c_str());
      Status = 2;
    }
    if (!R.error().empty()) {
      std::fprintf(stderr,
                   "dftracer-convert: %s: %s (%llu events before it written "
                   "to %s)\n",
                   In.c_str(), R.error().c_str(),
                   static_cast<unsigned long long>(Records), To.c_str());
      if (Status == 0)
        Status = 1;
    }
  }
  return Status;
}
