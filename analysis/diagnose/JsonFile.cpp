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

} // namespace

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
