//===- TraceReader.cpp - Read and validate .pfw / .pfw.gz files -----------===//

#include "TraceReader.h"

#include <nlohmann/json.hpp>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <utility>

namespace dftcheck {

using nlohmann::json;

static bool endsWith(const std::string &S, const std::string &Suffix) {
  return S.size() >= Suffix.size() &&
         S.compare(S.size() - Suffix.size(), Suffix.size(), Suffix) == 0;
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
    for (const fs::directory_entry &E : fs::directory_iterator(Arg, Ec)) {
      std::string P = E.path().string();
      if (E.is_regular_file() &&
          (endsWith(P, ".pfw") || endsWith(P, ".pfw.gz")))
        Found.push_back(P);
    }
    if (Found.empty())
      Errors.push_back(Arg + ": directory holds no .pfw or .pfw.gz file");
    std::sort(Found.begin(), Found.end());
    Files.insert(Files.end(), Found.begin(), Found.end());
  }
  return Files;
}

namespace {

/// Reads lines through zlib, which passes plain files through unchanged.
class LineSource {
public:
  explicit LineSource(const std::string &Path)
      : File(gzopen(Path.c_str(), "rb")) {}
  ~LineSource() {
    if (File)
      gzclose(File);
  }
  LineSource(const LineSource &) = delete;
  LineSource &operator=(const LineSource &) = delete;

  bool isOpen() const { return File != nullptr; }

  /// Next line without its '\n'; false at the end or on a read error.
  bool next(std::string &Line) {
    Line.clear();
    char Buf[8192];
    while (gzgets(File, Buf, sizeof(Buf))) {
      size_t N = std::strlen(Buf);
      if (N > 0 && Buf[N - 1] == '\n') {
        Line.append(Buf, N - 1);
        return true;
      }
      Line.append(Buf, N);
    }
    return !Line.empty();
  }

  /// Error text of the stream, empty when it ended cleanly.
  std::string error() {
    int Code = Z_OK;
    const char *Msg = gzerror(File, &Code);
    if (Code == Z_OK)
      return "";
    return Msg ? Msg : "read error";
  }

private:
  gzFile File;
};

struct Opener {
  std::string Name;
  double Ts;
  size_t Line;
};

/// Validates one event line and stores what it describes.
class LineParser {
public:
  LineParser(TraceSet &Set, size_t FileIndex)
      : Set(Set), FileIndex(FileIndex) {}

  void parse(const std::string &Text, size_t LineNo);
  void finish();

private:
  void fail(size_t LineNo, const std::string &Message) {
    Set.problem(FileIndex, LineNo, Message);
  }
  bool requireString(const json &Obj, const char *Key, std::string &Out,
                     size_t LineNo);
  bool requireInt(const json &Obj, const char *Key, int64_t &Out,
                  size_t LineNo);
  bool requireTime(const json &Obj, const char *Key, double &Out,
                   size_t LineNo);
  void parseSpan(const json &Obj, size_t LineNo);
  void parseMetadata(const json &Obj, size_t LineNo);
  void parseBeginEnd(const json &Obj, const std::string &Ph, size_t LineNo);

  TraceSet &Set;
  size_t FileIndex;
  std::map<std::pair<int64_t, int64_t>, std::vector<Opener>> OpenBegins;
  std::map<std::pair<int64_t, uint64_t>, size_t> IdLines; // (pid, id) -> line
};

bool LineParser::requireString(const json &Obj, const char *Key,
                               std::string &Out, size_t LineNo) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_string()) {
    fail(LineNo,
         std::string("\"") + Key +
             (It == Obj.end() ? "\" is missing" : "\" is not a string"));
    return false;
  }
  Out = It->get<std::string>();
  return true;
}

bool LineParser::requireInt(const json &Obj, const char *Key, int64_t &Out,
                            size_t LineNo) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_number_integer()) {
    fail(LineNo,
         std::string("\"") + Key +
             (It == Obj.end() ? "\" is missing" : "\" is not an integer"));
    return false;
  }
  Out = It->get<int64_t>();
  return true;
}

bool LineParser::requireTime(const json &Obj, const char *Key, double &Out,
                             size_t LineNo) {
  auto It = Obj.find(Key);
  if (It == Obj.end() || !It->is_number()) {
    fail(LineNo,
         std::string("\"") + Key +
             (It == Obj.end() ? "\" is missing" : "\" is not a number"));
    return false;
  }
  Out = It->get<double>();
  if (Out < 0) {
    fail(LineNo, std::string("negative \"") + Key + "\" (" + It->dump() + ")");
    return false;
  }
  return true;
}

void LineParser::parseSpan(const json &Obj, size_t LineNo) {
  Span S;
  S.FileIndex = FileIndex;
  S.Line = LineNo;
  int64_t Id = 0;
  bool Ok = requireInt(Obj, "id", Id, LineNo);
  Ok &= requireString(Obj, "name", S.Name, LineNo);
  Ok &= requireString(Obj, "cat", S.Cat, LineNo);
  Ok &= requireInt(Obj, "pid", S.Pid, LineNo);
  Ok &= requireInt(Obj, "tid", S.Tid, LineNo);
  Ok &= requireTime(Obj, "ts", S.Ts, LineNo);
  Ok &= requireTime(Obj, "dur", S.Dur, LineNo);
  if (Ok && Id < 0) {
    fail(LineNo, "negative \"id\"");
    Ok = false;
  }
  auto Args = Obj.find("args");
  if (Args != Obj.end()) {
    if (!Args->is_object()) {
      fail(LineNo, "\"args\" is not an object");
      Ok = false;
    } else {
      auto Level = Args->find("level");
      if (Level != Args->end()) {
        if (!Level->is_number_integer() || Level->get<int64_t>() < 1) {
          fail(LineNo,
               "args.level must be an integer >= 1, not " + Level->dump());
          Ok = false;
        } else {
          S.Level = Level->get<int64_t>();
        }
      }
      auto Parent = Args->find("p_idx");
      if (Parent != Args->end()) {
        if (!Parent->is_number_integer() || Parent->get<int64_t>() < 0) {
          fail(LineNo,
               "args.p_idx must be an integer >= 0, not " + Parent->dump());
          Ok = false;
        } else {
          S.ParentId = Parent->get<uint64_t>();
        }
      }
    }
  }
  if (!Ok)
    return;
  S.Id = static_cast<uint64_t>(Id);
  auto [It, Inserted] = IdLines.emplace(std::make_pair(S.Pid, *S.Id), LineNo);
  if (!Inserted) {
    fail(LineNo, "id " + std::to_string(*S.Id) + " of pid " +
                     std::to_string(S.Pid) + " already used on line " +
                     std::to_string(It->second));
    return;
  }
  Set.Spans.push_back(std::move(S));
}

void LineParser::parseMetadata(const json &Obj, size_t LineNo) {
  Metadata M;
  M.FileIndex = FileIndex;
  std::string Name;
  bool Ok = requireString(Obj, "name", Name, LineNo);
  Ok &= requireInt(Obj, "pid", M.Pid, LineNo);
  auto Args = Obj.find("args");
  if (Args == Obj.end() || !Args->is_object()) {
    fail(LineNo, "metadata event needs an \"args\" object");
    return;
  }
  // Chrome's own metadata (process_name, thread_name, ...) carries other
  // args; DFTracer's "CM" events carry {"name": key, "value": value}.
  auto Key = Args->find("name");
  auto Value = Args->find("value");
  if (Name == "CM" &&
      (Key == Args->end() || !Key->is_string() || Value == Args->end())) {
    fail(LineNo, "\"CM\" metadata needs args.name (string) and args.value");
    return;
  }
  if (!Ok || Key == Args->end() || !Key->is_string())
    return;
  M.Key = Key->get<std::string>();
  if (Value != Args->end())
    M.Value = Value->is_string() ? Value->get<std::string>() : Value->dump();
  Set.Meta.push_back(std::move(M));
}

void LineParser::parseBeginEnd(const json &Obj, const std::string &Ph,
                               size_t LineNo) {
  int64_t Pid = 0, Tid = 0;
  double Ts = 0;
  bool Ok = requireInt(Obj, "pid", Pid, LineNo);
  Ok &= requireInt(Obj, "tid", Tid, LineNo);
  Ok &= requireTime(Obj, "ts", Ts, LineNo);
  if (!Ok)
    return;
  std::vector<Opener> &Stack = OpenBegins[{Pid, Tid}];
  if (Ph == "B") {
    std::string Name;
    if (requireString(Obj, "name", Name, LineNo))
      Stack.push_back({Name, Ts, LineNo});
    return;
  }
  if (Stack.empty()) {
    fail(LineNo, "\"E\" event with no open \"B\" on pid " +
                     std::to_string(Pid) + " tid " + std::to_string(Tid));
    return;
  }
  Opener Open = Stack.back();
  Stack.pop_back();
  auto Name = Obj.find("name");
  if (Name != Obj.end() && Name->is_string() && *Name != Open.Name) {
    fail(LineNo, "\"E\" of '" + Name->get<std::string>() + "' closes '" +
                     Open.Name + "' opened on line " +
                     std::to_string(Open.Line) + ": spans do not nest");
    return;
  }
  if (Ts < Open.Ts) {
    fail(LineNo, "span '" + Open.Name + "' ends before it begins");
    return;
  }
  Span S;
  S.Name = Open.Name;
  S.Pid = Pid;
  S.Tid = Tid;
  S.Ts = Open.Ts;
  S.Dur = Ts - Open.Ts;
  S.FileIndex = FileIndex;
  S.Line = Open.Line;
  Set.Spans.push_back(std::move(S));
}

void LineParser::parse(const std::string &Text, size_t LineNo) {
  json Obj = json::parse(Text, nullptr, /*allow_exceptions=*/false);
  if (Obj.is_discarded()) {
    fail(LineNo, "not valid JSON: " +
                     (Text.size() > 80 ? Text.substr(0, 80) + "..." : Text));
    return;
  }
  if (!Obj.is_object()) {
    fail(LineNo, "expected one JSON object per line");
    return;
  }
  ++Set.Events;
  std::string Ph;
  if (!requireString(Obj, "ph", Ph, LineNo))
    return;
  if (Ph == "X")
    parseSpan(Obj, LineNo);
  else if (Ph == "M")
    parseMetadata(Obj, LineNo);
  else if (Ph == "B" || Ph == "E")
    parseBeginEnd(Obj, Ph, LineNo);
  else if (Ph != "i" && Ph != "I")
    fail(LineNo, "unsupported phase \"ph\":\"" + Ph + "\"");
}

void LineParser::finish() {
  for (const auto &[Key, Stack] : OpenBegins)
    for (const Opener &Open : Stack)
      fail(Open.Line, "span '" + Open.Name + "' is never closed (missing END)");
}

std::string trim(const std::string &S) {
  size_t B = S.find_first_not_of(" \t\r");
  if (B == std::string::npos)
    return "";
  size_t E = S.find_last_not_of(" \t\r");
  return S.substr(B, E - B + 1);
}

} // namespace

void readTraceFile(const std::string &Path, TraceSet &Set) {
  size_t FileIndex = Set.Files.size();
  Set.Files.push_back(Path);
  LineSource Source(Path);
  if (!Source.isOpen()) {
    Set.problem(FileIndex, 0,
                std::string("cannot open: ") + std::strerror(errno));
    return;
  }
  LineParser Parser(Set, FileIndex);
  std::string Line;
  size_t LineNo = 0, ClosedAt = 0;
  while (Source.next(Line)) {
    ++LineNo;
    std::string Text = trim(Line);
    if (LineNo == 1) {
      if (Text != "[")
        Set.problem(FileIndex, 1, "first line must be \"[\"");
      continue;
    }
    if (Text.empty())
      continue;
    if (ClosedAt) {
      Set.problem(FileIndex, LineNo,
                  "event after the closing \"]\" of line " +
                      std::to_string(ClosedAt));
      continue;
    }
    if (Text == "]") {
      ClosedAt = LineNo;
      continue;
    }
    Parser.parse(Text, LineNo);
  }
  std::string Error = Source.error();
  if (!Error.empty())
    Set.problem(FileIndex, LineNo,
                "file is truncated or corrupt after this line: " + Error);
  if (LineNo == 0)
    Set.problem(FileIndex, 0, "empty file: line 1 must be \"[\"");
  Parser.finish();
}

} // namespace dftcheck
