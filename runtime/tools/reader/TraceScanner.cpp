//===- TraceScanner.cpp - The events of one trace file --------------------===//

#include "TraceScanner.h"

#include "EventParser.h"
#include "IoTaxonomy.h"
#include "LineReader.h"

extern "C" {
#include "compact_format.h"
}

#include <algorithm>
#include <deque>
#include <filesystem>

namespace dftrace {

namespace {

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

std::string excerpt(const char *Data, size_t Size) {
  if (Size <= 80)
    return std::string(Data, Size);
  return std::string(Data, 80) + "...";
}

bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
}

} // namespace

bool TraceScanner::scan(const std::string &Path) {
  TextBytes = 0;
  Lines = 0;
  Facts = UpstreamFacts();
  LazySpan = false;
  if (CompactReader::sniff(Path))
    return scanCompact(Path);
  LineReader Reader(Path);
  std::string Error;
  if (!Reader.open(Error)) {
    onProblem(Issue::BadStream, 0, Error);
    return false;
  }
  EventParser Parser;
  Event E;
  Line L;
  uint64_t ClosedAt = 0;
  bool Rescale = Unit != TimeUnit::Us && Unit != TimeUnit::Unknown;
  while (Reader.next(L)) {
    Lines = L.Number;
    const char *Data = L.Data;
    size_t Size = L.Size;
    while (Size > 0 && isBlank(*Data)) {
      ++Data;
      --Size;
    }
    while (Size > 0 && isBlank(Data[Size - 1]))
      --Size;
    std::string_view Text(Data, Size);
    if (Text.empty())
      continue;
    if (Data[0] != '{') {
      if (Text == "[" || Text == "][") { // "][": `cat a.pfw b.pfw`
        if (ClosedAt || Text == "][")
          Facts.concatenated();
        ClosedAt = 0;
        continue;
      }
      if (Text == "]") {
        if (!ClosedAt)
          ClosedAt = L.Number;
        continue;
      }
      if (L.Number == 1) {
        if (Data[0] == '[') { // "[{...}": the first event on line 1
          ++Data;
          --Size;
          while (Size > 0 && isBlank(*Data)) {
            ++Data;
            --Size;
          }
        } else {
          onProblem(Issue::InvalidLine, 1,
                    "first line must be \"[\" or an event");
        }
      }
    } else if (L.Number == 1) {
      // NDJSON (upstream dev), or upstream v1 never finished ("  {").
      Facts.noHeader(L.Data[0] == ' ');
    }
    if (ClosedAt)
      onProblem(Issue::InvalidLine,
                L.Number, "event after the closing \"]\" of line " +
                              std::to_string(ClosedAt));
    size_t Capacity = L.Capacity - static_cast<size_t>(Data - L.Data);
    if (!Parser.parse(Data, Size, Capacity, E)) {
      if (!L.Terminated)
        onProblem(Issue::TruncatedLine, L.Number,
                  "truncated last line (the writer was killed?): " +
                      excerpt(Data, Size));
      else
        onProblem(Issue::InvalidLine, L.Number,
                  Parser.error() + ": " + excerpt(Data, Size));
      continue;
    }
    if (Rescale)
      rescaleTimes(E, Unit);
    Facts.observe(E, L.Number);
    Current = std::string_view(Data, Size);
    onEvent(E, L.Number);
  }
  TextBytes = Reader.textBytes();
  if (!Reader.error().empty())
    onProblem(Issue::BadStream, Lines,
              "file is truncated or corrupt after this line: " +
                  Reader.error());
  if (Lines == 0)
    onProblem(Issue::InvalidLine, 0, "empty file: line 1 must be \"[\"");
  for (std::string &C : Facts.caveats(Unit, UnitGiven))
    onCaveat(std::move(C));
  return true;
}

namespace {

void setInt(Field &F, int64_t V) {
  F.K = Field::Int;
  F.I = V;
  F.U = V >= 0 ? static_cast<uint64_t>(V) : 0;
  F.D = static_cast<double>(V);
}

/// As simdjson reads an unsigned integer: Int when it fits.
void setU64(Field &F, uint64_t V) {
  if (V <= uint64_t(INT64_MAX)) {
    F.K = Field::Int;
    F.I = static_cast<int64_t>(V);
    F.U = V;
    F.D = static_cast<double>(static_cast<int64_t>(V));
    return;
  }
  F.K = Field::UInt;
  F.U = V;
  F.I = INT64_MAX;
  F.D = static_cast<double>(V);
}

void setString(Field &F, std::string_view S) {
  F.K = Field::String;
  F.S = S;
}

/// Decimal digits of V, without dividing: by its count of leading zero
/// bits, the digits of the largest value with that bit length, less one
/// when V is below the power of ten that length reaches (a division per
/// digit was a third of the compact reader's own time; the power of ten
/// found by a multiplication, a tenth).
size_t digitsU(uint64_t V) {
  struct Row {
    uint8_t Digits;     // of 2^(64 - Lz) - 1
    uint64_t Threshold; // below it, one digit less (0: never)
  };
  static constexpr auto Table = [] {
    struct {
      Row R[64];
    } T{};
    for (int Lz = 0; Lz < 64; ++Lz) {
      uint64_t Max = ~0ull >> Lz, Pow = 1;
      uint8_t D = 1;
      while (Max / Pow >= 10) {
        Pow *= 10;
        ++D;
      }
      uint64_t Min = Lz == 63 ? 1 : uint64_t(1) << (63 - Lz); // 0 has a digit
      T.R[Lz] = {D, Min < Pow ? Pow : 0};
    }
    return T;
  }();
  const Row &R = Table.R[__builtin_clzll(V | 1)];
  return R.Digits - (V < R.Threshold);
}

size_t digitsI(int64_t V) {
  return V < 0 ? 1 + digitsU(0 - static_cast<uint64_t>(V))
               : digitsU(static_cast<uint64_t>(V));
}

/// What a compact trace's string means wherever a span uses it, worked
/// out once per entry of the file's string table (it only grows), so a
/// span costs an index per name, category and key: no unescaping, no key
/// lookup, no category comparison per event.
struct StringUse {
  static constexpr int NoField = -1, AsText = -2;
  std::string_view Plain; // unescaped ("read" for "\"read\"")
  uint32_t RawSize = 0;   // bytes in the .pfw line, quotes included
  // As an args key: the byte offset of its Field in Event, NoField (a key
  // the parser skips), or AsText (one it treats specially, or a string
  // that is not valid JSON): the span is printed and parsed.
  int Offset = NoField;
  bool Ok = false;   // a valid JSON string (else the parser says what)
  bool Hash = false; // key fhash or dhash: a string value is hex, parsed
  Layer L = Layer::Other; // as a category
  bool Tracer = false;    // as a category: upstream's own spans
};

class StringUses {
public:
  /// Entries for the strings the reader defined since the last call.
  void update(const CompactReader &Rd) {
    if (Uses.size() < Rd.stringCount())
      grow(Rd);
  }
  const StringUse &operator[](uint32_t I) const { return Uses[I]; }

private:
  void grow(const CompactReader &Rd) {
    std::string S;
    while (Uses.size() < Rd.stringCount()) {
      std::string_view Raw = Rd.rawString(uint32_t(Uses.size()));
      StringUse U;
      U.RawSize = uint32_t(Raw.size());
      U.Ok = unescapeJsonString(Raw, S);
      if (U.Ok && S == Raw.substr(1, Raw.size() - 2)) {
        U.Plain = Raw.substr(1, Raw.size() - 2); // the reader's, stable
      } else {
        Unescaped.push_back(S);
        U.Plain = Unescaped.back();
      }
      if (!U.Ok || U.Plain == "cfg") {
        U.Offset = StringUse::AsText;
      } else if (Field *F = eventArgField(Dummy, U.Plain)) {
        U.Offset = int(reinterpret_cast<char *>(F) -
                       reinterpret_cast<char *>(&Dummy));
        U.Hash = F == &Dummy.FHash || F == &Dummy.DHash;
      }
      U.L = layerOfCategory(U.Plain);
      U.Tracer = U.Plain == "dftracer";
      Uses.push_back(U);
    }
  }

  std::vector<StringUse> Uses;
  std::deque<std::string> Unescaped; // strings with escapes: grows, stable
  Event Dummy;
};

/// The Event of the compact spans in a row: each span sets the same top
/// level fields, so only the args fields the last one set are cleared
/// (Event::clear() of all 38 fields was a tenth of the reader's work).
class SpanEvent {
public:
  Event E;

  /// E from span R's fields, as EventParser reads its .pfw line, and in
  /// Bytes that line's length, '\n' included (event_format.c's layout);
  /// false for a span that only the parser can read the same way (a value
  /// kept as JSON text, a string that needs checking or is a hex hash):
  /// it is printed and parsed.
  bool fill(const CompactReader::Record &R, const StringUses &U,
            uint64_t &Bytes) {
    const StringUse &Name = U[R.Name], &Cat = U[R.Cat];
    // The fields no args key sets (eventArgField) keep the last span's
    // values: only those that differ are set again.
    if (Parsed) {
      E.clear();
      setString(E.Ph, "X");
      E.Ph2 = Phase::Complete;
      E.ArgsKind = Field::Other;
      LastThread = LastName = LastCat = UINT32_MAX;
    } else {
      for (unsigned I = 0; I < NumSet; ++I)
        at(Set[I]).K = Field::Missing;
    }
    NumSet = 0;
    Parsed = true; // until the span is known to be taken
    if (!Name.Ok || !Cat.Ok)
      return false;
    setU64(E.Id, R.Id);
    if (R.Name != LastName)
      setString(E.Name, Name.Plain);
    if (R.Cat != LastCat)
      setString(E.Cat, Cat.Plain);
    if (R.Thread != LastThread) {
      setInt(E.Pid, R.Pid);
      setInt(E.Tid, R.Tid);
    }
    LastName = R.Name;
    LastCat = R.Cat;
    LastThread = R.Thread;
    setU64(E.Ts, R.Ts);
    setU64(E.Dur, R.Dur);
    setU64(E.Level, R.Level);
    setU64(E.ParentIdx, R.ParentId);
    size_t N = sizeof("{\"id\":,\"name\":,\"cat\":,\"pid\":,\"tid\":,\"ts\":,"
                      "\"dur\":,\"ph\":\"X\",\"args\":{\"level\":,\"p_idx\":}}\n") -
               1;
    N += digitsU(R.Id) + Name.RawSize + Cat.RawSize + pidTidDigits(R) +
         digitsU(R.Ts) + digitsU(R.Dur) + digitsU(R.Level) +
         digitsU(R.ParentId);
    for (size_t I = 0; I < R.NArgs; ++I) {
      const CompactReader::Arg &A = R.Args[I];
      const StringUse &Key = U[A.Key];
      N += 2 + Key.RawSize;
      if (A.Kind == DftArgRaw || Key.Offset == StringUse::AsText)
        return false;
      if (A.Kind == DftArgInt) {
        N += digitsI(A.Int);
      } else {
        const StringUse &V = U[A.Str];
        N += V.RawSize;
        if (!V.Ok || Key.Hash) // (the parser rejects a bad string anywhere)
          return false;
      }
      if (Key.Offset == StringUse::NoField)
        continue;
      Field &F = at(Key.Offset);
      if (A.Kind == DftArgInt)
        setInt(F, A.Int);
      else
        setString(F, U[A.Str].Plain);
      Set[NumSet++] = Key.Offset;
    }
    Parsed = false;
    Bytes = N;
    return true;
  }
  /// E is about to be filled by the parser (it clears E itself).
  void parsed() { Parsed = true; }

private:
  Field &at(int Offset) {
    return *reinterpret_cast<Field *>(reinterpret_cast<char *>(&E) + Offset);
  }
public:
  /// Per thread index of the file: its pid, and the spans fill() took
  /// that UpstreamFacts::observe would only have counted.
  struct Thread {
    int64_t Pid = 0;
    uint64_t Counted = 0;
    uint8_t PidTidDigits = 0; // 0: not yet known
  };
  std::vector<Thread> Threads;

private:
  /// Digits of the span's pid and tid, per thread of the file.
  size_t pidTidDigits(const CompactReader::Record &R) {
    if (R.Thread >= Threads.size())
      Threads.resize(R.Thread + 1);
    Thread &T = Threads[R.Thread];
    if (!T.PidTidDigits) {
      T.Pid = R.Pid;
      T.PidTidDigits = uint8_t(digitsI(R.Pid) + digitsI(R.Tid));
    }
    return T.PidTidDigits;
  }

  bool Parsed = true; // E holds what the parser (or a failed fill) left
  uint32_t LastThread = 0, LastName = 0, LastCat = 0; // E's, when !Parsed
  unsigned NumSet = 0;
  int Set[64]; // offsets of the args fields the last span set
};

} // namespace

/// A compact trace (CompactReader.h): its records are the lines of the
/// .pfw the runtime would have written, numbered as there ("[" is line 1),
/// so every tool reports the same lines and totals for either form.
bool TraceScanner::scanCompact(const std::string &Path) {
  CompactReader Reader(Path);
  std::string Error;
  if (!Reader.open(Error)) {
    onProblem(Issue::BadStream, 0, Error);
    return false;
  }
  EventParser Parser;
  SpanEvent Span;
  Event &E = Span.E;
  CompactReader::Record R;
  StringUses Uses;
  std::string Text; // a line for the parser, with its padding
  bool Rescale = Unit != TimeUnit::Us && Unit != TimeUnit::Unknown;
  uint64_t LineNo = 1;
  TextBytes = 2; // "[\n"
  LazyReader = &Reader;
  LazyRecord = &R;
  while (Reader.next(R)) {
    Lines = ++LineNo;
    LazySpan = false;
    CheckedSpan = nullptr;
    uint64_t Bytes;
    if (R.K == CompactReader::Record::SpanRecord &&
        (Uses.update(Reader), Span.fill(R, Uses, Bytes))) {
      TextBytes += Bytes;
      LazySpan = true;
      const StringUse &Cat = Uses[R.Cat];
      if (!Rescale) { // the checks a span so decoded can fail (below)
        CheckedSpan = &E;
        CheckedLayer = Cat.L;
        CheckedTracer = Cat.Tracer;
      }
      if (!Cat.Tracer) { // no "end", no time metric: observe only counts it
        ++Span.Threads[R.Thread].Counted;
        if (Rescale)
          rescaleTimes(E, Unit);
        onEvent(E, LineNo);
        continue;
      }
    } else {
      Span.parsed();
      Text.clear();
      if (R.K == CompactReader::Record::SpanRecord)
        Reader.formatSpan(R, Text);
      else
        Text.assign(R.Text).push_back('\n');
      TextBytes += Text.size() - (R.Terminated ? 0 : 1);
      size_t Size = Text.size() - 1;
      Text.append(LineReader::Padding, '\0');
      std::string_view T(Text.data(), Size);
      if (Size == 0 || T == "[" || T == "]") // kept by dftracer-convert
        continue;                             // --compact from a .pfw
      if (!Parser.parse(Text.data(), Size, Text.size(), E)) {
        if (!R.Terminated)
          onProblem(Issue::TruncatedLine, LineNo,
                    "truncated last line (the writer was killed?): " +
                        excerpt(Text.data(), Size));
        else
          onProblem(Issue::InvalidLine, LineNo,
                    Parser.error() + ": " + excerpt(Text.data(), Size));
        continue;
      }
      Current = std::string_view(Text.data(), Size);
    }
    if (Rescale)
      rescaleTimes(E, Unit);
    Facts.observe(E, LineNo);
    onEvent(E, LineNo);
  }
  for (const SpanEvent::Thread &T : Span.Threads)
    if (T.Counted)
      Facts.counted(T.Pid, T.Counted);
  LazySpan = false;
  CheckedSpan = nullptr;
  LazyReader = nullptr;
  LazyRecord = nullptr;
  Lines = LineNo;
  if (!Reader.error().empty())
    onProblem(Issue::BadStream, Lines,
              "file is truncated or corrupt after this line: " +
                  Reader.error());
  for (std::string &C : Facts.caveats(Unit, UnitGiven))
    onCaveat(std::move(C));
  return true;
}

void TraceScanner::printLazySpan() const {
  LazyText.clear();
  LazyReader->formatSpan(*LazyRecord, LazyText);
  LazyText.pop_back(); // the '\n'
  Current = LazyText;
  LazySpan = false;
}

/// True when checkEvent would find nothing wrong with E, a span decoded
/// from a compact record (CheckedSpan): the decoding made its ids, names,
/// pid, tid, phase and args the right types, so only its values are left
/// to check, and its category's layer is known from the string table.
/// False sends it to checkEvent, which says what is wrong.
bool TraceScanner::cleanCompactSpan(const Event &E) const {
  if (E.Ts.U > MaxTimeUs || E.Dur.U > MaxTimeUs || E.Level.K != Field::Int ||
      E.Level.I < 1 || !E.ParentIdx.isUnsigned())
    return false; // (an args key "level" or "p_idx" again can be anything)
  if (CheckedTracer)
    return true;
  if (CheckedLayer == Layer::Other)
    return false;
  if (isIoLayer(CheckedLayer))
    for (const Field *F : {&E.Count, &E.Size, &E.Bytes, &E.Length, &E.FHash})
      if (F->present() && !F->isUnsigned())
        return false;
  return true;
}

bool TraceScanner::checkedEvent(const Event &E, uint64_t Line) {
  if (&E == CheckedSpan && cleanCompactSpan(E)) {
    Facts.usable(E, Line);
    return true;
  }
  Problems.clear();
  bool Usable = checkEvent(E, Problems);
  if (Usable)
    Facts.usable(E, Line);
  for (EventProblem &P : Problems)
    onProblem(P.Kind, Line, std::move(P.Message));
  return Usable;
}

std::vector<std::string>
expandTraceArguments(const std::vector<std::string> &Args,
                     std::vector<std::string> &Errors) {
  namespace fs = std::filesystem;
  std::vector<std::string> Files;
  for (const std::string &Arg : Args) {
    std::error_code Ec;
    if (!fs::is_directory(Arg, Ec)) {
      Files.push_back(Arg);
      continue;
    }
    std::vector<std::string> Found;
    for (const fs::directory_entry &D : fs::directory_iterator(Arg, Ec)) {
      std::string P = D.path().string();
      if (D.is_regular_file() &&
          (endsWith(P, ".pfw") || endsWith(P, ".pfw.gz") ||
           endsWith(P, ".pfc")))
        Found.push_back(P);
    }
    if (Found.empty())
      Errors.push_back(Arg + ": directory holds no .pfw, .pfw.gz or .pfc file");
    std::sort(Found.begin(), Found.end());
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return Files;
}

} // namespace dftrace
