//===- RuleSet.h - Which calls to insert, loaded from JSON -----*- C++ -*-===//
//
// A rule set says which statements annotate inserts and where. It is loaded
// from a JSON file (rules/dftracer.json is the default) and checked field by
// field, so a typo is reported as `file:line:col: reason` instead of turning
// into code that does not compile.
//
//   {
//     "name": "dftracer",
//     "include": "dftracer/dftracer.h",
//     "function": {"start": "DFTRACER_C_FUNCTION_START();", ...},
//     ...
//   }
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_RULESET_H
#define ANNOTATE_RULESET_H

#include "annotate/Filter.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace annotate {

struct RuleSet {
  /// e.g. "dftracer"
  std::string Name;
  /// Header to include, as written between <>: "dftracer/dftracer.h"
  std::string Include;
  /// First statement of every selected function: "DFTRACER_C_FUNCTION_START();"
  std::string FunctionStart;
  /// Closes the span: "DFTRACER_C_FUNCTION_END();"
  std::string FunctionEnd;
  /// Holds a return value computed inside the span: "annotate_ret"
  std::string ReturnVariable;
  /// Starts the tracer in main: "DFTRACER_C_INIT(NULL, NULL, NULL);"
  std::string Init;
  /// Stops the tracer in main: "DFTRACER_C_FINI();"
  std::string Fini;
  /// Template with ${name}, ${key}, ${value}:
  /// "DFTRACER_C_METADATA(${name}, \"${key}\", \"${value}\");"
  std::string Metadata;
  /// INIT goes after the top-level statement of main calling one of these.
  std::vector<std::string> InitAfterCalls;
  /// END + FINI go before the top-level statement of main calling one of these.
  std::vector<std::string> FiniBeforeCalls;
  /// Calls that do not return even when not declared noreturn: "MPI_Abort".
  std::vector<std::string> NoReturnFunctions;
  /// Macros that leave the function wherever a return of it lies in their
  /// expansion, for the cases the analysis cannot decide (docs/rules.md
  /// §2): END goes before their call. "FUNC_LEAVE_NOAPI"
  std::vector<std::string> ExitMacros;
  /// A function whose body expands one of these macros is already annotated.
  std::vector<std::string> AnnotatedMarkers;
  /// A main whose body expands one of these macros already starts the tracer.
  std::vector<std::string> InitialisedMarkers;
  /// First statement of functions in C++ translation units, an RAII guard
  /// that closes the span however the function is left (no END needed):
  /// "DFTRACER_CPP_FUNCTION();". Empty: the rule set refuses C++.
  /// `main` keeps the explicit C statements, so FINI runs after its span.
  std::string CxxFunctionStart;
  /// Whether lambdas in C++ get the guard too (off by default: they are
  /// often tiny and called in hot loops).
  bool CxxLambdas = false;

  /// "select.functions": ordered include/exclude rules on (qualified)
  /// function names; the last match wins, no match means included.
  Filter FunctionFilter;
  /// "select.files": the same on paths relative to --root.
  Filter FileFilter;
  /// A comment holding this on the line before a function skips it.
  std::string SkipComment = "annotate: skip";
  /// A comment holding this anywhere in a file skips the whole file.
  std::string SkipFileComment = "annotate: skip-file";
  /// Overhead guard: a leaf function (it calls nothing but compiler
  /// builtins) with fewer statements than this is not annotated: 2 skips
  /// one-statement getters. 0 turns the guard off.
  unsigned GuardMinStatements = 0;

  /// "categories": a function's category is the first one (in this order)
  /// matching one of its callees, else DefaultCategory. When enabled, START
  /// is followed by CategoryUpdate (CxxCategoryUpdate in C++), whose
  /// ${category} is replaced by it.
  struct Category {
    std::string Name;
    std::vector<Pattern> Callees;
  };
  std::vector<Category> Categories;
  std::string DefaultCategory = "cpu";
  bool CategoriesEnabled = false;
  /// "DFTRACER_C_FUNCTION_UPDATE_STR(\"comp\", \"${category}\");"
  std::string CategoryUpdate;
  std::string CxxCategoryUpdate;

  /// The category of a function calling Callees.
  std::string categoryOf(llvm::ArrayRef<llvm::StringRef> Callees) const;
  /// Its rank: the index in Categories of the first one that one of Callees
  /// matches, Categories.size() for DefaultCategory. A function that calls
  /// other things in each of its configurations has, over all its callees,
  /// the category of the lowest rank.
  unsigned categoryRank(llvm::ArrayRef<llvm::StringRef> Callees) const;
  /// CategoryUpdate or CxxCategoryUpdate for a category.
  std::string categoryStatement(llvm::StringRef Category, bool Cxx) const;

  /// Expands the metadata template for one `--meta key=value`.
  std::string metadataStatement(llvm::StringRef VarName, llvm::StringRef Key,
                                llvm::StringRef Value) const;
  bool isNoReturn(llvm::StringRef Callee) const;
};

/// Parses a rule set from JSON text; errors read `FileName:line:col: reason`.
llvm::Expected<RuleSet> parseRuleSet(llvm::StringRef Json,
                                     llvm::StringRef FileName);

/// Loads a rule set by name (a file NAME.json in RulesDir) or by path.
llvm::Expected<RuleSet> loadRuleSet(llvm::StringRef NameOrPath,
                                    llvm::StringRef RulesDir);

} // namespace annotate

#endif
