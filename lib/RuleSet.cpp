//===- RuleSet.cpp - Loading and checking rule sets -----------------------===//

#include "annotate/RuleSet.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace annotate {
namespace {

struct Position {
  unsigned Line = 1;
  unsigned Column = 1;
};

Position positionOf(llvm::StringRef Text, size_t Offset) {
  Position P;
  Offset = std::min(Offset, Text.size());
  for (size_t I = 0; I < Offset; ++I) {
    if (Text[I] == '\n') {
      ++P.Line;
      P.Column = 1;
    } else {
      ++P.Column;
    }
  }
  return P;
}

/// Finds where the value at a key path is written. nlohmann/json keeps no
/// positions, so follow the path's quoted keys through the text in order;
/// each key is searched after the previous one, which is exact for the
/// shallow objects of a rule set.
size_t offsetOfPath(llvm::StringRef Text, llvm::ArrayRef<std::string> Path) {
  size_t At = 0;
  for (const std::string &Key : Path) {
    size_t Found = Text.find("\"" + Key + "\"", At);
    if (Found == llvm::StringRef::npos)
      return At;
    At = Found;
  }
  return At;
}

/// Reads the fields of a rule set, remembering the first error with the
/// key path where it happened.
class RuleReader {
public:
  RuleReader(llvm::StringRef Text, llvm::StringRef FileName)
      : Text(Text), FileName(FileName) {}

  llvm::Error error(llvm::ArrayRef<std::string> Path, const llvm::Twine &Why) {
    Position P = positionOf(Text, offsetOfPath(Text, Path));
    return llvm::createStringError(
        std::errc::invalid_argument, "%s:%u:%u: %s", FileName.str().c_str(),
        P.Line, P.Column, Why.str().c_str());
  }

  llvm::Error checkKeys(const json &Object, std::vector<std::string> Path,
                        std::initializer_list<const char *> Known) {
    for (auto It = Object.begin(); It != Object.end(); ++It) {
      bool IsKnown = false;
      for (const char *K : Known)
        IsKnown |= It.key() == K;
      if (!IsKnown) {
        Path.push_back(It.key());
        return error(Path, "unknown field '" + It.key() + "'");
      }
    }
    return llvm::Error::success();
  }

  llvm::Error readString(const json &Object, std::vector<std::string> Path,
                         const char *Key, std::string &Out, bool Required) {
    Path.push_back(Key);
    auto It = Object.find(Key);
    if (It == Object.end()) {
      if (!Required)
        return llvm::Error::success();
      Path.pop_back();
      return error(Path, std::string("missing field '") + Key + "'");
    }
    if (!It->is_string())
      return error(Path, std::string("field '") + Key + "' must be a string");
    Out = It->get<std::string>();
    if (Required && Out.empty())
      return error(Path, std::string("field '") + Key + "' must not be empty");
    return llvm::Error::success();
  }

  llvm::Error readStrings(const json &Object, std::vector<std::string> Path,
                          const char *Key, std::vector<std::string> &Out) {
    Path.push_back(Key);
    auto It = Object.find(Key);
    if (It == Object.end())
      return llvm::Error::success();
    if (!It->is_array())
      return error(Path, std::string("field '") + Key +
                             "' must be an array of strings");
    Out.clear();
    for (const json &Item : *It) {
      if (!Item.is_string())
        return error(Path, std::string("field '") + Key +
                               "' must be an array of strings");
      Out.push_back(Item.get<std::string>());
    }
    return llvm::Error::success();
  }

  llvm::Error readObject(const json &Object, std::vector<std::string> Path,
                         const char *Key, const json *&Out) {
    Path.push_back(Key);
    auto It = Object.find(Key);
    if (It == Object.end()) {
      Path.pop_back();
      return error(Path, std::string("missing field '") + Key + "'");
    }
    if (!It->is_object())
      return error(Path, std::string("field '") + Key + "' must be an object");
    Out = &*It;
    return llvm::Error::success();
  }

  llvm::StringRef fileName() const { return FileName; }

private:
  llvm::StringRef Text;
  llvm::StringRef FileName;
};

/// "functions": [{"include": "h5_*"}, {"exclude": "re:_cb$"}, ...]
llvm::Error readFilter(RuleReader &R, const json &Object,
                       std::vector<std::string> Path, const char *Key,
                       llvm::StringRef Origin, Filter &Out) {
  auto It = Object.find(Key);
  if (It == Object.end())
    return llvm::Error::success();
  Path.push_back(Key);
  if (!It->is_array())
    return R.error(Path, std::string("field '") + Key +
                             "' must be an array of {\"include\": PATTERN} "
                             "or {\"exclude\": PATTERN}");
  for (const json &Item : *It) {
    bool Include = Item.is_object() && Item.size() == 1 && Item.contains("include");
    bool Exclude = Item.is_object() && Item.size() == 1 && Item.contains("exclude");
    const json *Value = Include ? &Item["include"] : Exclude ? &Item["exclude"] : nullptr;
    if (!Value || !Value->is_string())
      return R.error(Path, std::string("each rule of '") + Key +
                               "' must be {\"include\": PATTERN} or "
                               "{\"exclude\": PATTERN}");
    auto P = Pattern::compile(Value->get<std::string>());
    if (!P) {
      std::vector<std::string> At = Path;
      At.push_back(Include ? "include" : "exclude");
      return R.error(At, llvm::toString(P.takeError()));
    }
    Out.add({Include, std::move(*P), Origin.str()});
  }
  return llvm::Error::success();
}

llvm::Error readSelect(RuleReader &R, const json &Root, RuleSet &Rules) {
  if (!Root.contains("select"))
    return llvm::Error::success();
  const json *Select = nullptr;
  if (auto E = R.readObject(Root, {}, "select", Select))
    return E;
  if (auto E = R.checkKeys(*Select, {"select"},
                           {"functions", "files", "skip_comment",
                            "skip_file_comment", "guard"}))
    return E;
  if (auto E = readFilter(R, *Select, {"select"}, "functions", R.fileName(),
                          Rules.FunctionFilter))
    return E;
  if (auto E = readFilter(R, *Select, {"select"}, "files", R.fileName(),
                          Rules.FileFilter))
    return E;
  if (auto E = R.readString(*Select, {"select"}, "skip_comment",
                            Rules.SkipComment, false))
    return E;
  if (auto E = R.readString(*Select, {"select"}, "skip_file_comment",
                            Rules.SkipFileComment, false))
    return E;
  if (auto It = Select->find("guard"); It != Select->end()) {
    if (!It->is_object())
      return R.error({"select", "guard"}, "field 'guard' must be an object");
    if (auto E = R.checkKeys(*It, {"select", "guard"}, {"min_statements"}))
      return E;
    if (auto M = It->find("min_statements"); M != It->end()) {
      if (!M->is_number_unsigned())
        return R.error({"select", "guard", "min_statements"},
                       "field 'min_statements' must be a number >= 0");
      Rules.GuardMinStatements = M->get<unsigned>();
    }
  }
  return llvm::Error::success();
}

llvm::Error readCategories(RuleReader &R, const json &Root, RuleSet &Rules) {
  if (!Root.contains("categories"))
    return llvm::Error::success();
  const json *Cats = nullptr;
  if (auto E = R.readObject(Root, {}, "categories", Cats))
    return E;
  if (auto E = R.checkKeys(*Cats, {"categories"},
                           {"enabled", "update", "cxx_update", "default", "map"}))
    return E;
  if (auto It = Cats->find("enabled"); It != Cats->end()) {
    if (!It->is_boolean())
      return R.error({"categories", "enabled"},
                     "field 'enabled' must be true or false");
    Rules.CategoriesEnabled = It->get<bool>();
  }
  if (auto E = R.readString(*Cats, {"categories"}, "update",
                            Rules.CategoryUpdate, false))
    return E;
  if (auto E = R.readString(*Cats, {"categories"}, "cxx_update",
                            Rules.CxxCategoryUpdate, false))
    return E;
  if (auto E = R.readString(*Cats, {"categories"}, "default",
                            Rules.DefaultCategory, false))
    return E;
  auto Map = Cats->find("map");
  if (Map != Cats->end()) {
    if (!Map->is_array())
      return R.error({"categories", "map"},
                     "field 'map' must be an array of {\"name\", \"callees\"}");
    for (const json &Item : *Map) {
      if (!Item.is_object() || !Item.contains("name") ||
          !Item["name"].is_string() || !Item.contains("callees") ||
          !Item["callees"].is_array())
        return R.error({"categories", "map"},
                       "each category must be {\"name\": NAME, \"callees\": "
                       "[PATTERN, ...]}");
      RuleSet::Category C;
      C.Name = Item["name"].get<std::string>();
      for (const json &Callee : Item["callees"]) {
        if (!Callee.is_string())
          return R.error({"categories", "map", C.Name},
                         "callees must be strings");
        auto P = Pattern::compile(Callee.get<std::string>());
        if (!P)
          return R.error({"categories", "map", C.Name},
                         llvm::toString(P.takeError()));
        C.Callees.push_back(std::move(*P));
      }
      Rules.Categories.push_back(std::move(C));
    }
  }
  if (Rules.CategoriesEnabled && Rules.CategoryUpdate.find("${category}") ==
                                     std::string::npos)
    return R.error({"categories", "update"},
                   "field 'update' must use ${category} when categories are "
                   "enabled");
  return llvm::Error::success();
}

llvm::Error readRuleSet(RuleReader &R, const json &Root, RuleSet &Rules) {
  if (!Root.is_object())
    return R.error({}, "a rule set must be a JSON object");
  if (auto E = R.checkKeys(Root, {},
                           {"$schema", "name", "description", "language",
                            "include", "function", "main", "cxx", "select",
                            "categories", "noreturn_functions", "exit_macros",
                            "annotated_markers", "initialised_markers"}))
    return E;
  std::string Language;
  if (auto E = R.readString(Root, {}, "name", Rules.Name, true))
    return E;
  if (auto E = R.readString(Root, {}, "language", Language, false))
    return E;
  if (!Language.empty() && Language != "c" && Language != "c,c++")
    return R.error({"language"}, "unsupported language '" + Language +
                                     "' (use \"c\" or \"c,c++\")");
  if (auto E = R.readString(Root, {}, "include", Rules.Include, true))
    return E;

  const json *Function = nullptr;
  if (auto E = R.readObject(Root, {}, "function", Function))
    return E;
  if (auto E = R.checkKeys(*Function, {"function"},
                           {"start", "end", "return_variable"}))
    return E;
  if (auto E = R.readString(*Function, {"function"}, "start",
                            Rules.FunctionStart, true))
    return E;
  if (auto E = R.readString(*Function, {"function"}, "end", Rules.FunctionEnd,
                            true))
    return E;
  Rules.ReturnVariable = "annotate_ret";
  if (auto E = R.readString(*Function, {"function"}, "return_variable",
                            Rules.ReturnVariable, false))
    return E;

  // Without "main", main is annotated like any other function (tracers
  // such as Caliper or Score-P need no explicit start).
  static const json NoMain = json::object({{"init", ""}, {"fini", ""}});
  const json *Main = &NoMain;
  if (Root.contains("main"))
    if (auto E = R.readObject(Root, {}, "main", Main))
      return E;
  if (auto E = R.checkKeys(*Main, {"main"},
                           {"init", "fini", "metadata", "init_after_calls",
                            "fini_before_calls"}))
    return E;
  bool HasMain = Main != &NoMain;
  if (auto E = R.readString(*Main, {"main"}, "init", Rules.Init, HasMain))
    return E;
  if (auto E = R.readString(*Main, {"main"}, "fini", Rules.Fini, HasMain))
    return E;
  if (auto E = R.readString(*Main, {"main"}, "metadata", Rules.Metadata, false))
    return E;
  if (auto E = R.readStrings(*Main, {"main"}, "init_after_calls",
                             Rules.InitAfterCalls))
    return E;
  if (auto E = R.readStrings(*Main, {"main"}, "fini_before_calls",
                             Rules.FiniBeforeCalls))
    return E;

  if (Root.contains("cxx")) {
    const json *Cxx = nullptr;
    if (auto E = R.readObject(Root, {}, "cxx", Cxx))
      return E;
    if (auto E = R.checkKeys(*Cxx, {"cxx"}, {"function", "lambdas"}))
      return E;
    const json *CxxFunction = nullptr;
    if (auto E = R.readObject(*Cxx, {"cxx"}, "function", CxxFunction))
      return E;
    if (auto E = R.checkKeys(*CxxFunction, {"cxx", "function"}, {"start"}))
      return E;
    if (auto E = R.readString(*CxxFunction, {"cxx", "function"}, "start",
                              Rules.CxxFunctionStart, true))
      return E;
    if (auto It = Cxx->find("lambdas"); It != Cxx->end()) {
      if (!It->is_boolean())
        return R.error({"cxx", "lambdas"}, "field 'lambdas' must be true or false");
      Rules.CxxLambdas = It->get<bool>();
    }
  }
  if (auto E = readSelect(R, Root, Rules))
    return E;
  if (auto E = readCategories(R, Root, Rules))
    return E;
  if (auto E = R.readStrings(Root, {}, "noreturn_functions",
                             Rules.NoReturnFunctions))
    return E;
  if (auto E = R.readStrings(Root, {}, "exit_macros", Rules.ExitMacros))
    return E;
  if (auto E = R.readStrings(Root, {}, "annotated_markers",
                             Rules.AnnotatedMarkers))
    return E;
  if (auto E = R.readStrings(Root, {}, "initialised_markers",
                             Rules.InitialisedMarkers))
    return E;
  return llvm::Error::success();
}

void replaceAll(std::string &S, llvm::StringRef From, llvm::StringRef To) {
  for (size_t At = S.find(From.str()); At != std::string::npos;
       At = S.find(From.str(), At + To.size()))
    S.replace(At, From.size(), To.str());
}

} // namespace

std::string RuleSet::metadataStatement(llvm::StringRef VarName,
                                       llvm::StringRef Key,
                                       llvm::StringRef Value) const {
  std::string Out = Metadata;
  replaceAll(Out, "${name}", VarName);
  replaceAll(Out, "${key}", Key);
  replaceAll(Out, "${value}", Value);
  return Out;
}

unsigned
RuleSet::categoryRank(llvm::ArrayRef<llvm::StringRef> Callees) const {
  for (size_t I = 0; I < Categories.size(); ++I)
    for (llvm::StringRef Callee : Callees)
      for (const Pattern &P : Categories[I].Callees)
        if (P.matches(Callee))
          return I;
  return Categories.size();
}

std::string RuleSet::categoryOf(llvm::ArrayRef<llvm::StringRef> Callees) const {
  unsigned Rank = categoryRank(Callees);
  return Rank < Categories.size() ? Categories[Rank].Name : DefaultCategory;
}

std::string RuleSet::categoryStatement(llvm::StringRef Category,
                                       bool Cxx) const {
  std::string Out = Cxx && !CxxCategoryUpdate.empty() ? CxxCategoryUpdate
                                                      : CategoryUpdate;
  replaceAll(Out, "${category}", Category);
  return Out;
}

bool RuleSet::isNoReturn(llvm::StringRef Callee) const {
  return llvm::is_contained(NoReturnFunctions, Callee);
}

llvm::Expected<RuleSet> parseRuleSet(llvm::StringRef Text,
                                     llvm::StringRef FileName) {
  RuleReader Reader(Text, FileName);
  json Root;
  try {
    Root = json::parse(Text.begin(), Text.end());
  } catch (const json::parse_error &E) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line
    // 3, column 5: syntax error ..."; keep the reason after the position.
    llvm::StringRef What(E.what());
    size_t Colon = What.find(": ");
    llvm::StringRef Reason =
        Colon == llvm::StringRef::npos ? What : What.substr(Colon + 2);
    Position P = positionOf(Text, E.byte > 0 ? E.byte - 1 : 0);
    return llvm::createStringError(std::errc::invalid_argument,
                                   "%s:%u:%u: invalid JSON: %s",
                                   FileName.str().c_str(), P.Line, P.Column,
                                   Reason.str().c_str());
  }
  RuleSet Rules;
  if (auto E = readRuleSet(Reader, Root, Rules))
    return std::move(E);
  if (!Rules.Metadata.empty() &&
      Rules.Metadata.find("${name}") == std::string::npos)
    return Reader.error({"main", "metadata"},
                        "field 'metadata' must use ${name}: its first "
                        "argument is an identifier unique in scope");
  return Rules;
}

llvm::Expected<RuleSet> loadRuleSet(llvm::StringRef NameOrPath,
                                    llvm::StringRef RulesDir) {
  std::string Path = NameOrPath.str();
  bool LooksLikePath = NameOrPath.contains('/') || NameOrPath.ends_with(".json");
  if (!LooksLikePath) {
    llvm::SmallString<256> Candidate(RulesDir);
    llvm::sys::path::append(Candidate, NameOrPath + ".json");
    Path = std::string(Candidate);
  }
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(
        Buffer.getError(), "cannot read rule set '%s' (%s): %s",
        NameOrPath.str().c_str(), Path.c_str(),
        Buffer.getError().message().c_str());
  return parseRuleSet((*Buffer)->getBuffer(), Path);
}

} // namespace annotate
