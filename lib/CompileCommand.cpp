//===- CompileCommand.cpp - The language a build compiles a file as -------===//

#include "CompileCommand.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <map>
#include <mutex>

namespace annotate {

/// C++ drivers whose names Clang's driver does not recognise (it knows any
/// name ending in "++": c++, g++, clang++, mpic++, h5c++, nvc++, ...).
/// They compile `.c` and `.h` files as C++, as g++ does.
static constexpr llvm::StringLiteral CxxDriverNames[] = {
    "CC",      // Cray, Oracle/Sun and Fujitsu (case matters: cc is C)
    "mpicxx",  // MPICH, Open MPI, MVAPICH
    "mpiCC",   // Open MPI, MPICH
    "mpiicpc", // Intel MPI over icpc
    "mpiicpx", // Intel MPI over icpx
    "mpiFCC",  // Fujitsu MPI
    "mpixlC",  // IBM XL MPI
    "mpixlcxx",
    "icpc", // Intel classic
    "icpx", // Intel oneAPI
    "dpcpp",
    "xlC", // IBM XL
    "xlC_r",
    "FCC", // Fujitsu
    "FCCpx",
    "pgCC", // PGI
    "crayCC",
    "sunCC",
};

/// The driver's name without directory, ".exe", a Debian alternative's
/// MPI suffix (mpicxx.mpich) or a version (g++-12, clang++-19.1).
static llvm::StringRef driverName(llvm::StringRef Program) {
  llvm::StringRef Name = llvm::sys::path::filename(Program);
  Name.consume_back(".exe");
  for (llvm::StringRef Suffix : {".mpich", ".openmpi", ".mvapich", ".mpich2"})
    Name.consume_back(Suffix);
  size_t Dash = Name.rfind('-');
  if (Dash != llvm::StringRef::npos && Dash + 1 < Name.size() &&
      llvm::all_of(Name.substr(Dash + 1),
                   [](char C) { return llvm::isDigit(C) || C == '.'; }))
    Name = Name.take_front(Dash);
  return Name;
}

bool isCxxDriver(llvm::StringRef Program) {
  llvm::StringRef Name = driverName(Program);
  return Name.ends_with("++") || llvm::is_contained(CxxDriverNames, Name);
}

/// Whether Arg names File: the same string, or a path ending in it (the
/// database's file may be absolute, the command's relative).
static bool namesFile(llvm::StringRef Arg, llvm::StringRef File) {
  if (Arg.empty() || Arg.starts_with("-"))
    return false;
  if (Arg == File)
    return true;
  return llvm::sys::path::filename(Arg) == llvm::sys::path::filename(File) &&
         (File.ends_with(Arg) || Arg.ends_with(File));
}

/// The languages GCC's and Clang's `-x` take (a joined `-xHost` is an
/// Intel code generation flag, not a language).
static bool isLanguage(llvm::StringRef Name) {
  static constexpr llvm::StringLiteral Languages[] = {
      "none",          "c",           "c++",           "c-header",
      "c++-header",    "cpp-output",  "c++-cpp-output", "objective-c",
      "objective-c++", "cuda",        "hip",           "cl",
      "assembler",     "assembler-with-cpp"};
  return llvm::is_contained(Languages, Name);
}

std::string explicitLanguage(const std::vector<std::string> &CommandLine,
                             llvm::StringRef File) {
  std::string Language;
  for (size_t I = 1; I < CommandLine.size(); ++I) {
    llvm::StringRef A = CommandLine[I];
    if (A == "-x" && I + 1 < CommandLine.size())
      Language = CommandLine[++I];
    else if (A.starts_with("-x") && isLanguage(A.drop_front(2)))
      Language = A.drop_front(2).str(); // -xc++; not Intel's -xHost
    else if (A == "--language" && I + 1 < CommandLine.size())
      Language = CommandLine[++I];
    else if (A.starts_with("--language="))
      Language = A.drop_front(11).str();
    else if (namesFile(A, File))
      break;
  }
  return Language == "none" ? "" : Language;
}

std::string impliedLanguage(const std::vector<std::string> &CommandLine,
                            llvm::StringRef File) {
  if (CommandLine.empty() || !explicitLanguage(CommandLine, File).empty())
    return "";
  bool Cxx = isCxxDriver(CommandLine.front());
  for (const std::string &A : CommandLine)
    if (llvm::StringRef(A).starts_with("--driver-mode="))
      Cxx = A == "--driver-mode=g++";
  if (!Cxx)
    return "";
  // The extensions Clang reads as C, and what a C++ driver makes of them.
  llvm::StringRef Ext = llvm::sys::path::extension(File);
  if (Ext == ".c")
    return "c++";
  if (Ext == ".h")
    return "c++-header";
  if (Ext == ".i")
    return "c++-cpp-output";
  return "";
}

std::vector<std::string>
withImpliedLanguage(std::vector<std::string> CommandLine,
                    llvm::StringRef File) {
  std::string Language = impliedLanguage(CommandLine, File);
  if (!Language.empty())
    CommandLine.insert(CommandLine.begin() + 1, {"-x", Language});
  return CommandLine;
}

/// A directory the compiler knows that Clang finds by itself: GCC's and
/// Clang's builtin headers, /usr/include, /usr/local/include and the
/// multiarch directory (/usr/include/x86_64-linux-gnu, not below it). The
/// same filter as annotate-cc's and AnnotateSource.cmake's.
static bool isStandardDir(llvm::StringRef Dir) {
  if (Dir == "/usr/include" || Dir == "/usr/local/include")
    return true;
  if (Dir.consume_front("/usr/include/") && !Dir.contains('/'))
    return true;
  if (Dir.contains("/gcc/") &&
      (Dir.ends_with("/include") || Dir.ends_with("/include-fixed")))
    return true;
  return Dir.contains("/clang/") && Dir.ends_with("/include");
}

static std::vector<std::string> queryDriver(llvm::StringRef Driver,
                                            llvm::StringRef Language) {
  llvm::ErrorOr<std::string> Program =
      llvm::sys::path::is_absolute(Driver)
          ? llvm::ErrorOr<std::string>(Driver.str())
          : llvm::sys::findProgramByName(Driver);
  if (!Program)
    return {};
  llvm::SmallString<128> Log;
  if (llvm::sys::fs::createTemporaryFile("annotate-driver", "txt", Log))
    return {};
  llvm::StringRef Args[] = {*Program, "-E", "-v", "-x", Language, "/dev/null"};
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                llvm::StringRef(""),
                                                llvm::StringRef(Log)};
  int Status = llvm::sys::ExecuteAndWait(*Program, Args, std::nullopt,
                                         Redirects, /*SecondsToWait=*/60);
  auto Text = llvm::MemoryBuffer::getFile(Log);
  llvm::sys::fs::remove(Log);
  if (Status != 0 || !Text)
    return {};
  std::vector<std::string> Dirs;
  bool In = false;
  llvm::SmallVector<llvm::StringRef, 32> Lines;
  (*Text)->getBuffer().split(Lines, '\n');
  for (llvm::StringRef Line : Lines) {
    if (Line.starts_with("#include <...> search starts here:")) {
      In = true;
      continue;
    }
    if (Line.starts_with("End of search list."))
      break;
    if (!In)
      continue;
    llvm::StringRef Dir = Line.trim();
    Dir.consume_back(" (framework directory)");
    if (!Dir.empty() && !isStandardDir(Dir))
      Dirs.push_back(Dir.str());
  }
  return Dirs;
}

std::vector<std::string> driverIncludeDirs(llvm::StringRef Driver,
                                           llvm::StringRef Language) {
  llvm::StringRef Name = llvm::sys::path::filename(Driver);
  if (Name.empty() || Name == "clang-tool" || Name.starts_with("clang"))
    return {};
  static std::mutex M;
  static std::map<std::pair<std::string, std::string>, std::vector<std::string>>
      Cache;
  std::lock_guard<std::mutex> Lock(M); // one query per driver, run once
  auto Key = std::make_pair(Driver.str(), Language.str());
  auto It = Cache.find(Key);
  if (It == Cache.end())
    It = Cache.emplace(Key, queryDriver(Driver, Language)).first;
  return It->second;
}

std::vector<std::string>
withDriverIncludeDirs(std::vector<std::string> CommandLine,
                      llvm::StringRef File) {
  if (CommandLine.empty())
    return CommandLine;
  std::string Language = explicitLanguage(CommandLine, File);
  if (Language.empty()) {
    llvm::StringRef Ext = llvm::sys::path::extension(File);
    Language = Ext == ".c" || Ext == ".h" || Ext == ".i" ? "c" : "c++";
  }
  Language = llvm::StringRef(Language).starts_with("c++") ? "c++" : "c";
  for (std::string &Dir : driverIncludeDirs(CommandLine.front(), Language)) {
    CommandLine.push_back("-idirafter");
    CommandLine.push_back(std::move(Dir));
  }
  return CommandLine;
}

} // namespace annotate
