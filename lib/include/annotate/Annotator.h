//===- Annotator.h - Annotating translation units --------------*- C++ -*-===//
//
// The entry point of the library. For each translation unit annotate parses
// the code with its compile command, selects the functions to instrument,
// plans edits (START, END before returns, INIT/FINI in main, braces, the
// include), validates each edit's range and returns them per file, merged.
// Nothing is written here: the caller decides between stdout, in-place,
// an output tree, a diff or a check.
//
// Before:                               After (rule set dftracer):
//   #include <stdio.h>                    #include <stdio.h>
//   int f(int x) {                        #include <dftracer/dftracer.h>
//     if (x < 0) return -1;               int f(int x) {
//     return g(x);                          DFTRACER_C_FUNCTION_START();
//   }                                       if (x < 0) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; }
//                                           { int annotate_ret = (g(x)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
//                                         }
//
//===----------------------------------------------------------------------===//

#ifndef ANNOTATE_ANNOTATOR_H
#define ANNOTATE_ANNOTATOR_H

#include "annotate/Edits.h"
#include "annotate/RuleSet.h"

#include "clang/Tooling/CompilationDatabase.h"

#include <map>
#include <string>
#include <vector>

namespace annotate {

enum class BracePolicy { Needed, All, None };

struct AnnotateOptions {
  RuleSet Rules;
  BracePolicy Braces = BracePolicy::Needed;
  /// `--meta key=value` pairs, in order: {"app", "ior"}
  std::vector<std::pair<std::string, std::string>> Meta;
  /// Headers under this directory are annotated too: "/src/ior". Empty:
  /// only the main file of each translation unit.
  std::string Root;
  /// File filters see paths relative to this directory (--root, else the
  /// current directory): "/src/ior"
  std::string FilterRoot;
  /// Directory of the bundled <dftracer/dftracer.h>, searched last so that
  /// already-annotated code parses: "/opt/annotate/include".
  std::string RuntimeIncludeDir;
  /// Clang's resource directory (builtin headers such as stddef.h).
  std::string ResourceDir;
  /// Keep every original line at its line number (insertions go inline)
  /// and name the original file in #line directives, so that diagnostics
  /// and debuggers of a compiled annotated copy point at the original.
  bool LineDirectives = false;
};

struct Diagnostic {
  enum Level { Warning, Error };
  Level Severity = Warning;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;

  /// `file:line:col: warning: message`
  std::string format() const;
};

struct FunctionRecord {
  std::string Name;
  std::string File;
  unsigned Line = 0;
  bool Annotated = false;
  /// Why it was skipped: "already annotated", "macro expansion", ...
  std::string SkipReason;
  /// Which rule decided, for --explain and the report:
  /// "excluded by exclude '*_cb' (rules/app.json)".
  std::string Detail;
};

/// One file touched by a translation unit: its bytes as parsed and the
/// edits planned for it.
struct FileAnnotation {
  /// The real path: "/src/ior/include/io.h"
  std::string Path;
  /// The name it was opened by, absolute, symbolic links kept:
  /// "/src/ior/include/link.h" (a link to io.h)
  std::string Name;
  std::string Original;
  FileEdits Edits;
};

struct TranslationUnitResult {
  /// The main file's real path.
  std::string MainFile;
  /// The main file as named (absolute, symbolic links kept): what messages
  /// about it say.
  std::string MainFileName;
  /// Parsed as C++ (headers follow the unit that includes them).
  bool Cxx = false;
  /// The file did not parse: nothing may be edited.
  bool Failed = false;
  std::string FailureReason;
  /// Keyed by the file's real path.
  std::map<std::string, FileAnnotation> Files;
  std::vector<FunctionRecord> Functions;
  std::vector<Diagnostic> Diagnostics;
};

/// Annotates the translation unit of File, compiled as Database says.
TranslationUnitResult
annotateFile(const clang::tooling::CompilationDatabase &Database,
             llvm::StringRef File, const AnnotateOptions &Options);

/// Annotates code held in memory (for tests and tools).
TranslationUnitResult annotateCode(llvm::StringRef Code,
                                   llvm::StringRef FileName,
                                   const std::vector<std::string> &Args,
                                   const AnnotateOptions &Options);

} // namespace annotate

#endif
