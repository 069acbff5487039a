//===- ExpectCounts.cpp - Compare call counts with expectations -----------===//

#include "ExpectCounts.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace dftcheck {

bool loadExpectedCounts(const std::string &Path,
                        std::map<std::string, uint64_t> &Out,
                        std::string &Error) {
  std::ifstream In(Path);
  if (!In) {
    Error = Path + ": cannot open expected counts";
    return false;
  }
  nlohmann::json Doc = nlohmann::json::parse(In, nullptr, false);
  if (Doc.is_discarded() || !Doc.is_object()) {
    Error = Path + ": expected a JSON object {\"function_name\": calls, ...}";
    return false;
  }
  for (auto It = Doc.begin(); It != Doc.end(); ++It) {
    if (!It->is_number_unsigned() && !(It->is_number_integer() && *It >= 0)) {
      Error = Path + ": count of '" + It.key() +
              "' must be a non-negative integer, not " + It->dump();
      return false;
    }
    Out[It.key()] = It->get<uint64_t>();
  }
  return true;
}

std::vector<CountMismatch>
compareCounts(const std::map<std::string, uint64_t> &Expected,
              const std::map<std::string, uint64_t> &Actual) {
  std::vector<CountMismatch> Out;
  for (const auto &[Name, Want] : Expected) {
    auto It = Actual.find(Name);
    uint64_t Got = It == Actual.end() ? 0 : It->second;
    if (Got != Want)
      Out.push_back({Name, Want, Got});
  }
  return Out;
}

void printCountDiff(std::ostream &Os, const std::string &Path,
                    const std::vector<CountMismatch> &Mismatches) {
  size_t Width = 8;
  for (const CountMismatch &M : Mismatches)
    Width = std::max(Width, M.Name.size());
  char Line[512];
  Os << "call counts differ from " << Path << ":\n";
  std::snprintf(Line, sizeof(Line), "  %-*s %10s %10s\n", (int)Width,
                "function", "expected", "actual");
  Os << Line;
  for (const CountMismatch &M : Mismatches) {
    std::snprintf(Line, sizeof(Line), "  %-*s %10llu %10llu\n", (int)Width,
                  M.Name.c_str(), (unsigned long long)M.Expected,
                  (unsigned long long)M.Actual);
    Os << Line;
  }
}

} // namespace dftcheck
