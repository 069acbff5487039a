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
// takes apart lines it can print back that way); dftracer-convert prints.
// The reader (TraceScanner) calls nextEvent instead, which decodes a span
// straight into the Event EventParser would make of its line, in the same
// pass over its bytes:
//
// \code
//   CompactEvent S;
//   while (R.nextEvent(Rec, S))
//     if (S.Taken) ...               // S.E, S.Bytes: the span, its line's size
//     else ...                       // print it (or take Rec.Text) and parse
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_READER_COMPACTREADER_H
#define DFTRACER_READER_COMPACTREADER_H

#include "Event.h"
#include "IoTaxonomy.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace dftrace {

class CompactEvent;

class CompactReader {
public:
  /// What a string of the table means wherever a span uses it, worked out
  /// once, when the table defines it (it only grows), so a span costs an
  /// index per name, category and key: no unescaping, no key lookup, no
  /// category comparison per event.
  struct StringUse {
    static constexpr int16_t NoField = -1, AsText = -2;
    std::string_view Plain; // unescaped ("read" for "\"read\"")
    uint32_t RawSize = 0;   // bytes in the .pfw line, quotes included
    // As an args key: the byte offset of its Field in Event, NoField (a key
    // the parser skips), or AsText (one it treats specially, or a string
    // that is not valid JSON): the span is printed and parsed.
    int16_t Offset = NoField;
    uint8_t Slot = 0;       // as an integer key: its delta slot + 1, or 0
    bool Ok = false;        // a valid JSON string (else the parser says what)
    bool Hash = false;      // key fhash or dhash: a string value is hex, parsed
    bool Tracer = false;    // as a category: upstream's own spans
    Layer L = Layer::Other; // as a category
    // As an args key, what checkEvent checks of its value in a span:
    // NeedsUnsigned (an I/O call's size, count or hash), Again (level or
    // p_idx a second time: anything), else nothing.
    uint8_t Check = 0;
    // As a category, the CompactEvent::Suspect bits that send its spans to
    // checkEvent (NotAnIoLayer: all, as checkEvent judges the category).
    uint8_t Reject = 0;
  };
  enum : uint8_t { NeedsUnsigned = 1, Again = 2, NotAnIoLayer = 0x80 };

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
  /// True when a file's first Size bytes at Data start with it.
  static bool isCompactHead(const char *Data, size_t Size);

  /// Opens the file and reads its header; on failure sets Error.
  bool open(std::string &Error);
  /// The next record; false at the end of the data or on an error.
  bool next(Record &R);
  /// next(R), but a span EventParser would read the same way from its
  /// line fills S.E instead (S.Taken), and R only when S does not take it.
  bool nextEvent(Record &R, CompactEvent &S);
  /// The .pfw line of the span nextEvent took last, '\n' included,
  /// appended to Out (until the next call of nextEvent).
  void formatLastSpan(std::string &Out) const;
  /// Why the data ended early (with the byte offset), empty at a clean end.
  const std::string &error() const { return Error; }

  /// String I as written: escaped, with its quotes. The view lives as
  /// long as the reader (the table only grows).
  std::string_view rawString(uint32_t I) const { return Strings[I]; }
  /// Strings defined so far (indices 0 .. stringCount() - 1).
  size_t stringCount() const { return NumStrings; }
  /// What string I means as a name, category, key or value.
  const StringUse &use(uint32_t I) const { return Uses[I]; }
  /// The pid of thread index I (Record::Thread).
  int64_t threadPid(uint32_t I) const;

  /// The .pfw line of span R, '\n' included, appended to Out.
  void formatSpan(const Record &R, std::string &Out) const;

  /// Bytes of the file read so far, and raw (decompressed) bytes decoded.
  uint64_t fileBytes() const { return FileOffset; }

private:
  friend class CompactEvent;
  bool readBlock();
  struct Thread;
  struct SpanHead {
    uint64_t Id, Ts, Parent;
  };
  template <bool Fill> bool read(Record &R, CompactEvent *S);
  template <bool Fill> bool nextSpan(Record &R, CompactEvent *S);
  enum class Step { Record, Again, Stop };
  Step decodeRecord(Record &R);
  void defineString(std::string_view S);
  SpanHead spanHead(Thread &T, const uint64_t *V);
  void spanFields(Record &R, const Thread &T, const uint64_t *V,
                  const SpanHead &H) const;
  int64_t intArg(StringUse &Key, Thread &T, uint64_t B);
  void lastSpan(Record &R) const;
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
  std::vector<StringUse> Uses;     // per string (as long as Strings)
  std::deque<std::string> Unescaped; // Plain of strings with escapes
  unsigned NumKeySlots = 0;
  std::vector<Thread> Threads;
  size_t NumThreads = 0; // Threads.size(), without its division
  const uint8_t *LastSpan = nullptr; // the record nextEvent took last
  mutable Record Last;               // its fields, for formatLastSpan
  std::string Parts;  // a long text line's first parts
  std::string Joined; // the whole line, once its last part is read
  bool AtEnd = false;
  struct Zstd;
  std::unique_ptr<Zstd> Z;
};

/// The Event of a compact trace's spans in a row, filled by
/// CompactReader::nextEvent from each span's bytes as EventParser reads
/// its .pfw line. Each span sets the same top-level fields, so only the
/// fields that differ from the last span's are set again, and only the args
/// fields the last one set are cleared (Event::clear() of all 38 fields was
/// a tenth of the reader's work).
class CompactEvent {
public:
  Event E;
  /// E holds the span nextEvent read last; false for any other record, and
  /// for a span only the parser reads the same way (a value kept as JSON
  /// text, a string that needs checking or is a hex hash): print it and
  /// parse it.
  bool Taken = false;
  /// The span's .pfw line length, '\n' included (event_format.c's
  /// layout), its thread index and what its category means, when Taken.
  uint64_t Bytes = 0;
  uint32_t Thread = 0;
  const CompactReader::StringUse *CatUse = nullptr;
  /// What checkEvent may find wrong with the span's values, as the keys'
  /// StringUse::Check bits (NeedsUnsigned: a negative or string value;
  /// Again: level or p_idx in its args, its ts or dur past 2^53, its level
  /// below 1; NotAnIoLayer always): with none of its category's Reject
  /// bits, checkEvent would accept it.
  uint8_t Suspect = 0;

  /// E is about to be filled by the parser (it clears E itself).
  void parsed() { Parsed = true; }

private:
  friend class CompactReader;
  using Use = CompactReader::StringUse;
  // What a span's pass gathers, in registers until its end.
  struct Pass {
    uint64_t Bytes = 0;
    unsigned NumSet = 0;
    bool Taken = false;
    uint8_t Suspect = 0;
  };
  Pass begin(const CompactReader::Thread &T, const uint64_t *V,
             const CompactReader::SpanHead &H, const Use &Name, const Use &Cat);
  void intArg(Pass &F, const Use &Key, int64_t V);
  void stringArg(Pass &F, const Use &Key, const Use &V);
  void end(const Pass &F);
  Field &at(int Offset) {
    return *reinterpret_cast<Field *>(reinterpret_cast<char *>(&E) + Offset);
  }

  /// The digits of a value like the last one (ids and times grow
  /// slowly): those of the last, while it stays in their range.
  struct DigitRange {
    uint64_t Lo = 1, Width = 0; // values Lo .. Lo + Width - 1
    unsigned Digits = 0;
    unsigned of(uint64_t V) { return V - Lo < Width ? Digits : measure(V); }
    unsigned measure(uint64_t V);
  };
  DigitRange IdDigits, TsDigits, ParentDigits;

  bool Parsed = true; // E holds what the parser (or an untaken span) left
  uint32_t LastThread = 0, LastName = 0, LastCat = 0; // E's, when !Parsed
  unsigned NumSet = 0;
  int16_t Set[64]; // offsets of the args fields the last span set
};

/// The JSON string Raw (quotes included) unescaped into Out; false when
/// it is not a valid JSON string.
bool unescapeJsonString(std::string_view Raw, std::string &Out);

} // namespace dftrace

#endif
