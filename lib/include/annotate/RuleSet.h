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
