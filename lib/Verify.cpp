//===- Verify.cpp ---------------------------------------------------------===//

#include "annotate/Verify.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

namespace annotate {

static std::string absoluteIn(llvm::StringRef Dir, llvm::StringRef Path) {
  llvm::SmallString<256> Abs(Path);
  if (!llvm::sys::path::is_absolute(Abs)) {
    Abs = Dir;
    llvm::sys::path::append(Abs, Path);
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

/// The compile command's arguments without what produces output, the
/// source replaced by CompiledPath.
static std::vector<std::string>
syntaxOnlyArguments(const clang::tooling::CompileCommand &Command,
                    llvm::StringRef CompiledPath, llvm::StringRef OriginalPath) {
  std::string Source = absoluteIn(Command.Directory, Command.Filename);
  std::vector<std::string> Args;
  const auto &Line = Command.CommandLine;
  for (size_t I = 1; I < Line.size(); ++I) {
    llvm::StringRef A = Line[I];
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I; // and its value
      continue;
    }
    if (A == "-c" || A == "-S" || A == "-E" || A == "-M" || A == "-MM" ||
        A == "-MD" || A == "-MMD" || A == "-MP" || A.starts_with("-o") ||
        A == "--")
      continue;
    if (absoluteIn(Command.Directory, A) == Source) {
      Args.push_back(CompiledPath.str());
      continue;
    }
    Args.push_back(A.str());
  }
  if (llvm::sys::path::parent_path(CompiledPath) !=
      llvm::sys::path::parent_path(OriginalPath)) {
    Args.push_back("-iquote");
    Args.push_back(llvm::sys::path::parent_path(OriginalPath).str());
  }
  if (llvm::find(Args, CompiledPath.str()) == Args.end())
    Args.push_back(CompiledPath.str());
  Args.push_back("-fsyntax-only");
  return Args;
}

VerifyOutcome verifyCompiles(const clang::tooling::CompileCommand &Command,
                             llvm::StringRef CompiledPath,
                             llvm::StringRef OriginalPath,
                             llvm::StringRef RuntimeIncludeDir) {
  VerifyOutcome Out;
  if (Command.CommandLine.empty()) {
    Out.Message = "no compile command";
    return Out;
  }
  // A command made from `-- flags` names no compiler: use the system's.
  std::string Compiler = Command.CommandLine.front();
  if (llvm::sys::path::filename(Compiler) == "clang-tool")
    Compiler = "cc";
  auto Program = llvm::sys::findProgramByName(Compiler);
  if (!Program) {
    Out.Message = "cannot find the compiler '" + Compiler + "'";
    return Out;
  }
  std::vector<std::string> Args =
      syntaxOnlyArguments(Command, CompiledPath, OriginalPath);
  if (!RuntimeIncludeDir.empty())
    Args.insert(Args.begin(), "-I" + RuntimeIncludeDir.str());

  // Run in the command's directory, where its relative paths hold.
  auto Shell = llvm::sys::findProgramByName("sh");
  if (!Shell) {
    Out.Message = "cannot find sh";
    return Out;
  }
  std::vector<llvm::StringRef> Argv = {*Shell, "-c", "cd \"$0\" && exec \"$@\"",
                                       Command.Directory, *Program};
  for (const std::string &A : Args)
    Argv.push_back(A);
  llvm::SmallString<128> Log;
  if (llvm::sys::fs::createTemporaryFile("annotate-verify", "log", Log)) {
    Out.Message = "cannot create a temporary file";
    return Out;
  }
  std::optional<llvm::StringRef> Redirects[] = {llvm::StringRef(""),
                                                Log.str(), Log.str()};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Shell, Argv, std::nullopt, Redirects,
                                         /*SecondsToWait=*/0,
                                         /*MemoryLimit=*/0, &Error);
  auto Output = llvm::MemoryBuffer::getFile(Log);
  Out.Message = Output ? (*Output)->getBuffer().str() : Error;
  llvm::sys::fs::remove(Log);
  Out.Compiles = Status == 0;
  return Out;
}

} // namespace annotate
