//===- LineReader.h - Lines of a .pfw / .pfw.gz file -------------*- C++ -*-===//
//
// Streams one trace file line by line, whatever its compression: a plain
// file is read with read(2); a gzip file (detected from its first two bytes,
// not its name) is inflated with zlib member after member, since the runtime
// and `cat a.gz b.gz` both produce multi-member streams.
//
// \code
//   LineReader R(Path);
//   if (!R.open(Error)) ...
//   while (R.next(L))          // L.Data[0..L.Size) without the '\n'
//     parse(L.Data, L.Size, L.Capacity);
//   if (!R.error().empty()) ... // e.g. "gzip stream is truncated"
// \endcode
//
// Every line handed out is followed by at least Padding readable bytes
// (L.Capacity >= L.Size + Padding), which simdjson needs to parse in place.
// Nothing is copied line by line; memory is one buffer of about 1 MiB, grown
// only for a longer line. A gzip file is inflated by a helper thread, up to
// three 256 KiB chunks ahead, so inflating overlaps parsing.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_LINEREADER_H
#define DFTRACER_READER_LINEREADER_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace dftrace {

struct Line {
  const char *Data = nullptr;
  size_t Size = 0;     // without the '\n' (and without a '\r' before it)
  size_t Capacity = 0; // bytes readable from Data, >= Size + Padding
  uint64_t Number = 0; // 1-based
  bool Terminated = true; // false for a last line with no '\n'
};

class LineReader {
public:
  static constexpr size_t Padding = 64;

  explicit LineReader(std::string Path, size_t ChunkBytes = 1 << 20);
  ~LineReader();
  LineReader(const LineReader &) = delete;
  LineReader &operator=(const LineReader &) = delete;

  /// Opens the file; on failure sets Error ("cannot open: reason").
  bool open(std::string &Error);
  /// After open() and until the first next(): the file's first bytes as
  /// read (at least HeadBytes when the file has them), for a caller that
  /// tells formats apart without opening the file twice.
  const char *head() const { return HeadData; }
  size_t headSize() const { return HeadSize; }
  static constexpr size_t HeadBytes = 8;
  /// The next line; false at the end of the data (or on a read error).
  /// Inline for a line already in the buffer (every line but about one per
  /// MiB): the call was a fifth of the reader's own work per line.
  bool next(Line &L) {
    if (End > Begin) {
      const char *Start = Buf.data() + Begin;
      if (const void *Nl = std::memchr(Start, '\n', End - Begin)) {
        size_t Size = static_cast<const char *>(Nl) - Start;
        L.Terminated = true;
        Begin += Size + 1;
        TextBytes += Size + 1;
        return lineAt(L, Start, Size);
      }
    }
    return nextFilling(L);
  }
  /// Why the data ended early, empty when the file ended cleanly.
  const std::string &error() const { return Error; }
  bool isGzip() const { return Gzip; }
  /// Bytes of (uncompressed) text handed out so far, newlines included.
  uint64_t textBytes() const { return TextBytes; }

private:
  /// next() past the buffered text: fills the buffer, or the last line.
  bool nextFilling(Line &L);
  /// L for the Size bytes at Start (a '\r' before the '\n' dropped).
  bool lineAt(Line &L, const char *Start, size_t Size) {
    if (Size > 0 && Start[Size - 1] == '\r')
      --Size;
    L.Data = Start;
    L.Size = Size;
    L.Capacity = Buf.size() - static_cast<size_t>(Start - Buf.data());
    L.Number = ++LineNo;
    return true;
  }
  bool fill();
  bool readGzip(char *To, size_t Room, size_t &Got);
  bool readRaw(char *To, size_t Room, size_t &Got);

  std::string Path;
  int Fd = -1;
  bool Gzip = false;
  bool AtEof = false;
  std::string Error;
  const char *HeadData = nullptr;
  size_t HeadSize = 0;
  std::vector<char> Buf;
  size_t Begin = 0, End = 0; // unconsumed text in Buf
  uint64_t LineNo = 0;
  uint64_t TextBytes = 0;
  struct Inflater;
  std::unique_ptr<Inflater> Z;
  struct Prefetch;
  std::unique_ptr<Prefetch> Ahead; // gzip only
  bool fillFromPrefetch(char *To, size_t Room, size_t &Got);
};

} // namespace dftrace

#endif
