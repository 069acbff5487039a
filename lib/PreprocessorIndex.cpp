//===- PreprocessorIndex.cpp - Recording directives and markers -----------===//

#include "PreprocessorIndex.h"
#include "AnnotateInternal.h"

#include "clang/Basic/Version.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace annotate {

class IndexingCallbacks : public PPCallbacks {
public:
  IndexingCallbacks(const Preprocessor &PP, PreprocessorIndex &Index,
                    std::vector<std::string> MarkerNames,
                    std::function<bool(FileID)> Wanted,
                    StringRef TrackedHeader)
      : SM(PP.getSourceManager()), LO(PP.getLangOpts()), Index(Index),
        Wanted(std::move(Wanted)), TrackedHeader(TrackedHeader.str()) {
    for (std::string &N : MarkerNames)
      Markers.insert(N);
  }

  void InclusionDirective(SourceLocation HashLoc, const Token &,
                          StringRef FileName, bool IsAngled,
                          CharSourceRange FilenameRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
#if CLANG_VERSION_MAJOR >= 19
                          const Module *, bool,
#else
                          const Module *,
#endif
                          SrcMgr::CharacteristicKind) override {
    if (File && !TrackedHeader.empty() && FileName == TrackedHeader)
      Index.Tracked.insert(File->getUniqueID());
    if (!isWanted(HashLoc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(HashLoc);
    unsigned NameEnd = SM.getFileOffset(FilenameRange.getEnd());
    auto &Facts = Index.Files[FID];
    Facts.Includes.push_back({Offset, NameEnd,
                              static_cast<unsigned>(OpenIfs[FID].size()),
                              (IsAngled ? "<" : "\"") + FileName.str() +
                                  (IsAngled ? ">" : "\"")});
    directive(HashLoc);
  }

  void MacroExpands(const Token &Name, const MacroDefinition &Definition,
                    SourceRange, const MacroArgs *) override {
    const IdentifierInfo *II = Name.getIdentifierInfo();
    bool Marker = II && Markers.contains(II->getName());
    if (!Marker && !fromTrackedHeader(Definition))
      return;
    SourceLocation Loc = SM.getExpansionLoc(Name.getLocation());
    if (!isWanted(Loc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    PreprocessorIndex::FileFacts &Facts = Index.Files[FID];
    if (!Index.Tracked.empty())
      Facts.HeaderUses.push_back(Offset);
    if (!Marker)
      return;
    std::string Within;
    if (Name.getLocation().isMacroID())
      Within = macroNameAt(Name.getLocation(), SM, LO);
    Facts.Markers.push_back({II->getName().str(), Offset, std::move(Within)});
  }

  void If(SourceLocation Loc, SourceRange, ConditionValueKind) override {
    open(Loc);
  }
  void Ifdef(SourceLocation Loc, const Token &, const MacroDefinition &) override {
    open(Loc);
  }
  void Ifndef(SourceLocation Loc, const Token &,
              const MacroDefinition &) override {
    open(Loc);
  }
  void Elif(SourceLocation Loc, SourceRange, ConditionValueKind,
            SourceLocation) override {
    directive(Loc);
  }
  void Elifdef(SourceLocation Loc, const Token &,
               const MacroDefinition &) override {
    directive(Loc);
  }
  void Elifndef(SourceLocation Loc, const Token &,
                const MacroDefinition &) override {
    directive(Loc);
  }
  void Else(SourceLocation Loc, SourceLocation) override { directive(Loc); }
  void Endif(SourceLocation Loc, SourceLocation) override {
    directive(Loc);
    if (isWanted(Loc)) {
      FileID FID = SM.getFileID(Loc);
      std::vector<unsigned> &Open = OpenIfs[FID];
      if (!Open.empty()) {
        auto &Facts = Index.Files[FID];
        Facts.Conditionals.push_back(
            {Open.back(), Facts.Directives.back().second});
        Open.pop_back();
      }
    }
  }
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    // Every wanted file gets facts, so that "this configuration saw the
    // file" can be told from "it saw nothing of interest in it".
    if (Reason == EnterFile && isWanted(Loc))
      Index.Files[SM.getFileID(Loc)];
  }
  void MacroDefined(const Token &Name, const MacroDirective *) override {
    directive(Name.getLocation());
  }
  void MacroUndefined(const Token &Name, const MacroDefinition &,
                      const MacroDirective *) override {
    directive(Name.getLocation());
  }
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind) override {
    directive(Loc);
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation EndifLoc) override {
    if (!isWanted(Range.getBegin()) || !EndifLoc.isFileID())
      return;
    auto [FID, Begin] = SM.getDecomposedLoc(Range.getBegin());
    auto &Facts = Index.Files[FID];
    Facts.Directives.push_back({Begin, SM.getFileOffset(EndifLoc) + 1});
    Facts.Skipped.push_back(Facts.Directives.back());
  }

private:
  bool fromTrackedHeader(const MacroDefinition &Definition) {
    const MacroInfo *MI = Definition.getMacroInfo();
    // Builtin macros (__FILE__, __LINE__) are defined nowhere.
    if (Index.Tracked.empty() || !MI || MI->getDefinitionLoc().isInvalid())
      return false;
    FileID FID = SM.getFileID(MI->getDefinitionLoc());
    auto [It, Inserted] = TrackedCache.try_emplace(FID, false);
    if (Inserted)
      It->second = Index.isTrackedHeader(SM, FID);
    return It->second;
  }

  void open(SourceLocation Loc) {
    directive(Loc);
    if (!isWanted(Loc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    auto &Facts = Index.Files[FID];
    Facts.FirstConditionalOffset = std::min(Facts.FirstConditionalOffset, Offset);
    OpenIfs[FID].push_back(Facts.Directives.back().first);
  }

  /// Records the line of the directive containing Loc.
  void directive(SourceLocation Loc) {
    if (!isWanted(Loc))
      return;
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    StringRef Buffer = SM.getBufferData(FID);
    unsigned Begin = Buffer.rfind('\n', Offset) + 1; // npos + 1 == 0
    unsigned End = Offset;
    // A directive ends at the first newline not escaped by a backslash.
    while (End < Buffer.size() &&
           (Buffer[End] != '\n' || (End > 0 && Buffer[End - 1] == '\\')))
      ++End;
    Index.Files[FID].Directives.push_back({Begin, End});
  }

  bool isWanted(SourceLocation Loc) {
    if (!Loc.isFileID())
      return false;
    FileID FID = SM.getFileID(Loc);
    auto [It, Inserted] = WantedCache.try_emplace(FID, false);
    if (Inserted)
      It->second = !SM.isInSystemHeader(Loc) && Wanted(FID);
    return It->second;
  }

  const SourceManager &SM;
  const LangOptions &LO;
  PreprocessorIndex &Index;
  std::function<bool(FileID)> Wanted;
  std::string TrackedHeader;
  /// Which FileIDs are the tracked header's.
  llvm::DenseMap<FileID, bool> TrackedCache;
  llvm::DenseMap<FileID, bool> WantedCache;
  llvm::StringSet<> Markers;
  /// Per file, the line offsets of the #ifs still open: as many as the
  /// #if depth.
  llvm::DenseMap<FileID, std::vector<unsigned>> OpenIfs;
};

void PreprocessorIndex::attach(Preprocessor &PP, PreprocessorIndex &Index,
                               std::vector<std::string> Markers,
                               std::function<bool(FileID)> Wanted,
                               StringRef TrackedHeader) {
  PP.addPPCallbacks(std::make_unique<IndexingCallbacks>(
      PP, Index, std::move(Markers), std::move(Wanted), TrackedHeader));
}

const PreprocessorIndex::FileFacts *PreprocessorIndex::facts(FileID FID) const {
  auto It = Files.find(FID);
  return It == Files.end() ? nullptr : &It->second;
}

/// Whether some conditional [CBegin, CEnd) of FID satisfies Test.
template <typename Predicate>
static bool anyConditional(const PreprocessorIndex &PP, FileID FID,
                           Predicate Test) {
  const PreprocessorIndex::FileFacts *F = PP.facts(FID);
  return F && llvm::any_of(F->Conditionals, [&](const auto &C) {
           return Test(C.first, C.second);
         });
}

bool PreprocessorIndex::inConditionalAfter(FileID FID, unsigned Begin,
                                           unsigned Offset) const {
  return anyConditional(*this, FID, [&](unsigned CBegin, unsigned CEnd) {
    return CBegin > Begin && CBegin <= Offset && Offset < CEnd;
  });
}

bool PreprocessorIndex::hasConditionalIn(FileID FID, unsigned Begin,
                                         unsigned End) const {
  return anyConditional(*this, FID, [&](unsigned CBegin, unsigned) {
    return CBegin > Begin && CBegin < End;
  });
}

bool PreprocessorIndex::hasDirectiveBetween(FileID FID, unsigned Begin,
                                            unsigned End) const {
  const FileFacts *F = facts(FID);
  if (!F)
    return false;
  for (const auto &[DBegin, DEnd] : F->Directives)
    if (DBegin <= End && Begin <= DEnd)
      return true;
  return false;
}

bool PreprocessorIndex::isTrackedHeader(const SourceManager &SM,
                                        FileID FID) const {
  if (Tracked.empty() || FID.isInvalid())
    return false;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(FID);
  return FE && Tracked.count(FE->getUniqueID());
}

} // namespace annotate
