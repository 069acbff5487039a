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
/// key path where it happened. When the set extends another, the fields are
/// read over the base's (docs/rules.md §11): a required field the base gave
/// may be left out, lists add to the base's.
class RuleReader {
public:
  RuleReader(llvm::StringRef Text, llvm::StringRef FileName,
             bool Extending = false)
      : Text(Text), FileName(FileName), Extending(Extending) {}

  bool extending() const { return Extending; }

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
      if (!Required || (Extending && !Out.empty()))
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
    // Lists of names add to the base's (the set starts empty otherwise).
    for (const json &Item : *It) {
      if (!Item.is_string())
        return error(Path, std::string("field '") + Key +
                               "' must be an array of strings");
      if (!llvm::is_contained(Out, Item.get<std::string>()))
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
  bool Extending;
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
      // A category the base has gets the callees added (it keeps its rank);
      // a new one goes after the base's.
      std::string Name = Item["name"].get<std::string>();
      auto Same = llvm::find_if(
          Rules.Categories,
          [&](const RuleSet::Category &C) { return C.Name == Name; });
      if (Same == Rules.Categories.end()) {
        Rules.Categories.push_back({Name, {}});
        Same = std::prev(Rules.Categories.end());
      }
      for (const json &Callee : Item["callees"]) {
        if (!Callee.is_string())
          return R.error({"categories", "map", Name},
                         "callees must be strings");
        auto P = Pattern::compile(Callee.get<std::string>());
        if (!P)
          return R.error({"categories", "map", Name},
                         llvm::toString(P.takeError()));
        Same->Callees.push_back(std::move(*P));
      }
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
                           {"$schema", "extends", "name", "description",
                            "language",
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

  // An extending set may leave "function" to its base.
  static const json NoFunction = json::object();
  const json *Function = &NoFunction;
  if (!R.extending() || Root.contains("function"))
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
  if (!R.extending())
    Rules.ReturnVariable = "annotate_ret";
  if (auto E = R.readString(*Function, {"function"}, "return_variable",
                            Rules.ReturnVariable, false))
    return E;

  // Without "main", main is annotated like any other function (tracers
  // such as Caliper or Score-P need no explicit start), or as the base says.
  static const json NoMain = json::object();
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
    static const json NoCxxFunction = json::object();
    const json *CxxFunction = &NoCxxFunction;
    if (Rules.CxxFunctionStart.empty() || Cxx->contains("function"))
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

namespace {

/// Where a rule set named NAME (a bundled one, in RulesDir) or written as a
/// path (with a '/' or ending in .json; relative to RelativeTo, a directory)
/// is.
std::string ruleSetPath(llvm::StringRef NameOrPath, llvm::StringRef RulesDir,
                        llvm::StringRef RelativeTo) {
  bool LooksLikePath = NameOrPath.contains('/') || NameOrPath.ends_with(".json");
  llvm::SmallString<256> Path(LooksLikePath ? RelativeTo : RulesDir);
  if (LooksLikePath && llvm::sys::path::is_absolute(NameOrPath))
    Path.clear();
  llvm::sys::path::append(Path, LooksLikePath ? NameOrPath.str()
                                              : NameOrPath.str() + ".json");
  return std::string(Path);
}

/// The files being loaded, the extending one first: what a cycle is
/// reported with (as they were named) and found by (their real paths).
struct ExtendsChain {
  std::vector<std::string> Shown;
  std::vector<std::string> Real;

  static std::string realPath(llvm::StringRef Path) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Path, Real))
      return Path.str();
    return std::string(Real);
  }
};

llvm::Expected<RuleSet> parseInChain(llvm::StringRef Text,
                                     llvm::StringRef FileName,
                                     llvm::StringRef RulesDir,
                                     ExtendsChain &Chain);

llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readRuleSetFile(llvm::StringRef NameOrPath, const std::string &Path) {
  auto Buffer = llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buffer)
    return llvm::createStringError(
        Buffer.getError(), "cannot read rule set '%s' (%s): %s",
        NameOrPath.str().c_str(), Path.c_str(),
        Buffer.getError().message().c_str());
  return std::move(*Buffer);
}

/// Parses the rule set in Path, read into Buffer, as the last of Chain.
llvm::Expected<RuleSet> parseFileInChain(const llvm::MemoryBuffer &Buffer,
                                         const std::string &Path,
                                         llvm::StringRef RulesDir,
                                         ExtendsChain &Chain) {
  Chain.Shown.push_back(Path);
  Chain.Real.push_back(ExtendsChain::realPath(Path));
  auto Rules = parseInChain(Buffer.getBuffer(), Path, RulesDir, Chain);
  Chain.Shown.pop_back();
  Chain.Real.pop_back();
  return Rules;
}

/// The base a rule set's "extends" names, loaded (with its own bases), or a
/// fresh RuleSet when there is none.
llvm::Expected<RuleSet> loadBase(const json &Root, RuleReader &Reader,
                                 llvm::StringRef RulesDir,
                                 ExtendsChain &Chain) {
  auto It = Root.find("extends");
  if (It == Root.end())
    return RuleSet();
  if (!It->is_string() || It->get<std::string>().empty())
    return Reader.error({"extends"},
                        "field 'extends' must be a rule set's name or a path");
  std::string Base = It->get<std::string>();
  std::string Path = ruleSetPath(
      Base, RulesDir, llvm::sys::path::parent_path(Reader.fileName()));
  std::string Real = ExtendsChain::realPath(Path);
  auto Seen = llvm::find(Chain.Real, Real);
  if (Seen != Chain.Real.end()) {
    std::string Cycle;
    for (size_t I = Seen - Chain.Real.begin(); I < Chain.Shown.size(); ++I)
      Cycle += Chain.Shown[I] + " -> ";
    return Reader.error({"extends"}, "extends cycle: " + Cycle + Path);
  }
  // A base that cannot be read is this file's error, at its "extends"; a
  // malformed base reports its own position.
  auto Buffer = readRuleSetFile(Base, Path);
  if (!Buffer)
    return Reader.error({"extends"}, "field 'extends': " +
                                         llvm::toString(Buffer.takeError()));
  return parseFileInChain(**Buffer, Path, RulesDir, Chain);
}

llvm::Expected<RuleSet> parseInChain(llvm::StringRef Text,
                                     llvm::StringRef FileName,
                                     llvm::StringRef RulesDir,
                                     ExtendsChain &Chain) {
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
  bool Extends = Root.is_object() && Root.contains("extends");
  RuleReader Reader(Text, FileName, Extends);
  llvm::Expected<RuleSet> Rules =
      Extends ? loadBase(Root, Reader, RulesDir, Chain) : RuleSet();
  if (!Rules)
    return Rules.takeError();
  if (auto E = readRuleSet(Reader, Root, *Rules))
    return std::move(E);
  if (!Rules->Metadata.empty() &&
      Rules->Metadata.find("${name}") == std::string::npos)
    return Reader.error({"main", "metadata"},
                        "field 'metadata' must use ${name}: its first "
                        "argument is an identifier unique in scope");
  return Rules;
}

} // namespace

// Text without a file has no rules directory: its "extends" can name a
// path only (relative to FileName's directory).
llvm::Expected<RuleSet> parseRuleSet(llvm::StringRef Text,
                                     llvm::StringRef FileName) {
  ExtendsChain Chain;
  Chain.Shown.push_back(FileName.str());
  Chain.Real.push_back(ExtendsChain::realPath(FileName));
  return parseInChain(Text, FileName, "", Chain);
}

llvm::Expected<RuleSet> loadRuleSet(llvm::StringRef NameOrPath,
                                    llvm::StringRef RulesDir) {
  std::string Path = ruleSetPath(NameOrPath, RulesDir, "");
  auto Buffer = readRuleSetFile(NameOrPath, Path);
  if (!Buffer)
    return Buffer.takeError();
  ExtendsChain Chain;
  return parseFileInChain(**Buffer, Path, RulesDir, Chain);
}

} // namespace annotate
