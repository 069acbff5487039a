//===- TraceScanner.cpp - The events of one trace file --------------------===//

#include "TraceScanner.h"

#include "EventParser.h"
#include "LineReader.h"

extern "C" {
#include "compact_format.h"
}

#include <algorithm>
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
    setInt(F, static_cast<int64_t>(V));
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

/// Decimal digits of V, without dividing: from its bit length, the number
/// of digits 2^bits has, less one when V is below that power of ten (a
/// division per digit was a third of the compact reader's own time).
size_t digitsU(uint64_t V) {
  static constexpr uint64_t Pow10[20] = {1ull,
                                         10ull,
                                         100ull,
                                         1000ull,
                                         10000ull,
                                         100000ull,
                                         1000000ull,
                                         10000000ull,
                                         100000000ull,
                                         1000000000ull,
                                         10000000000ull,
                                         100000000000ull,
                                         1000000000000ull,
                                         10000000000000ull,
                                         100000000000000ull,
                                         1000000000000000ull,
                                         10000000000000000ull,
                                         100000000000000000ull,
                                         1000000000000000000ull,
                                         10000000000000000000ull};
  unsigned Bits = 64 - static_cast<unsigned>(__builtin_clzll(V | 1));
  unsigned T = (Bits * 1233) >> 12; // floor(log10(2^Bits)), Bits <= 64
  return T + 1 - (V < Pow10[T] && T > 0);
}

size_t digitsI(int64_t V) {
  return V < 0 ? 1 + digitsU(0 - static_cast<uint64_t>(V))
               : digitsU(static_cast<uint64_t>(V));
}

/// Length of the .pfw line of span R, '\n' included (event_format.c's
/// layout), without printing it.
size_t spanLineBytes(const CompactReader &Rd, const CompactReader::Record &R) {
  size_t N = sizeof("{\"id\":,\"name\":,\"cat\":,\"pid\":,\"tid\":,\"ts\":,"
                    "\"dur\":,\"ph\":\"X\",\"args\":{\"level\":,\"p_idx\":}}\n") -
             1;
  N += digitsU(R.Id) + Rd.rawString(R.Name).size() +
       Rd.rawString(R.Cat).size() + digitsI(R.Pid) + digitsI(R.Tid) +
       digitsU(R.Ts) + digitsU(R.Dur) + digitsU(R.Level) + digitsU(R.ParentId);
  for (size_t I = 0; I < R.NArgs; ++I) {
    const CompactReader::Arg &A = R.Args[I];
    N += 2 + Rd.rawString(A.Key).size();
    if (A.Kind == DftArgInt)
      N += digitsI(A.Int);
    else if (A.Kind == DftArgString)
      N += Rd.rawString(A.Str).size();
    else
      N += A.Raw.size();
  }
  return N;
}

/// Where in an Event each string, as an args key, goes: the byte offset
/// of its Field, NoField, or AsText (keys the parser treats specially).
class KeyMap {
public:
  static constexpr int NoField = -1, AsText = -2, Unknown = -3;
  int offset(CompactReader &Rd, uint32_t Key) {
    if (Key >= Offsets.size())
      Offsets.resize(Key + 256, Unknown);
    int &O = Offsets[Key];
    if (O == Unknown) {
      std::string_view K;
      if (!Rd.string(Key, K) || K == "cfg") {
        O = AsText;
      } else {
        Field *F = eventArgField(Dummy, K);
        O = F ? int(reinterpret_cast<char *>(F) -
                    reinterpret_cast<char *>(&Dummy))
              : NoField;
      }
    }
    return O;
  }

private:
  std::vector<int> Offsets;
  Event Dummy;
};

/// E from span R's fields, as EventParser would read its .pfw line; false
/// for a span that only the parser can read the same way (a value kept as
/// JSON text, a string that needs checking): it is printed and parsed.
bool fillSpan(CompactReader &Rd, const CompactReader::Record &R, Event &E,
              KeyMap &Keys) {
  std::string_view S;
  E.clear();
  setU64(E.Id, R.Id);
  if (!Rd.string(R.Name, S))
    return false;
  setString(E.Name, S);
  if (!Rd.string(R.Cat, S))
    return false;
  setString(E.Cat, S);
  setInt(E.Pid, R.Pid);
  setInt(E.Tid, R.Tid);
  setU64(E.Ts, R.Ts);
  setU64(E.Dur, R.Dur);
  setString(E.Ph, "X");
  E.Ph2 = Phase::Complete;
  E.ArgsKind = Field::Other;
  setU64(E.Level, R.Level);
  setU64(E.ParentIdx, R.ParentId);
  for (size_t I = 0; I < R.NArgs; ++I) {
    const CompactReader::Arg &A = R.Args[I];
    if (A.Kind == DftArgRaw)
      return false;
    int O = Keys.offset(Rd, A.Key);
    if (O == KeyMap::AsText)
      return false;
    if (O == KeyMap::NoField)
      continue;
    Field &F = *reinterpret_cast<Field *>(reinterpret_cast<char *>(&E) + O);
    if (A.Kind == DftArgInt) {
      setInt(F, A.Int);
    } else {
      if (!Rd.string(A.Str, S) || &F == &E.FHash) // a hex hash: the parser's
        return false;
      setString(F, S);
    }
  }
  return true;
}

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
  Event E;
  CompactReader::Record R;
  KeyMap Keys;
  std::string Text; // a line for the parser, with its padding
  bool Rescale = Unit != TimeUnit::Us && Unit != TimeUnit::Unknown;
  uint64_t LineNo = 1;
  TextBytes = 2; // "[\n"
  LazyReader = &Reader;
  LazyRecord = &R;
  while (Reader.next(R)) {
    Lines = ++LineNo;
    LazySpan = false;
    if (R.K == CompactReader::Record::SpanRecord && fillSpan(Reader, R, E, Keys)) {
      TextBytes += spanLineBytes(Reader, R);
      LazySpan = true;
    } else {
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
  LazySpan = false;
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

bool TraceScanner::checkedEvent(const Event &E, uint64_t Line) {
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
