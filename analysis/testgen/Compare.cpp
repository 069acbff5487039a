//===- Compare.cpp - dftracer_trace_gen compare ---------------------------===//
//
// Every key of EXPECTED has the same value in ACTUAL (objects: keys of
// EXPECTED only; arrays: same length, element by element; arrays of
// objects with "name": matched by name, and with --partial ACTUAL may hold
// more of them).
//
//===----------------------------------------------------------------------===//

#include "Commands.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <string>

namespace tracegen {

namespace {

using Json = nlohmann::json;

bool PartialNamedLists = false; // compare --partial: name-matched lists may hold more

bool subset(const Json &Want, const Json &Got, const std::string &Path,
            std::string &Why) {
  if (Want.is_object()) {
    if (!Got.is_object()) {
      Why = Path + ": expected an object";
      return false;
    }
    for (auto It = Want.begin(); It != Want.end(); ++It) {
      if (!Got.contains(It.key())) {
        Why = Path + "." + It.key() + ": missing";
        return false;
      }
      if (!subset(*It, Got[It.key()], Path + "." + It.key(), Why))
        return false;
    }
    return true;
  }
  if (Want.is_array()) {
    bool ByName = !Want.empty() && Want[0].is_object() && Want[0].contains("name");
    if (!Got.is_array() ||
        (Got.size() != Want.size() && !(ByName && PartialNamedLists))) {
      Why = Path + ": expected an array of " + std::to_string(Want.size()) +
            ", got " + Got.dump().substr(0, 300);
      return false;
    }
    for (size_t I = 0; I < Want.size(); ++I) {
      const Json *Match = &Got[I];
      if (ByName) {
        Match = nullptr;
        for (const Json &G : Got)
          if (G.contains("name") && G["name"] == Want[I]["name"] &&
              (!Want[I].contains("layer") || G["layer"] == Want[I]["layer"]))
            Match = &G;
        if (!Match) {
          Why = Path + ": no element named " + Want[I]["name"].dump();
          return false;
        }
      }
      if (!subset(Want[I], *Match, Path + "[" + std::to_string(I) + "]", Why))
        return false;
    }
    return true;
  }
  if (Want != Got) {
    Why = Path + ": expected " + Want.dump() + ", got " + Got.dump();
    return false;
  }
  return true;
}

} // namespace

int compare(int Argc, char **Argv) {
  if (Argc == 5 && std::string(Argv[4]) == "--partial") {
    PartialNamedLists = true;
    --Argc;
  }
  if (Argc != 4) {
    std::cerr << "usage: dftracer_trace_gen compare EXPECTED ACTUAL [--partial]\n";
    return 2;
  }
  std::ifstream A(Argv[2]), B(Argv[3]);
  Json Want = Json::parse(A, nullptr, false), Got = Json::parse(B, nullptr, false);
  if (Want.is_discarded() || Got.is_discarded()) {
    std::cerr << "compare: a file is not JSON\n";
    return 1;
  }
  std::string Why;
  if (!subset(Want, Got, "$", Why)) {
    std::cerr << "compare: " << Why << "\n";
    return 1;
  }
  std::cout << "compare: every expected value matches\n";
  return 0;
}

} // namespace tracegen
