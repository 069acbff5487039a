//===- JsonFile.h - A JSON data file, positioned errors ---------*- C++ -*-===//
//
// The analyzer's data files (diagnosis_rules.json, suggest_filter.json, or
// the files given with --diagnosis-rules / --suggest-config) are read here,
// so a malformed one is reported the same way whichever it is:
//
// \code
//   nlohmann::json J;
//   if (!loadJsonObject(Path, "the diagnosis rules", J, Error))
//     ...; // Error: "my.json:3:14: invalid JSON: syntax error while
//          //  parsing object - unexpected '}'; expected ':'"
// \endcode
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_JSONFILE_H
#define DFTRACER_ANALYZE_JSONFILE_H

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dftanalyze {

/// Reads the JSON object in Path into Out. False with Error when it cannot:
/// "PATH: cannot read WHAT" (not readable), "PATH:LINE:COL: invalid JSON:
/// REASON" (malformed; LINE and COL of the offending character, from 1),
/// "PATH: not a JSON object" (valid JSON of another type).
bool loadJsonObject(const std::string &Path, const std::string &What,
                    nlohmann::json &Out, std::string &Error);

/// "PATH:LINE:COL" of the key reached by Keys from the root object of the
/// JSON file Path (Keys {"rules", "sync_per_write", "min_shares"}: the
/// opening quote of "min_shares" in that rule), for errors about a value
/// the parser accepted; "PATH" when the file or the key cannot be found.
/// nlohmann::json keeps no positions, so the text is scanned again (only
/// when there is an error to report).
std::string jsonKeyPosition(const std::string &Path,
                            const std::vector<std::string> &Keys);

} // namespace dftanalyze

#endif
