//===- Annotator.cpp - Running the pipeline on a translation unit ---------===//

#include "annotate/Annotator.h"
#include "AnnotateInternal.h"
#include "CompileCommand.h"
#include "Leniency.h"
#include "Paths.h"
#include "UnitPlanner.h"
#include "UnitStripper.h"

#include "clang/Driver/Driver.h"
#include "clang/Driver/Options.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace annotate {

std::string Diagnostic::format() const {
  std::string Where = Line ? File + ":" + std::to_string(Line) + ":" +
                                 std::to_string(Column)
                           : File; // about the file as a whole
  return Where + (Severity == Error ? ": error: " : ": warning: ") + Message;
}

void DiagnosticSink::warn(SourceLocation Loc, const llvm::Twine &Message) {
  PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  Diagnostic D;
  D.Message = Message.str();
  if (P.isValid()) {
    D.File = P.getFilename();
    D.Line = P.getLine();
    D.Column = P.getColumn();
  }
  Out.push_back(std::move(D));
}

void DiagnosticSink::unremoved(SourceLocation Loc, const llvm::Twine &Message) {
  warn(Loc, Message);
  Out.back().Unremoved = true;
}

bool checkCompiled(const CompilerInstance &CI, const ASTContext &Ctx,
                   TranslationUnitResult &Result) {
  Result.Cxx = Ctx.getLangOpts().CPlusPlus;
  if (!CI.getDiagnostics().hasErrorOccurred())
    return true;
  Result.Failed = true;
  Result.FailureReason = NotCompiled.str();
  return false;
}

FileAnnotation &fileResult(TranslationUnitResult &Result,
                           const SourceText &Text) {
  const SourceManager &SM = Text.sourceManager();
  std::string Path = canonicalPath(SM, Text.fileID());
  FileAnnotation &F = Result.Files[Path];
  F.Path = Path;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(Text.fileID());
  F.Name = Text.fileID() == SM.getMainFileID() || !FE
               ? Result.MainFileName
               : openedPath(SM.getFileManager(), *FE);
  F.Original = Text.buffer().str();
  return F;
}

std::string macroNameAt(SourceLocation Loc, const SourceManager &SM,
                        const LangOptions &LO) {
  // Walk out to the expansion written in the file: that is the macro the
  // user sees at this place.
  StringRef Name;
  while (Loc.isMacroID()) {
    Name = Lexer::getImmediateMacroName(Loc, SM, LO);
    Loc = SM.getImmediateMacroCallerLoc(Loc);
  }
  return Name.str();
}

namespace {

class AnnotateAction : public ASTFrontendAction {
public:
  AnnotateAction(const AnnotateOptions &Options, TranslationUnitResult &Result)
      : Options(Options), Result(Result) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    // "1 error generated." would go straight to stderr, out of order with
    // the unit's messages, which are kept (annotateConfiguration); the
    // run's own line says that the file does not compile.
    CI.setVerboseOutputStream(llvm::nulls());
    SourceManager &SM = CI.getSourceManager();
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Result.MainFile = canonicalPath(CI.getFileManager(), *Main);
    if (Result.MainFileName.empty())
      Result.MainFileName = Result.MainFile;
    // Headers under the root, by real path or by the name they were
    // included by: a link under the root to a header outside it is planned,
    // so that writing it can be refused with a reason.
    std::string Root = Options.Root.empty() ? "" : realPath(Options.Root);
    auto Wanted = [&SM, Root, Named = Options.Root](FileID FID) {
      if (FID == SM.getMainFileID())
        return true;
      if (Root.empty() || FID.isInvalid())
        return false;
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
      return FE && (isUnder(canonicalPath(SM.getFileManager(), *FE), Root) ||
                    isUnder(openedPath(SM.getFileManager(), *FE), Named));
    };
    // The consumer asks the same question for every declaration: cache it.
    auto Cached = [Wanted, Cache = std::make_shared<llvm::DenseMap<FileID, bool>>()](
                      FileID FID) {
      auto [It, Inserted] = Cache->try_emplace(FID, false);
      if (Inserted)
        It->second = Wanted(FID);
      return It->second;
    };
    if (Options.Strip) {
      PreprocessorIndex::attach(CI.getPreprocessor(), Index,
                                StripPatterns::markers(Options.Rules), Wanted,
                                Options.Rules.Include);
      return std::make_unique<UnitStripper>(CI, Index, Options, Cached, Result);
    }
    std::vector<std::string> Markers = Options.Rules.AnnotatedMarkers;
    Markers.insert(Markers.end(), Options.Rules.InitialisedMarkers.begin(),
                   Options.Rules.InitialisedMarkers.end());
    PreprocessorIndex::attach(CI.getPreprocessor(), Index, Markers, Wanted);
    return std::make_unique<UnitPlanner>(CI, Index, Options, Cached, Result);
  }

private:
  const AnnotateOptions &Options;
  TranslationUnitResult &Result;
  PreprocessorIndex Index;
};

class AnnotateActionFactory : public tooling::FrontendActionFactory {
public:
  AnnotateActionFactory(const AnnotateOptions &Options,
                        TranslationUnitResult &Result)
      : Options(Options), Result(Result) {}
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<AnnotateAction>(Options, Result);
  }

private:
  const AnnotateOptions &Options;
  TranslationUnitResult &Result;
};

/// The one compile command of a configuration, for any file asked.
class OneCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit OneCommandDatabase(tooling::CompileCommand Command)
      : Command(std::move(Command)) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef) const override {
    return {Command};
  }

private:
  tooling::CompileCommand Command;
};

/// Flags added to every compile command: tolerate what GCC tolerates, do
/// not print the project's own warnings, find Clang's builtin headers and,
/// last of all, the bundled tracer header.
std::vector<std::string> extraFlags(const AnnotateOptions &Options) {
  std::vector<std::string> Flags = {"-w", "-Wno-error"};
  for (std::string &Flag : alwaysLenient()) // Leniency.cpp
    Flags.push_back(std::move(Flag));
  if (!Options.RuntimeIncludeDir.empty()) {
    Flags.push_back("-idirafter");
    Flags.push_back(Options.RuntimeIncludeDir);
  }
  return Flags;
}

/// Args without the flags Clang's driver does not know, which go to
/// Dropped. GCC-only flags in a compile database (-fstdarg-opt,
/// -fdiagnostics-urls=never) would be printed as errors of a unit that
/// parses: clangd's CommandMangler drops them the same way, by looking
/// each argument up in the driver's option table (OPT_UNKNOWN).
tooling::CommandLineArguments
dropUnknownFlags(const tooling::CommandLineArguments &Args,
                 std::vector<std::string> &Dropped) {
  if (Args.size() < 2)
    return Args;
  std::vector<const char *> Argv;
  for (size_t I = 1; I < Args.size(); ++I)
    Argv.push_back(Args[I].c_str());
  unsigned MissingIndex = 0, MissingCount = 0;
  llvm::opt::InputArgList Parsed =
      driver::getDriverOptTable().ParseArgs(Argv, MissingIndex, MissingCount);
  std::vector<bool> Drop(Args.size(), false);
  bool Any = false;
  for (const llvm::opt::Arg *A : Parsed.filtered(driver::options::OPT_UNKNOWN)) {
    // An unknown flag is one argument, at its index in Argv.
    unsigned Index = A->getIndex() + 1;
    if (Index < Args.size() && !Drop[Index]) {
      Drop[Index] = true;
      Dropped.push_back(Args[Index]);
      Any = true;
    }
  }
  if (!Any)
    return Args;
  tooling::CommandLineArguments Out;
  for (size_t I = 0; I < Args.size(); ++I)
    if (!Drop[I])
      Out.push_back(Args[I]);
  return Out;
}

/// The command line of a configuration: --extra-arg-before, its command's
/// (without the flags Clang does not know, with the language its driver
/// implies: `mpicxx -c x.c` compiles x.c as C++, and the include
/// directories only the driver knows: mpicxx's), its variant's flags (a
/// `-D` there overrides the command's), ours, --extra-arg, then the
/// leniency of a second try.
tooling::CommandLineArguments
adjustArguments(const tooling::CommandLineArguments &Args, StringRef File,
                const std::vector<std::string> &VariantFlags,
                const AnnotateOptions &Options,
                const std::vector<std::string> &Lenient,
                std::vector<std::string> &Dropped) {
  tooling::CommandLineArguments Out = dropUnknownFlags(Args, Dropped);
  if (!Out.empty())
    Out.insert(Out.begin() + 1, Options.ExtraArgsBefore.begin(),
               Options.ExtraArgsBefore.end());
  Out = withImpliedLanguage(std::move(Out), File); // CompileCommand.cpp
  Out = withDriverIncludeDirs(std::move(Out), File);
  bool HasResourceDir = llvm::any_of(Args, [](const std::string &A) {
    return StringRef(A).starts_with("-resource-dir");
  });
  if (!HasResourceDir && !Options.ResourceDir.empty() && !Out.empty())
    Out.insert(Out.begin() + 1, "-resource-dir=" + Options.ResourceDir);
  Out.insert(Out.end(), VariantFlags.begin(), VariantFlags.end());
  for (std::string &Flag : extraFlags(Options))
    Out.push_back(std::move(Flag));
  Out.insert(Out.end(), Options.ExtraArgs.begin(), Options.ExtraArgs.end());
  Out.insert(Out.end(), Lenient.begin(), Lenient.end());
  return Out;
}

} // namespace

/// One parse of File in Config, with Lenient added; Errors gets Clang's.
static TranslationUnitResult parseOnce(const Configuration &Config,
                                       StringRef File,
                                       const AnnotateOptions &Options,
                                       const std::vector<std::string> &Lenient,
                                       std::vector<ParseError> &Errors,
                                       bool &Cxx) {
  TranslationUnitResult Result;
  Result.MainFile = realPath(File);
  Result.MainFileName = absolutePath(File);
  OneCommandDatabase One(Config.Command);
  // A physical file system of its own: the default one follows the
  // process's working directory, which parallel units would fight over.
  tooling::ClangTool Tool(One, {File.str()},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.appendArgumentsAdjuster(
      [&](const tooling::CommandLineArguments &Args, StringRef) {
        return adjustArguments(Args, File, Config.ExtraFlags, Options, Lenient,
                               Result.DroppedFlags);
      });
  // Clang's own messages are kept, to be printed whole by the caller: units
  // run in parallel, and lines written as they come would interleave.
  llvm::raw_string_ostream CompilerOutput(Result.CompilerOutput);
  auto *DiagOpts = new DiagnosticOptions(); // the printer owns it
  DiagOpts->ShowColors = false;
  TextDiagnosticPrinter Printer(CompilerOutput, DiagOpts);
  ErrorRecorder Recorder(Printer);
  Tool.setDiagnosticConsumer(&Recorder);
  Tool.setPrintErrorMessage(false);
  AnnotateActionFactory Factory(Options, Result);
  if (Tool.run(&Factory) != 0 && !Result.Failed) {
    Result.Failed = true;
    Result.FailureReason = NotCompiled.str();
  }
  CompilerOutput.flush();
  Errors = std::move(Recorder.Errors);
  Cxx = Recorder.Cxx;
  if (Result.Failed)
    Result.Files.clear();
  return Result;
}

TranslationUnitResult annotateConfiguration(const Configuration &Config,
                                            StringRef File,
                                            const AnnotateOptions &Options) {
  std::vector<ParseError> Errors;
  bool Cxx = false;
  TranslationUnitResult Result =
      parseOnce(Config, File, Options, {}, Errors, Cxx);
  if (!Result.Failed || Errors.empty())
    return Result;
  // Only errors GCC accepts (Leniency.cpp): once more, with the flags that
  // make Clang accept them, and a warning that says so.
  std::vector<std::string> Lenient = leniencyFor(Errors);
  if (!Lenient.empty()) {
    std::vector<ParseError> Again;
    TranslationUnitResult Retried =
        parseOnce(Config, File, Options, Lenient, Again, Cxx);
    if (!Retried.Failed) {
      Diagnostic D;
      D.File = Retried.MainFileName;
      D.Message = "Clang rejects what GCC accepts here (" +
                  Errors.front().format() + "): parsed with " +
                  llvm::join(Lenient, " ") + "; --extra-arg=" +
                  Lenient.front() + " does so from the start";
      Retried.Diagnostics.insert(Retried.Diagnostics.begin(), std::move(D));
      return Retried;
    }
    if (!Again.empty()) {
      Result = std::move(Retried);
      Errors = std::move(Again);
    }
  }
  Result.FirstError = Errors.front().located();
  std::vector<std::string> Command = Config.Command.CommandLine;
  Command.insert(Command.begin() + (Command.empty() ? 0 : 1),
                 Options.ExtraArgsBefore.begin(), Options.ExtraArgsBefore.end());
  Result.FailureHint = hintFor(
      Errors.front(), Cxx,
      !explicitLanguage(Command, File).empty() ||
          !impliedLanguage(Command, File).empty());
  return Result;
}

TranslationUnitResult annotateCode(StringRef Code, StringRef FileName,
                                   const std::vector<std::string> &Args,
                                   const AnnotateOptions &Options) {
  TranslationUnitResult Result;
  std::vector<std::string> Full = Args;
  if (!Options.ResourceDir.empty())
    Full.push_back("-resource-dir=" + Options.ResourceDir);
  for (std::string &Flag : extraFlags(Options))
    Full.push_back(std::move(Flag));
  bool Ok = tooling::runToolOnCodeWithArgs(
      std::make_unique<AnnotateAction>(Options, Result), Code, Full, FileName);
  if (!Ok && !Result.Failed) {
    Result.Failed = true;
    Result.FailureReason = "the code does not compile";
  }
  if (Result.Failed)
    Result.Files.clear();
  return Result;
}

} // namespace annotate
