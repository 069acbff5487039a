//===- SuggestFilter.cpp - dftracer-analyze --suggest-filter --------------===//

#include "SuggestFilter.h"

#include "DataFile.h"
#include "JsonFile.h"
#include "analyze/FileAnalyzer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace dftanalyze {

bool loadSuggestConfig(const std::string &Path, SuggestConfig &Out,
                       std::string &Error) {
  nlohmann::json J;
  if (!loadJsonObject(Path, "the --suggest-filter thresholds", J, Error))
    return false;
  auto Number = [&](const char *Key, double &V) {
    if (!J.contains(Key) || !J[Key].is_number() || J[Key].get<double>() < 0) {
      Error = Path + ": \"" + Key + "\" must be a number >= 0";
      return false;
    }
    V = J[Key].get<double>();
    return true;
  };
  double MinCalls = 0;
  if (!Number("pair_cost_ns", Out.PairCostNs) ||
      !Number("cost_multiple", Out.CostMultiple) ||
      !Number("min_calls", MinCalls))
    return false;
  Out.MinCalls = static_cast<uint64_t>(MinCalls);
  if (J.contains("throttled")) {
    if (!J["throttled"].is_boolean()) {
      Error = Path + ": \"throttled\" must be true or false";
      return false;
    }
    Out.Throttled = J["throttled"].get<bool>();
  }
  if (J.contains("pair_cost_source") && J["pair_cost_source"].is_string())
    Out.Source = J["pair_cost_source"].get<std::string>();
  return true;
}

std::string defaultSuggestConfig() {
  return installedDataFile("dftracer-analyze-suggest.json");
}

std::string exactPattern(const std::string &Name) {
  if (Name.find_first_of("*?[]{}") == std::string::npos &&
      Name.rfind("re:", 0) != 0)
    return Name;
  std::string Re = "re:^";
  for (char C : Name) {
    if (std::string_view("\\^$.|?*+()[]{}").find(C) != std::string_view::npos)
      Re += '\\';
    Re += C;
  }
  return Re + "$";
}

void printSuggestedFilter(std::ostream &Os, const Report &R,
                          const SuggestConfig &C, const std::string &From) {
  struct Pick {
    const std::string *Name;
    const FunctionStat *S;
    double MeanUs;
    bool Throttled;
  };
  std::vector<Pick> Picks;
  double LimitUs = C.CostMultiple * C.PairCostNs / 1000.0;
  for (const auto &[Name, S] : R.A.Functions) {
    if (Name == NoFunction || Name == UnknownParent || !S.Calls)
      continue;
    double Mean = static_cast<double>(S.TimeUs) / static_cast<double>(S.Calls);
    bool Throttled = C.Throttled && (S.ThrottleReasons & ThrottleBit);
    bool Cheap = S.Calls >= C.MinCalls && Mean < LimitUs;
    if (Throttled || Cheap)
      Picks.push_back({&Name, &S, Mean, Throttled});
  }
  std::sort(Picks.begin(), Picks.end(), [](const Pick &A, const Pick &B) {
    return std::tie(B.S->Calls, *A.Name) < std::tie(A.S->Calls, *B.Name);
  });
  char Buf[160];
  std::snprintf(Buf, sizeof(Buf), "%.0f ns", C.PairCostNs);
  Os << "# annotate --filter-file: written by dftracer-analyze "
        "--suggest-filter from "
     << R.A.FileNames.size() << " trace files.\n"
     << "# Functions the runtime throttled, or called at least " << C.MinCalls
     << " times with a mean duration under " << C.CostMultiple << " x "
     << Buf << " (the cost of tracing one span";
  if (!C.Source.empty())
    Os << ": " << C.Source;
  Os << "; thresholds from " << From << ").\n";
  if (Picks.empty())
    Os << "# none: every function did more work than tracing it cost\n";
  for (const Pick &P : Picks) {
    std::snprintf(Buf, sizeof(Buf), "%.3f", P.MeanUs);
    Os << "# " << *P.Name << ": " << P.S->Calls << " calls, mean " << Buf
       << " us";
    if (P.S->ThrottledCalls)
      Os << ", " << P.S->ThrottledCalls << " not written ("
         << reasonsText(P.S->ThrottleReasons) << ")";
    Os << "\nexclude-function " << exactPattern(*P.Name) << "\n";
  }
}

} // namespace dftanalyze
