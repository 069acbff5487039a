//===- CompactReader.h - The records of a compact (.pfc) trace ---*- C++ -*-===//
//
// Decodes the runtime's compact format (docs/trace-format.md, "Compact
// traces"; runtime/src/compact_format.h) block by block: each record is a
// span, field by field, or a line kept as its text (metadata).
//
// \code
//   CompactReader R(Path);
//   if (!R.open(Error)) ...          // not compact, or a newer version
//   CompactReader::Record Rec;
//   while (R.next(Rec))
//     if (Rec.K == CompactReader::Record::SpanRecord) R.formatSpan(Rec, Line);
//   if (!R.error().empty()) ...      // "block at byte 81920 is truncated ..."
// \endcode
//
// formatSpan prints a span with the runtime's own event_format.c, so the
// line is byte for byte the one the runtime wrote in .pfw (the encoder only
// takes apart lines it can print back that way). The reader (TraceScanner)
// fills Events from the fields directly; dftracer-convert prints.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_COMPACTREADER_H
#define DFTRACER_READER_COMPACTREADER_H

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dftrace {

class CompactReader {
public:
  struct Arg {
    uint32_t Key = 0;  // string index of the key (escaped, quoted)
    uint8_t Kind = 0;  // DftArgInt, DftArgString, DftArgRaw
    int64_t Int = 0;   // DftArgInt
    uint32_t Str = 0;  // DftArgString: string index
    uint8_t Slot = 0;  // DftArgInt: its key's delta slot + 1, 0 for none
    std::string_view Raw; // DftArgRaw: the JSON text
  };
  struct Record {
    enum Kind : uint8_t { SpanRecord, TextRecord } K = SpanRecord;
    // Span.
    int64_t Pid = 0, Tid = 0;
    uint32_t Thread = 0; // thread index (Pid, Tid): 0, 1, ... per file
    uint64_t Id = 0, ParentId = 0, Ts = 0, Dur = 0, Level = 0;
    uint32_t Name = 0, Cat = 0; // string indices
    std::vector<Arg> Args;      // the first NArgs are this record's
    size_t NArgs = 0;
    // Text: the line without its '\n'; Terminated false for a last line
    // that never ended.
    std::string_view Text;
    bool Terminated = true;
  };

  explicit CompactReader(std::string Path);
  ~CompactReader();
  CompactReader(const CompactReader &) = delete;
  CompactReader &operator=(const CompactReader &) = delete;

  /// True when the file at Path starts with the compact magic.
  static bool sniff(const std::string &Path);

  /// Opens the file and reads its header; on failure sets Error.
  bool open(std::string &Error);
  /// The next record; false at the end of the data or on an error.
  bool next(Record &R);
  /// Why the data ended early (with the byte offset), empty at a clean end.
  const std::string &error() const { return Error; }

  /// String I as written: escaped, with its quotes. The view lives as
  /// long as the reader (the table only grows).
  std::string_view rawString(uint32_t I) const { return Strings[I]; }
  /// Strings defined so far (indices 0 .. stringCount() - 1).
  size_t stringCount() const { return NumStrings; }

  /// The .pfw line of span R, '\n' included, appended to Out.
  void formatSpan(const Record &R, std::string &Out) const;

  /// Bytes of the file read so far, and raw (decompressed) bytes decoded.
  uint64_t fileBytes() const { return FileOffset; }

private:
  bool readBlock();
  struct Thread;
  bool nextSpan(Record &R);
  bool decodeRecord(Record &R);
  void spanFields(Record &R, Thread &T, const uint64_t *V);
  void intArg(Arg &A, Thread &T, uint64_t B);
  uint64_t bytesLeft() const;
  bool readExact(void *To, size_t N, size_t &Got);
  bool fail(const std::string &Why);

  std::string Path;
  int Fd = -1;
  std::string Error;
  uint64_t FileOffset = 0;  // bytes consumed from the file
  uint64_t BlockOffset = 0; // where the current block starts
  // Raw holds a block's bytes and then Padding bytes, so that nextSpan can
  // read a varint without checking the end at every byte.
  static constexpr size_t Padding = 128; // > 9 varints of 10 bytes
  std::vector<uint8_t> Stored, Raw;
  const uint8_t *P = nullptr, *End = nullptr;
  std::deque<std::string> Strings; // grows without moving: views live
  size_t NumStrings = 0;           // Strings.size(), without its arithmetic
  std::vector<uint8_t> KeySlot; // per string: slot + 1 (as long as Strings)
  unsigned NumKeySlots = 0;
  std::vector<Thread> Threads;
  size_t NumThreads = 0; // Threads.size(), without its division
  std::string Parts;  // a long text line's first parts
  std::string Joined; // the whole line, once its last part is read
  bool AtEnd = false;
  struct Zstd;
  std::unique_ptr<Zstd> Z;
};

/// The JSON string Raw (quotes included) unescaped into Out; false when
/// it is not a valid JSON string.
bool unescapeJsonString(std::string_view Raw, std::string &Out);

} // namespace dftrace

#endif
