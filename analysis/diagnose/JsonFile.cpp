//===- JsonFile.cpp - A JSON data file read with positioned errors --------===//

#include "JsonFile.h"

#include <fstream>
#include <sstream>

namespace dftanalyze {

namespace {

/// Line and column (from 1) of byte Offset (from 0) of Text.
std::pair<size_t, size_t> lineAndColumn(const std::string &Text,
                                        size_t Offset) {
  size_t Line = 1, Column = 1;
  for (size_t I = 0; I < Offset && I < Text.size(); ++I) {
    if (Text[I] == '\n') {
      ++Line;
      Column = 1;
    } else {
      ++Column;
    }
  }
  return {Line, Column};
}

/// A scanner over JSON text the parser accepted: finds the offset of the
/// key that Keys names, skipping every other value.
class KeyFinder {
public:
  KeyFinder(const std::string &Text, const std::vector<std::string> &Keys)
      : T(Text), Keys(Keys) {}

  /// Offset of the key's opening quote, npos when absent.
  size_t find() {
    I = 0;
    return Keys.empty() ? std::string::npos : value(0);
  }

private:
  void blanks() {
    while (I < T.size() && (T[I] == ' ' || T[I] == '\t' || T[I] == '\n' ||
                            T[I] == '\r'))
      ++I;
  }
  /// The string at I (I at its quote), simple escapes decoded; I after it.
  std::string string() {
    std::string S;
    for (++I; I < T.size() && T[I] != '"'; ++I) {
      if (T[I] == '\\' && I + 1 < T.size())
        ++I;
      S += T[I];
    }
    ++I;
    return S;
  }
  /// Skips the value at I; when Depth keys matched so far, looks inside.
  size_t value(size_t Depth) {
    blanks();
    if (I >= T.size())
      return std::string::npos;
    char C = T[I];
    if (C == '"') {
      string();
    } else if (C == '{' || C == '[') {
      bool Object = C == '{';
      ++I;
      for (;;) {
        blanks();
        if (I >= T.size())
          return std::string::npos;
        if (T[I] == '}' || T[I] == ']') {
          ++I;
          break;
        }
        if (T[I] == ',') {
          ++I;
          continue;
        }
        size_t Found = std::string::npos;
        if (Object) {
          size_t At = I;
          bool Match = Depth < Keys.size() && string() == Keys[Depth];
          blanks();
          ++I; // ':'
          if (Match && Depth + 1 == Keys.size())
            return At;
          Found = value(Match ? Depth + 1 : Keys.size() + 1);
        } else {
          Found = value(Keys.size() + 1);
        }
        if (Found != std::string::npos)
          return Found;
      }
    } else {
      while (I < T.size() && T[I] != ',' && T[I] != '}' && T[I] != ']')
        ++I;
    }
    return std::string::npos;
  }

  const std::string &T;
  const std::vector<std::string> &Keys;
  size_t I = 0;
};

} // namespace

std::string jsonKeyPosition(const std::string &Path,
                            const std::vector<std::string> &Keys) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buf;
  if (!In || !(Buf << In.rdbuf()))
    return Path;
  std::string Text = Buf.str();
  size_t At = KeyFinder(Text, Keys).find();
  if (At == std::string::npos)
    return Path;
  auto [Line, Column] = lineAndColumn(Text, At);
  return Path + ":" + std::to_string(Line) + ":" + std::to_string(Column);
}

bool loadJsonObject(const std::string &Path, const std::string &What,
                    nlohmann::json &Out, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  std::stringstream Buf;
  if (!In || !(Buf << In.rdbuf())) {
    Error = Path + ": cannot read " + What;
    return false;
  }
  std::string Text = Buf.str();
  try {
    Out = nlohmann::json::parse(Text);
  } catch (const nlohmann::json::parse_error &E) {
    // what() reads "[json.exception.parse_error.101] parse error at line
    // 3, column 5: syntax error ..."; the position is given here in the
    // compilers' FILE:LINE:COL form, the reason kept. E.byte is the
    // 1-based position of the character that failed (past the end for a
    // truncated file).
    std::string Reason = E.what();
    size_t Colon = Reason.find(": ");
    if (Colon != std::string::npos)
      Reason = Reason.substr(Colon + 2);
    auto [Line, Column] = lineAndColumn(Text, E.byte ? E.byte - 1 : 0);
    Error = Path + ":" + std::to_string(Line) + ":" + std::to_string(Column) +
            ": invalid JSON: " + Reason;
    return false;
  }
  if (!Out.is_object()) {
    Error = Path + ": not a JSON object";
    return false;
  }
  return true;
}

} // namespace dftanalyze
