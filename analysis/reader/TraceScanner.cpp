//===- TraceScanner.cpp - The events of one trace file --------------------===//

#include "TraceScanner.h"

#include "EventParser.h"
#include "IoTaxonomy.h"
#include "LineReader.h"

#include <algorithm>
#include <dirent.h>
#include <filesystem>
#include <iterator>
#include <string_view>
#include <sys/stat.h>

namespace dftrace {

namespace {

/// Sorts Paths by their bytes, as std::sort of the strings does, on
/// 8-byte keys taken after the start they all share (the directory, and
/// "trace-" or the like): 100,000 strings compared where they lie on the
/// heap missed the cache at each compare, ~35 ms before the first file
/// was read (issue 41). Equal keys fall back to the whole strings.
void sortPaths(std::vector<std::string> &Paths) {
  if (Paths.size() < 2)
    return;
  size_t Common = Paths[0].size();
  for (const std::string &P : Paths)
    Common = static_cast<size_t>(
        std::mismatch(P.begin(), P.begin() + static_cast<ptrdiff_t>(
                                                 std::min(Common, P.size())),
                      Paths[0].begin())
            .first -
        P.begin());
  std::vector<std::pair<uint64_t, uint32_t>> Keys(Paths.size());
  for (uint32_t I = 0; I < Paths.size(); ++I) {
    uint64_t K = 0; // big-endian, zeros past the end: a prefix sorts first
    for (size_t B = 0; B < 8; ++B)
      K = K << 8 | (Common + B < Paths[I].size()
                        ? static_cast<unsigned char>(Paths[I][Common + B])
                        : 0u);
    Keys[I] = {K, I};
  }
  std::sort(Keys.begin(), Keys.end(), [&](const auto &A, const auto &B) {
    return A.first != B.first ? A.first < B.first
                              : Paths[A.second] < Paths[B.second];
  });
  std::vector<std::string> Sorted;
  Sorted.reserve(Paths.size());
  for (const auto &Key : Keys)
    Sorted.push_back(std::move(Paths[Key.second]));
  Paths.swap(Sorted);
}

bool isBlank(char C) { return C == ' ' || C == '\t' || C == '\r'; }

std::string excerpt(const char *Data, size_t Size) {
  if (Size <= 80)
    return std::string(Data, Size);
  return std::string(Data, 80) + "...";
}

bool endsWith(std::string_view S, std::string_view Suffix) {
  return S.size() >= Suffix.size() &&
         S.substr(S.size() - Suffix.size()) == Suffix;
}

} // namespace

bool TraceScanner::scan(const std::string &Path) {
  TextBytes = 0;
  Lines = 0;
  Facts = UpstreamFacts();
  LazySpan = false;
  // The format is told by the first bytes. A .pfc is looked at first; any
  // other file by the bytes the line reader reads first anyway (opening,
  // reading and closing every file once more to look was a third of the
  // system calls on 3,000 small files, issue 41).
  if (endsWith(Path, ".pfc") && CompactReader::sniff(Path))
    return scanCompact(Path);
  LineReader Reader(Path);
  std::string Error;
  if (!Reader.open(Error)) {
    onProblem(Issue::BadStream, 0, Error);
    return false;
  }
  if (CompactReader::isCompactHead(Reader.head(), Reader.headSize()))
    return scanCompact(Path);
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
  CompactEvent Span;
  Event &E = Span.E;
  CompactReader::Record R;
  // Per thread index: the spans taken that UpstreamFacts::observe would
  // only have counted.
  std::vector<uint64_t> Counted;
  std::string Text; // a line for the parser, with its padding
  bool Rescale = Unit != TimeUnit::Us && Unit != TimeUnit::Unknown;
  uint64_t LineNo = 1;
  TextBytes = 2; // "[\n"
  LazyReader = &Reader;
  while (Reader.nextEvent(R, Span)) {
    Lines = ++LineNo;
    LazySpan = false;
    CheckedSpan = nullptr;
    if (Span.Taken) {
      TextBytes += Span.Bytes;
      LazySpan = true;
      const CompactReader::StringUse &Cat = *Span.CatUse;
      if (!Rescale) { // the checks a span so decoded can fail: its values'
        CheckedSpan = &E;
        CheckedClean = (Span.Suspect & Cat.Reject) == 0;
      }
      if (!Cat.Tracer) { // no "end", no time metric: observe only counts it
        if (Span.Thread >= Counted.size())
          Counted.resize(Span.Thread + 1);
        ++Counted[Span.Thread];
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
  for (uint32_t T = 0; T < Counted.size(); ++T)
    if (Counted[T])
      Facts.counted(Reader.threadPid(T), Counted[T]);
  LazySpan = false;
  CheckedSpan = nullptr;
  LazyReader = nullptr;
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
  LazyReader->formatLastSpan(LazyText);
  LazyText.pop_back(); // the '\n'
  Current = LazyText;
  LazySpan = false;
}

bool TraceScanner::checkedEvent(const Event &E, uint64_t Line) {
  // A span decoded from a compact record (CheckedSpan): the decoding made
  // its ids, names, pid, tid, phase and args the right types, and found
  // what checkEvent may object to in its values (CompactEvent::Suspect) and
  // category (StringUse::Reject); when nothing, E is usable as it is.
  if (&E == CheckedSpan && CheckedClean) {
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
    // readdir, not directory_iterator: ~300 instructions an entry against
    // ~3,700, a tenth of a second at 100,000 files (issue 41). The names
    // are directory_iterator's (ARG/NAME, one '/' added unless ARG ends
    // with one); a link or an entry of unknown type is stat'ed, followed.
    std::vector<std::string> Found;
    if (DIR *Dir = ::opendir(Arg.c_str())) {
      std::string Prefix = Arg;
      if (Prefix.empty() || Prefix.back() != '/')
        Prefix += '/';
      while (const struct dirent *D = ::readdir(Dir)) {
        std::string_view Name = D->d_name;
        if (Name == "." || Name == ".." ||
            !(endsWith(Name, ".pfw") || endsWith(Name, ".pfw.gz") ||
              endsWith(Name, ".pfc")))
          continue;
        std::string P = Prefix;
        P += Name;
        bool Regular = D->d_type == DT_REG;
        if (D->d_type == DT_LNK || D->d_type == DT_UNKNOWN) {
          struct stat St;
          Regular = ::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode);
        }
        if (Regular)
          Found.push_back(std::move(P));
      }
      ::closedir(Dir);
    }
    if (Found.empty())
      Errors.push_back(Arg + ": directory holds no .pfw, .pfw.gz or .pfc file");
    sortPaths(Found);
    Files.insert(Files.end(), std::make_move_iterator(Found.begin()),
                 std::make_move_iterator(Found.end()));
  }
  return Files;
}

} // namespace dftrace
