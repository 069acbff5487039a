//===- annotate.cpp - The annotate command line ---------------------------===//
//
// Options and main only; everything else lives in the library.
//
//   annotate [options] <file>... [-- <compiler flags>]
//   annotate -p <build-dir> [options] [<file>...]
//
//===----------------------------------------------------------------------===//

#include "annotate/Batch.h"
#include "annotate/Installation.h"
#include "annotate/RuleSet.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <thread>

using namespace llvm;
using namespace annotate;

static cl::OptionCategory Category("annotate options");

static cl::list<std::string> Files(cl::Positional, cl::desc("<file>..."),
                                   cl::cat(Category));
static cl::opt<std::string> BuildPath(
    "p", cl::desc("Build directory holding compile_commands.json; with no "
                  "files, annotate every file of it under --root. A file it "
                  "lists several times is planned under each of its commands"),
    cl::value_desc("build-dir"), cl::cat(Category));
static cl::opt<bool> InPlace("i", cl::desc("Rewrite the files in place"),
                             cl::cat(Category));
static cl::alias InPlaceLong("in-place", cl::aliasopt(InPlace),
                             cl::desc("Alias for -i"));
static cl::opt<std::string> OutputDir(
    "o", cl::desc("Write annotated copies under DIR, mirroring --root by "
                  "real path; a link in DIR is replaced, never written "
                  "through"),
    cl::value_desc("dir"), cl::cat(Category));
static cl::alias OutputDirLong("output-dir", cl::aliasopt(OutputDir),
                               cl::desc("Alias for -o"));
static cl::opt<std::string>
    Root("root",
         cl::desc("Project root (default: the current directory): -o "
                  "mirrors paths under it, -p without files annotates the "
                  "files under it, and headers under it are annotated too "
                  "when it is given. -i writes only files whose real path "
                  "is under it: a link to a file outside is not written "
                  "(an error)"),
         cl::value_desc("dir"), cl::cat(Category));
static cl::opt<bool> Diff("diff",
                          cl::desc("Print a unified diff; write nothing"),
                          cl::cat(Category));
static cl::opt<bool>
    Check("check", cl::desc("Exit 1 if some file would change; write nothing"),
          cl::cat(Category));
static cl::opt<std::string>
    Rules("rules",
          cl::desc("Rule set: a name (dftracer, caliper, scorep) or a JSON "
                   "file"),
          cl::init("dftracer"), cl::value_desc("name|file"), cl::cat(Category));
static cl::opt<BracePolicy> Braces(
    "braces", cl::desc("When to brace braceless if/else/for/while/do bodies"),
    cl::values(clEnumValN(BracePolicy::Needed, "needed",
                          "when an insertion lands in one (default)"),
               clEnumValN(BracePolicy::All, "all",
                          "every braceless body of annotated functions"),
               clEnumValN(BracePolicy::None, "none",
                          "never; insertions that need braces are dropped "
                          "with a warning")),
    cl::init(BracePolicy::Needed), cl::cat(Category));
static cl::list<std::string> Variants(
    "variant",
    cl::desc("Plan every file also as compiled with these extra compiler "
             "flags added to each of its compile commands (repeatable: "
             "--variant -DHAVE_LUSTRE --variant '-DWIDE=1 -DUSE_X'). Code "
             "under #if/#ifdef gets its END in every configuration planned; "
             "the edits of all are merged. A return in a block that no "
             "configuration compiles is warned about"),
    cl::value_desc("flags"), cl::cat(Category));
static cl::list<std::string>
    Meta("meta", cl::desc("Application metadata recorded by main (repeatable)"),
         cl::value_desc("key=value"), cl::cat(Category));
// Prefix: `-j2` as make, ninja and ctest users type it, as well as `-j 2`
// and `-j=2`.
static cl::opt<unsigned>
    Jobs("j", cl::Prefix,
         cl::desc("Translation units annotated in parallel: -jN, -j N or "
                  "-j=N; 0 or none means the number of cores"),
         cl::init(0), cl::value_desc("N"), cl::cat(Category));
static cl::opt<std::string>
    Report("report",
           cl::desc("Write a JSON report: per file and function, annotated "
                    "or skipped and why"),
           cl::value_desc("file.json"), cl::cat(Category));

static cl::opt<std::string> Coverage(
    "coverage",
    cl::desc("Write the coverage record, one JSON line: per translation unit "
             "annotated or failed (and why), and each function left "
             "unannotated with why (annotate-cc writes one per object)"),
    cl::value_desc("file.json"), cl::cat(Category));

static cl::opt<bool> Verify(
    "verify",
    cl::desc("With -i or -o: compile each changed file with its own compile "
             "commands, and each --variant (-fsyntax-only, plus the runtime's "
             "include directory); restore the files of one that fails"),
    cl::cat(Category));
static cl::opt<std::string>
    Explain("explain",
            cl::desc("Say why each function NAME was annotated or skipped; "
                     "write nothing"),
            cl::value_desc("NAME"), cl::cat(Category));

static cl::opt<bool> Strip(
    "strip",
    cl::desc("Take out what annotate wrote under the rule set (--rules), "
             "byte for byte: its statements, value returns, braces, include "
             "and #line directives, whatever was edited around them. "
             "Hand-written annotations of the same form go too, except "
             "under an opt-out comment or a filter; an annotation no longer "
             "in annotate's form stays, with a warning, and the exit status "
             "is 1. Options shaping what annotate writes (--braces, --meta, "
             "--categories, --line-directives, --guard) are not needed"),
    cl::cat(Category));

static cl::opt<bool> LineDirectives(
    "line-directives",
    cl::desc("Keep every original line at its number (insertions go inline) "
             "and add #line directives naming the original file, so that "
             "diagnostics and debuggers of a compiled annotated copy point "
             "at the original"),
    cl::cat(Category));

static cl::list<std::string> IncludeFunction(
    "include-function",
    cl::desc("Annotate functions matching PATTERN (glob, or re:REGEX; "
             "qualified names in C++). Filters apply in order after the "
             "rule set's, the last match winning"),
    cl::value_desc("pattern"), cl::cat(Category));
static cl::list<std::string> ExcludeFunction(
    "exclude-function", cl::desc("Do not annotate functions matching PATTERN"),
    cl::value_desc("pattern"), cl::cat(Category));
static cl::list<std::string> IncludeFile(
    "include-file",
    cl::desc("Annotate files whose path relative to --root matches PATTERN"),
    cl::value_desc("pattern"), cl::cat(Category));
static cl::list<std::string> ExcludeFile(
    "exclude-file",
    cl::desc("Do not annotate files whose path relative to --root matches "
             "PATTERN"),
    cl::value_desc("pattern"), cl::cat(Category));
static cl::list<std::string> FilterFiles(
    "filter-file",
    cl::desc("Read function and file filters from FILE (repeatable): one "
             "rule a line, 'exclude-function P', 'include-function P', "
             "'exclude-file P' or 'include-file P', '#' comment lines; they "
             "apply after the rule set's and before the command line's, in "
             "file order (written by dftracer-analyze --suggest-filter)"),
    cl::value_desc("file"), cl::cat(Category));
static cl::opt<bool> Verbose(
    "verbose",
    cl::desc("Print every warning on its own line (by default, warnings of "
             "one kind and cause are one line with their count and first "
             "location; --report lists each either way), and when stderr is "
             "not a terminal, a line per file and configuration as it starts "
             "(on a terminal, one line shows files done and time elapsed)"),
    cl::cat(Category));
static cl::opt<int> Guard(
    "guard",
    cl::desc("Overhead guard: skip leaf functions (calling nothing but "
             "builtins) with fewer than N statements; 0 turns it off "
             "(default: the rule set's)"),
    cl::init(-1), cl::value_desc("N"), cl::cat(Category));
static cl::opt<bool> Categories(
    "categories",
    cl::desc("Record each function's category (io, comm, mem, cpu), decided "
             "from its calls, after START"),
    cl::cat(Category));

// clang-tidy's options of the same names: for what the build's command
// does not say (the build compiles with GCC, annotate parses with Clang).
static cl::list<std::string> ExtraArgs(
    "extra-arg",
    cl::desc("Add a flag to the end of every compile command annotate parses "
             "with (repeatable): --extra-arg=-Wno-c++11-narrowing, "
             "--extra-arg=-DHAVE_X. For Clang's parse only: --verify "
             "compiles with the build's own command"),
    cl::value_desc("flag"), cl::cat(Category));
static cl::list<std::string> ExtraArgsBefore(
    "extra-arg-before",
    cl::desc("Add a flag right after the compiler of every compile command "
             "(repeatable), where it applies to the source: "
             "--extra-arg-before=-xc++ parses C sources as C++. Without it, "
             "the language is the command's: its -x, else its compiler (a "
             "C++ compiler such as g++, mpicxx or CC compiles .c as C++), "
             "else the extension"),
    cl::value_desc("flag"), cl::cat(Category));

/// Adds the command line's filters to the rule set's, in command-line order.
static llvm::Error addFilters(RuleSet &Rules) {
  struct Item {
    unsigned Position;
    bool Include, OnFiles;
    std::string Text;
    const char *Flag;
  };
  std::vector<Item> Items;
  auto Collect = [&](cl::list<std::string> &List, bool Include, bool OnFiles,
                     const char *Flag) {
    for (unsigned I = 0; I < List.size(); ++I)
      Items.push_back({List.getPosition(I), Include, OnFiles, List[I], Flag});
  };
  Collect(IncludeFunction, true, false, "--include-function");
  Collect(ExcludeFunction, false, false, "--exclude-function");
  Collect(IncludeFile, true, true, "--include-file");
  Collect(ExcludeFile, false, true, "--exclude-file");
  llvm::sort(Items, [](const Item &A, const Item &B) {
    return A.Position < B.Position;
  });
  for (Item &I : Items) {
    auto P = Pattern::compile(I.Text);
    if (!P)
      return llvm::createStringError(std::errc::invalid_argument, "%s: %s",
                                     I.Flag,
                                     toString(P.takeError()).c_str());
    (I.OnFiles ? Rules.FileFilter : Rules.FunctionFilter)
        .add({I.Include, std::move(*P), I.Flag});
  }
  return llvm::Error::success();
}

static int usageError(const Twine &Message) {
  errs() << "annotate: error: " << Message << "\n"
         << "Run 'annotate --help' for usage.\n";
  return 2;
}

static std::string absolute(StringRef Path) {
  SmallString<256> Abs(Path);
  sys::fs::make_absolute(Abs);
  sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The real path, or Path itself when it does not exist.
static std::string real(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

int main(int argc, const char **argv) {
  // Everything after `--` is the compile command of the files.
  int ToolArgc = argc;
  std::vector<std::string> CompilerFlags;
  bool HasFlags = false;
  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--") {
      ToolArgc = I;
      HasFlags = true;
      CompilerFlags.assign(argv + I + 1, argv + argc);
      break;
    }
  cl::HideUnrelatedOptions(Category);
  cl::SetVersionPrinter([](raw_ostream &OS) { OS << "annotate 0.1.0\n"; });
  if (!cl::ParseCommandLineOptions(
          ToolArgc, argv,
          "annotate: instrument C and C++ sources with tracing calls.\n\n"
          "  annotate [options] <file>... [-- <compiler flags>]\n"
          "  annotate -p <build-dir> [options] [<file>...]\n\n"
          "Every function of the given files gets a span (C: START first, END "
          "before each return and at a reachable closing brace; C++: an RAII "
          "guard); main starts and stops the tracer around "
          "MPI_Init/MPI_Finalize. Rule sets: dftracer (default), caliper, "
          "scorep, or a JSON file (docs/rules.md). With one file and no "
          "-i/-o/--diff/--check/--explain, the result goes to stdout; "
          "diagnostics and a summary go to stderr.\n\n"
          "Exit status: 0 success; 1 a file failed, or --check found work; "
          "2 usage or rule-set error.\n",
          &errs()))
    return 2;

  int Modes = InPlace + !OutputDir.empty() + Diff + Check;
  if (Modes > 1)
    return usageError("-i, -o, --diff and --check exclude each other");
  if (Verify && !InPlace && OutputDir.empty())
    return usageError("--verify needs -i or -o");
  if (Strip && !Explain.empty())
    return usageError("--explain says why functions are annotated; it does "
                      "not go with --strip");
  if (!BuildPath.empty() && HasFlags)
    return usageError("give either -p or '-- <compiler flags>', not both");

  Installation Install = findInstallation(argv[0], (void *)&main);
  BatchOptions Options;
  Expected<RuleSet> Loaded = loadRuleSet(Rules, Install.RulesDir);
  if (!Loaded) {
    errs() << "annotate: error: " << toString(Loaded.takeError()) << "\n";
    return 2;
  }
  Options.Annotate.Rules = std::move(*Loaded);
  for (const std::string &F : FilterFiles)
    if (llvm::Error E = readFilterFile(F, Options.Annotate.Rules.FunctionFilter,
                                       Options.Annotate.Rules.FileFilter)) {
      errs() << "annotate: error: " << toString(std::move(E)) << "\n";
      return 2;
    }
  if (llvm::Error E = addFilters(Options.Annotate.Rules))
    return usageError(toString(std::move(E)));
  if (Guard >= 0)
    Options.Annotate.Rules.GuardMinStatements = Guard;
  if (Categories) {
    if (Options.Annotate.Rules.CategoryUpdate.empty())
      return usageError("rule set '" + Options.Annotate.Rules.Name +
                        "' defines no category update statement");
    Options.Annotate.Rules.CategoriesEnabled = true;
  }
  Options.Annotate.Braces = Braces;
  Options.Annotate.LineDirectives = LineDirectives;
  Options.Annotate.Strip = Strip;
  Options.Annotate.RuntimeIncludeDir = Install.RuntimeIncludeDir;
  Options.Annotate.ResourceDir = Install.ClangResourceDir;
  Options.Annotate.ExtraArgs.assign(ExtraArgs.begin(), ExtraArgs.end());
  Options.Annotate.ExtraArgsBefore.assign(ExtraArgsBefore.begin(),
                                          ExtraArgsBefore.end());
  for (const std::string &V : Variants) {
    BumpPtrAllocator Alloc;
    StringSaver Saver(Alloc);
    SmallVector<const char *, 8> Flags;
    cl::TokenizeGNUCommandLine(V, Saver, Flags);
    if (Flags.empty())
      return usageError("--variant expects compiler flags, got '" + V + "'");
    Options.Annotate.Variants.push_back(
        {V, std::vector<std::string>(Flags.begin(), Flags.end())});
  }
  for (const std::string &M : Meta) {
    auto [Key, Value] = StringRef(M).split('=');
    if (Key.empty() || !StringRef(M).contains('='))
      return usageError("--meta expects key=value, got '" + M + "'");
    Options.Annotate.Meta.emplace_back(Key.str(), Value.str());
  }
  Options.Root = absolute(Root.empty() ? "." : Root.getValue());
  if (!Root.empty())
    Options.Annotate.Root = Options.Root;
  // File filters see real paths (the compiler's): relative to the real root.
  Options.Annotate.FilterRoot = real(Options.Root);
  Options.Jobs = Jobs ? Jobs : std::max(1u, std::thread::hardware_concurrency());
  Options.ReportPath = Report;
  Options.CoveragePath = Coverage;
  Options.Verify = Verify;
  Options.Verbose = Verbose;
  Options.Explain = Explain;
  Options.OutputDir = OutputDir.empty() ? "" : absolute(OutputDir);
  Options.Mode = InPlace             ? OutputMode::InPlace
                 : !OutputDir.empty() ? OutputMode::OutputDir
                 : Diff               ? OutputMode::Diff
                 : Check              ? OutputMode::Check
                                      : OutputMode::Stdout;

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  std::string Error;
  if (!BuildPath.empty()) {
    Database = clang::tooling::CompilationDatabase::loadFromDirectory(BuildPath,
                                                                      Error);
    if (!Database)
      return usageError("cannot load a compile database from '" + BuildPath +
                        "': " + Error);
  } else if (HasFlags) {
    Database = std::make_unique<clang::tooling::FixedCompilationDatabase>(
        ".", CompilerFlags);
  } else if (!Files.empty()) {
    Database = clang::tooling::CompilationDatabase::autoDetectFromSource(
        absolute(Files.front()), Error);
    if (!Database)
      Database = std::make_unique<clang::tooling::FixedCompilationDatabase>(
          ".", std::vector<std::string>());
  }

  // Each file once, in the order given: `a.c ./a.c` is one file, parsed once.
  std::vector<std::string> Inputs;
  std::set<std::string> Given;
  for (const std::string &F : Files) {
    std::string Path = absolute(F);
    if (Given.insert(Path).second)
      Inputs.push_back(std::move(Path));
  }
  if (Inputs.empty() && Database) {
    // Every file of the database under the root, each once.
    std::vector<std::string> All = Database->getAllFiles();
    llvm::sort(All);
    // Under the root by name ("src/../../x.c" is not) or by real path; a
    // name under the root whose real path is not is refused when written.
    std::string RealRoot = real(Options.Root);
    for (const std::string &F : All) {
      std::string Path = absolute(F);
      if ((StringRef(Path).starts_with(Options.Root + "/") ||
           StringRef(real(Path)).starts_with(RealRoot + "/")) &&
          Given.insert(Path).second)
        Inputs.push_back(std::move(Path));
    }
  }
  if (Inputs.empty())
    return usageError("no input files");
  if (Options.Mode == OutputMode::Stdout && Inputs.size() > 1 &&
      Explain.empty())
    return usageError("several files need -i, -o DIR, --diff or --check");

  return runBatch(*Database, Inputs, Options, outs(), errs());
}
