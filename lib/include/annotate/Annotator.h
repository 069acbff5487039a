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

/// `--variant 'FLAGS'`: each file is planned also as compiled with these
/// flags added to each of its compile commands.
struct Variant {
  /// As given: "-DWIDE=1 -DUSE_X"
  std::string Spelled;
  /// Split like a shell would: {"-DWIDE=1", "-DUSE_X"}
  std::vector<std::string> Flags;
};

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
  /// More configurations to plan every file in (--variant).
  std::vector<Variant> Variants;
  /// `annotate --strip`: plan the removal of what annotate wrote under
  /// Rules instead (docs/rules.md §13); Braces, Meta and LineDirectives do
  /// not matter then, every layout is recognised.
  bool Strip = false;
  /// --extra-arg-before and --extra-arg: parser flags put right after the
  /// compiler of every compile command ({"-xc++"}) and at its end
  /// ({"-Wno-vla-cxx-extension"}), as clang-tidy's options of those names.
  std::vector<std::string> ExtraArgsBefore, ExtraArgs;
};

/// One build configuration of a file: a compile command of it, with a
/// variant's flags added or none.
struct Configuration {
  clang::tooling::CompileCommand Command;
  std::vector<std::string> ExtraFlags;
  /// How messages name it: "" for the file's first command alone,
  /// "compile command 2", "--variant '-DX'", or both joined by ", ".
  std::string Label;
};

struct Diagnostic {
  enum Level { Warning, Error };
  Level Severity = Warning;
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
  /// --strip: an annotation left in place because it is not in the form
  /// annotate writes; the run then exits 1.
  bool Unremoved = false;

  /// `file:line:col: warning: message`
  std::string format() const;
};

struct FunctionRecord {
  std::string Name;
  std::string File;
  unsigned Line = 0;
  /// With --strip: its annotations were removed.
  bool Annotated = false;
  /// --strip: kept, one of its annotations not in annotate's form.
  bool Unremoved = false;
  /// Why it was skipped: "already annotated", "macro expansion", ...
  std::string SkipReason;
  /// Which rule decided, for --explain and the report:
  /// "excluded by exclude '*_cb' (rules/app.json)".
  std::string Detail;

  /// Of two records of one function (from two configurations, or two units
  /// that include its header), whether this one is reported instead of
  /// Old: an annotated one wins over a skipped one, and with --strip a
  /// kept one over all, as the kept function's removals are dropped
  /// everywhere (FileAnnotation::Kept).
  bool supersedes(const FunctionRecord &Old) const {
    return !Old.Unremoved && (Unremoved || (Annotated && !Old.Annotated));
  }
};

/// One file touched by a translation unit: its bytes as parsed and the
/// edits planned for it.
/// A `return`, `goto`, noreturn call (`exit`, `MPI_Abort`) or finalize call
/// (`MPI_Finalize`) written in a preprocessor block that a configuration
/// skipped, in the body of a function it annotated: where an END would be
/// missing if no planned configuration compiles that block.
struct SkippedExit {
  /// Real path, and byte offset of the token in it.
  std::string Path;
  unsigned Offset = 0;
  /// Where diagnostics name it: the file as the compiler opened it.
  std::string File;
  unsigned Line = 0, Column = 0;
  /// "return", "MPI_Abort", ...
  std::string Token;
  /// The directive that opens the block: "#ifdef HAVE_LUSTRE",
  /// "#else of #ifdef HAVE_LUSTRE"
  std::string Condition;
  /// The annotated function: "open_target"
  std::string Function;
};

struct FileAnnotation {
  /// The real path: "/src/ior/include/io.h"
  std::string Path;
  /// The name it was opened by, absolute, symbolic links kept:
  /// "/src/ior/include/link.h" (a link to io.h)
  std::string Name;
  std::string Original;
  FileEdits Edits;
  /// --strip: [Begin, End) byte ranges nothing may be removed from (the
  /// body of a function that keeps its annotations, an include still
  /// used). Another configuration or unit may not have seen why: merging
  /// drops its removals there.
  std::vector<std::pair<unsigned, unsigned>> Kept;
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
  /// When it failed because Clang rejected it: its first error
  /// ("at src/main.c:5:3: unknown type name 'mutable'") and what to try
  /// ("parsed as C: if the build compiles it as C++, try
  /// --extra-arg-before=-xc++ ...").
  std::string FirstError, FailureHint;
  /// Keyed by the file's real path.
  std::map<std::string, FileAnnotation> Files;
  std::vector<FunctionRecord> Functions;
  std::vector<Diagnostic> Diagnostics;
  /// Per file read (real path), the [Begin, End) byte ranges that the
  /// preprocessor skipped (once configurations are merged: that every one
  /// of them that read the file skipped).
  std::map<std::string, std::vector<std::pair<unsigned, unsigned>>> Skipped;
  /// Exits in skipped blocks of annotated functions, each once.
  std::vector<SkippedExit> SkippedExits;
  /// Set by runBatch: the exits no planned configuration of any unit
  /// compiled (each is also a warning in Diagnostics).
  std::vector<SkippedExit> UncompiledExits;
  /// What Clang itself printed (the errors of a unit that does not
  /// compile), kept to be printed whole, never interleaved with another
  /// thread's.
  std::string CompilerOutput;
  /// Flags of the compile command that Clang's driver does not know
  /// (GCC-only: "-fstdarg-opt"), dropped before parsing as clangd does.
  std::vector<std::string> DroppedFlags;
};

/// The configurations File is planned in: every compile command Database
/// has for it (identical ones once), each alone and with each of
/// Options.Variants.
std::vector<Configuration>
configurationsOf(const clang::tooling::CompilationDatabase &Database,
                 llvm::StringRef File, const AnnotateOptions &Options);

/// Annotates the translation unit of File in one configuration (with
/// Options.Strip: plans the removal of its annotations instead).
TranslationUnitResult annotateConfiguration(const Configuration &Config,
                                            llvm::StringRef File,
                                            const AnnotateOptions &Options);

/// One result for File from its configurations' (in the order of
/// configurationsOf): the edits of all of them, each function once
/// (annotated if any configuration annotated it), the blocks every one of
/// them skipped and the exits written there. A configuration that fails
/// makes the file fail, naming it; so does having none.
TranslationUnitResult
mergeConfigurations(llvm::StringRef File,
                    std::vector<TranslationUnitResult> Results,
                    const std::vector<Configuration> &Configs);

/// Annotates code held in memory (for tests and tools).
TranslationUnitResult annotateCode(llvm::StringRef Code,
                                   llvm::StringRef FileName,
                                   const std::vector<std::string> &Args,
                                   const AnnotateOptions &Options);

} // namespace annotate

#endif
