//===- Annotator.cpp - Running the pipeline on a translation unit ---------===//

#include "annotate/Annotator.h"
#include "AnnotateInternal.h"
#include "FunctionPlanner.h"
#include "IncludePlanner.h"
#include "Selection.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclFriend.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

using namespace clang;

namespace annotate {

std::string Diagnostic::format() const {
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Column) +
         (Severity == Error ? ": error: " : ": warning: ") + Message;
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

/// Whether a path lies under a directory (both absolute).
bool isUnder(StringRef Path, StringRef Dir) {
  if (Dir.empty() || !Path.starts_with(Dir))
    return false;
  return Path.size() == Dir.size() || llvm::sys::path::is_separator(Path[Dir.size()]) ||
         llvm::sys::path::is_separator(Dir.back());
}

/// The absolute, symlink-free path of a file the compiler opened. Names in
/// a compile command are relative to its directory, which is the file
/// manager's working directory, not the process's.
std::string canonicalPath(FileManager &FM, FileEntryRef FE) {
  StringRef Canonical = FM.getCanonicalName(FE);
  if (!Canonical.empty() && llvm::sys::path::is_absolute(Canonical))
    return Canonical.str();
  llvm::SmallString<256> Abs(FE.getName());
  FM.makeAbsolutePath(Abs);
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  return std::string(Abs);
}

std::string realPath(StringRef Path) {
  llvm::SmallString<256> Real;
  if (llvm::sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

class AnnotateConsumer : public ASTConsumer {
public:
  AnnotateConsumer(CompilerInstance &CI, const PreprocessorIndex &Index,
                   const AnnotateOptions &Options,
                   std::function<bool(FileID)> Wanted,
                   TranslationUnitResult &Result)
      : CI(CI), Index(Index), Options(Options), Wanted(std::move(Wanted)),
        Result(Result) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    Result.Cxx = Ctx.getLangOpts().CPlusPlus;
    if (CI.getDiagnostics().hasErrorOccurred()) {
      Result.Failed = true;
      Result.FailureReason = "the file does not compile; left unchanged";
      return;
    }
    if (Ctx.getLangOpts().CPlusPlus && Options.Rules.CxxFunctionStart.empty()) {
      Result.Failed = true;
      Result.FailureReason = "rule set '" + Options.Rules.Name +
                             "' has no C++ rules (\"cxx\"); left unchanged";
      return;
    }
    DiagnosticSink Sink(Ctx.getSourceManager(), Result.Diagnostics);
    PlanContext PC{Ctx, Index, Options, Sink};
    visit(Ctx.getTranslationUnitDecl(), PC);
    finish(Ctx);
  }

private:
  /// Finds the written function definitions: at file scope, in extern "C"
  /// blocks, namespaces and classes, and the pattern of each template
  /// (never its instantiations).
  void visit(const DeclContext *DC, PlanContext &PC) {
    const SourceManager &SM = PC.Ctx.getSourceManager();
    for (const Decl *D : DC->decls()) {
      if (D->isImplicit() && !isa<FunctionDecl>(D))
        continue;
      // Declarations from system headers hold nothing of ours (and std
      // alone holds thousands).
      if (SM.isInSystemHeader(SM.getExpansionLoc(D->getLocation())))
        continue;
      if (const auto *Template = dyn_cast<FunctionTemplateDecl>(D))
        D = Template->getTemplatedDecl();
      else if (const auto *Template = dyn_cast<ClassTemplateDecl>(D))
        D = Template->getTemplatedDecl();
      else if (const auto *Friend = dyn_cast<FriendDecl>(D))
        if (NamedDecl *Befriended = Friend->getFriendDecl())
          D = Befriended;
      if (const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(D);
          Spec && !Spec->isExplicitSpecialization())
        continue;
      if (isa<LinkageSpecDecl, NamespaceDecl, CXXRecordDecl>(D)) {
        visit(cast<DeclContext>(D), PC);
        continue;
      }
      // Lambdas outside functions: `auto twice = [](int x) { ... };` at
      // namespace scope, in static members and default member initialisers.
      const Expr *Init = nullptr;
      if (const auto *Var = dyn_cast<VarDecl>(D))
        Init = Var->getInit();
      else if (const auto *Field = dyn_cast<FieldDecl>(D))
        Init = Field->getInClassInitializer();
      if (Init && Wanted(SM.getFileID(SM.getExpansionLoc(D->getLocation())))) {
        std::vector<const LambdaExpr *> Lambdas;
        if (const auto *L = dyn_cast<LambdaExpr>(Init->IgnoreImplicit()))
          Lambdas.push_back(L);
        else
          collectLambdas(Init, Lambdas);
        handleLambdas(Lambdas, PC);
        continue;
      }
      const auto *FD = dyn_cast<FunctionDecl>(D);
      if (!FD || !FD->isThisDeclarationADefinition())
        continue;
      FileID FID = SM.getFileID(SM.getExpansionLoc(FD->getLocation()));
      if (!Wanted(FID))
        continue;
      handle(*FD, PC);
    }
  }

  void handle(const FunctionDecl &FD, PlanContext &PC) {
    const SourceManager &SM = PC.Ctx.getSourceManager();
    Verdict V{selectFunction(FD, SM, Index, Options.Rules), ""};
    if (V.S == Selection::Selected) {
      FileID FID = SM.getFileID(SM.getExpansionLoc(FD.getLocation()));
      const FileRules &F = fileRules(FID, PC);
      if (F.OptsOut)
        V = {Selection::OptOut,
             "comment '" + Options.Rules.SkipFileComment + "' in the file"};
      else
        V = applySelectionRules(FD, SM, PC.Ctx.getLangOpts(), Options.Rules,
                                F.RelativePath);
    }
    handle(FD, V, PC);
  }

  /// What the rule set says of a file as a whole.
  struct FileRules {
    std::string RelativePath;
    bool OptsOut = false;
  };
  const FileRules &fileRules(FileID FID, PlanContext &PC) {
    auto [It, Inserted] = FileRuleCache.try_emplace(FID);
    if (Inserted) {
      const SourceManager &SM = PC.Ctx.getSourceManager();
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
      std::string Path =
          FE ? canonicalPath(SM.getFileManager(), *FE) : std::string();
      llvm::StringRef Rel(Path);
      if (isUnder(Rel, Options.FilterRoot))
        Rel = Rel.drop_front(Options.FilterRoot.size()).ltrim('/');
      It->second.RelativePath = Rel.str();
      It->second.OptsOut = fileOptsOut(SM, PC.Ctx.getLangOpts(), FID,
                                       Options.Rules.SkipFileComment);
    }
    return It->second;
  }

  /// The lambdas in S, not looking inside them (their own lambdas are
  /// found when they are planned).
  static void collectLambdas(const Stmt *S,
                             std::vector<const LambdaExpr *> &Out) {
    for (const Stmt *Child : S->children()) {
      if (!Child)
        continue;
      if (const auto *L = dyn_cast<LambdaExpr>(Child))
        Out.push_back(L);
      else
        collectLambdas(Child, Out);
    }
  }

  /// Lambdas are reported, and annotated when the rule set opts in.
  void handleLambdas(llvm::ArrayRef<const LambdaExpr *> Lambdas,
                     PlanContext &PC) {
    const SourceManager &SM = PC.Ctx.getSourceManager();
    for (const LambdaExpr *L : Lambdas) {
      const CXXMethodDecl *Call = L->getCallOperator();
      handle(*Call, Verdict{selectFunction(*Call, SM, Index, Options.Rules), ""},
             PC);
    }
  }

  void handle(const FunctionDecl &FD, Verdict V, PlanContext &PC) {
    const SourceManager &SM = PC.Ctx.getSourceManager();
    Selection S = V.S;
    if (S == Selection::Ignored)
      return;
    FunctionRecord Record;
    Record.Name = FD.getQualifiedNameAsString();
    if (const auto *M = dyn_cast<CXXMethodDecl>(&FD); M && M->getParent()->isLambda())
      if (const auto *Outer = dyn_cast<NamedDecl>(
              Decl::castFromDeclContext(M->getParent()->getDeclContext())))
        Record.Name = "(lambda in " + Outer->getQualifiedNameAsString() + ")";
    PresumedLoc P = SM.getPresumedLoc(SM.getExpansionLoc(FD.getLocation()));
    Record.File = P.isValid() ? P.getFilename() : "";
    Record.Line = P.isValid() ? P.getLine() : 0;
    Record.Detail = V.Detail;
    if (S != Selection::Selected) {
      Record.SkipReason = describe(S);
      Result.Functions.push_back(std::move(Record));
      handleLocalClasses(FD, PC); // each member has its own verdict
      return;
    }
    FileID FID = SM.getFileID(FD.getBody()->getBeginLoc());
    auto &Text = Texts[FID];
    if (!Text)
      Text = std::make_unique<SourceText>(SM, PC.Ctx.getLangOpts(), FID);
    FunctionPlanner Planner(PC, *Text, FD);
    Record.Annotated = Planner.plan(Edits[FID]);
    if (!Record.Annotated)
      Record.SkipReason = "cannot be annotated safely";
    Result.Functions.push_back(std::move(Record));
    handleLambdas(Planner.lambdas(), PC);
    handleLocalClasses(FD, PC);
  }

  /// Classes defined in a function body (a C++ functor before lambdas, say)
  /// have member functions of their own. The body's lambdas are not among
  /// these records: they come from the planner.
  void handleLocalClasses(const FunctionDecl &FD, PlanContext &PC) {
    for (const Decl *D : FD.decls())
      if (const auto *Record = dyn_cast<CXXRecordDecl>(D);
          Record && !Record->isLambda() && !Record->isImplicit())
        visit(Record, PC);
  }

  void finish(ASTContext &Ctx) {
    const SourceManager &SM = Ctx.getSourceManager();
    // With line directives, a main file that needs nothing still names its
    // original, so that a compiled copy points back at it.
    FileID Main = SM.getMainFileID();
    if (Options.LineDirectives && Edits[Main].empty() && !Texts[Main])
      Texts[Main] = std::make_unique<SourceText>(SM, Ctx.getLangOpts(), Main);
    for (auto &[FID, FileEditsOfFile] : Edits) {
      bool Unchanged = FileEditsOfFile.empty();
      if (Unchanged && !(Options.LineDirectives && FID == Main))
        continue;
      const SourceText &Text = *Texts[FID];
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
      bool Guarded = FID != SM.getMainFileID() && FE &&
                     CI.getPreprocessor()
                         .getHeaderSearchInfo()
                         .isFileMultipleIncludeGuarded(*FE);
      unsigned FirstEdit = ~0u;
      for (const Edit &E : FileEditsOfFile.merge().Edits)
        FirstEdit = std::min(FirstEdit, E.Offset);
      std::string Path =
          FE ? canonicalPath(SM.getFileManager(), *FE) : std::string();
      std::string Directive = Options.LineDirectives ? Path : "";
      if (!Unchanged)
        if (auto Include = planInclude(Options.Rules.Include, Text, Index,
                                       FirstEdit, Guarded, Directive))
          FileEditsOfFile.add(*Include);
      if (Options.LineDirectives)
        FileEditsOfFile.add({0, 0, lineDirective(1, Path), /*Rank=*/0});
      FileAnnotation &F = Result.Files[Path];
      F.Path = Path;
      F.Original = Text.buffer().str();
      F.Edits.append(FileEditsOfFile);
    }
  }

  CompilerInstance &CI;
  const PreprocessorIndex &Index;
  const AnnotateOptions &Options;
  std::function<bool(FileID)> Wanted;
  TranslationUnitResult &Result;
  std::map<FileID, std::unique_ptr<SourceText>> Texts;
  llvm::DenseMap<FileID, FileRules> FileRuleCache;
  std::map<FileID, FileEdits> Edits;
};

class AnnotateAction : public ASTFrontendAction {
public:
  AnnotateAction(const AnnotateOptions &Options, TranslationUnitResult &Result)
      : Options(Options), Result(Result) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef File) override {
    SourceManager &SM = CI.getSourceManager();
    if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
      Result.MainFile = canonicalPath(CI.getFileManager(), *Main);
    std::vector<std::string> Markers = Options.Rules.AnnotatedMarkers;
    Markers.insert(Markers.end(), Options.Rules.InitialisedMarkers.begin(),
                   Options.Rules.InitialisedMarkers.end());
    std::string Root = Options.Root.empty() ? "" : realPath(Options.Root);
    auto Wanted = [&SM, Root](FileID FID) {
      if (FID == SM.getMainFileID())
        return true;
      if (Root.empty() || FID.isInvalid())
        return false;
      OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
      return FE && isUnder(canonicalPath(SM.getFileManager(), *FE), Root);
    };
    PreprocessorIndex::attach(CI.getPreprocessor(), Index, Markers, Wanted);
    // The consumer asks the same question for every declaration: cache it.
    auto Cached = [Wanted, Cache = std::make_shared<llvm::DenseMap<FileID, bool>>()](
                      FileID FID) {
      auto [It, Inserted] = Cache->try_emplace(FID, false);
      if (Inserted)
        It->second = Wanted(FID);
      return It->second;
    };
    return std::make_unique<AnnotateConsumer>(CI, Index, Options, Cached,
                                              Result);
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

/// A file listed several times in a compile database (one source built
/// into several targets) is annotated once, with its first command.
class FirstCommandDatabase : public tooling::CompilationDatabase {
public:
  explicit FirstCommandDatabase(const tooling::CompilationDatabase &Base)
      : Base(Base) {}
  std::vector<tooling::CompileCommand>
  getCompileCommands(StringRef File) const override {
    auto Commands = Base.getCompileCommands(File);
    if (Commands.size() > 1)
      Commands.resize(1);
    return Commands;
  }

private:
  const tooling::CompilationDatabase &Base;
};

/// Flags added to every compile command: tolerate what GCC tolerates, do
/// not print the project's own warnings, find Clang's builtin headers and,
/// last of all, the bundled tracer header.
std::vector<std::string> extraFlags(const AnnotateOptions &Options) {
  std::vector<std::string> Flags = {
      "-w",
      "-Wno-error",
      "-Wno-error=implicit-function-declaration",
      "-Wno-error=implicit-int",
      "-Wno-error=int-conversion",
      "-Wno-error=incompatible-pointer-types",
      "-Wno-error=incompatible-function-pointer-types",
  };
  if (!Options.RuntimeIncludeDir.empty()) {
    Flags.push_back("-idirafter");
    Flags.push_back(Options.RuntimeIncludeDir);
  }
  return Flags;
}

tooling::CommandLineArguments
adjustArguments(const tooling::CommandLineArguments &Args,
                const AnnotateOptions &Options) {
  tooling::CommandLineArguments Out = Args;
  bool HasResourceDir = llvm::any_of(Args, [](const std::string &A) {
    return StringRef(A).starts_with("-resource-dir");
  });
  if (!HasResourceDir && !Options.ResourceDir.empty() && !Out.empty())
    Out.insert(Out.begin() + 1, "-resource-dir=" + Options.ResourceDir);
  for (std::string &Flag : extraFlags(Options))
    Out.push_back(std::move(Flag));
  return Out;
}

} // namespace

TranslationUnitResult
annotateFile(const tooling::CompilationDatabase &Database, StringRef File,
             const AnnotateOptions &Options) {
  TranslationUnitResult Result;
  Result.MainFile = realPath(File);
  FirstCommandDatabase Once(Database);
  // A physical file system of its own: the default one follows the
  // process's working directory, which parallel units would fight over.
  tooling::ClangTool Tool(Once, {File.str()},
                          std::make_shared<PCHContainerOperations>(),
                          llvm::vfs::createPhysicalFileSystem());
  Tool.appendArgumentsAdjuster(
      [&Options](const tooling::CommandLineArguments &Args, StringRef) {
        return adjustArguments(Args, Options);
      });
  AnnotateActionFactory Factory(Options, Result);
  if (Tool.run(&Factory) != 0 && !Result.Failed) {
    Result.Failed = true;
    Result.FailureReason = "the file does not compile; left unchanged";
  }
  if (Result.Failed)
    Result.Files.clear();
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
