//===- Merge.cpp - The merge stage: one plan per file ---------------------===//
//
// Units that include the same header each plan edits for it; units report
// the same diagnostics and functions for it. Here every file gets one set
// of merged edits (FileEdits::merge: identical edits once, overlapping ones
// dropped and reported) and its new text, and every diagnostic and
// function is counted once.
//
//===----------------------------------------------------------------------===//

#include "BatchStages.h"
#include "SkippedExits.h"

#include "llvm/Support/MemoryBuffer.h"

namespace annotate {

/// Records Path, a unit's main file, as output unchanged unless it already
/// has an outcome. A file that cannot be read gets none: nothing to copy.
static void keepUnchanged(std::map<std::string, FileOutcome> &Outcomes,
                          const TranslationUnitResult &R) {
  if (Outcomes.count(R.MainFile))
    return;
  auto Buffer = llvm::MemoryBuffer::getFile(R.MainFile, /*IsText=*/false);
  if (!Buffer)
    return;
  FileOutcome &O = Outcomes[R.MainFile];
  O.Name = R.MainFileName.empty() ? R.MainFile : R.MainFileName;
  O.Original = (*Buffer)->getBuffer().str();
  O.IsMainFile = true;
}

/// "file:line:col" of Offset in Text, as Clang counts them (from 1, the
/// column in bytes).
static std::string positionOf(llvm::StringRef File, llvm::StringRef Text,
                              unsigned Offset) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
  return (File + ":" + llvm::Twine(Before.count('\n') + 1) + ":" +
          llvm::Twine(Offset - LineStart + 1))
      .str();
}

/// The exits in skipped blocks that no configuration of any unit compiled
/// (a header's block may be compiled by another unit, with other flags):
/// each becomes a warning of the unit that found it first.
static void findUncompiledExits(BatchState &S) {
  std::map<std::string, std::vector<const Ranges *>> SkippedBy;
  for (const TranslationUnitResult &R : S.Units)
    if (!R.Failed)
      for (const auto &[Path, Skipped] : R.Skipped)
        SkippedBy[Path].push_back(&Skipped);
  std::set<std::pair<std::string, unsigned>> Seen;
  for (TranslationUnitResult &R : S.Units) {
    if (R.Failed)
      continue;
    for (const SkippedExit &E : R.SkippedExits) {
      if (!Seen.insert({E.Path, E.Offset}).second)
        continue;
      bool Compiled = llvm::any_of(SkippedBy[E.Path], [&](const Ranges *Rs) {
        return !inRanges(*Rs, E.Offset);
      });
      if (Compiled)
        continue;
      R.UncompiledExits.push_back(E);
      R.Diagnostics.push_back(uncompiledExitWarning(E));
    }
  }
}

void mergeUnits(BatchState &S) {
  findUncompiledExits(S);
  llvm::raw_ostream &Err = S.Err;
  std::set<std::string> Printed;
  for (const TranslationUnitResult &R : S.Units) {
    for (const Diagnostic &D : R.Diagnostics)
      if (Printed.insert(D.format()).second) {
        Err << D.format() << "\n";
        ++S.Warnings;
        S.Unremoved += D.Unremoved;
      }
    if (R.Failed) {
      ++S.Failed;
      Err << R.MainFile << ": error: " << R.FailureReason << "\n";
      // -o mirrors every file it was given: one that failed goes there as
      // it is, so that the output tree is complete.
      if (S.Options.Mode == OutputMode::OutputDir)
        keepUnchanged(S.Outcomes, R);
      continue;
    }
    // A function is annotated if some unit annotated it (--strip: kept if
    // some unit kept it).
    for (const FunctionRecord &F : R.Functions) {
      auto [It, Inserted] =
          S.Functions.try_emplace({F.File, F.Line, F.Name}, F);
      if (!Inserted && F.supersedes(It->second))
        It->second = F;
    }
    S.UncompiledExits += R.UncompiledExits.size();
    for (const auto &[Path, F] : R.Files) {
      FileOutcome &O = S.Outcomes[Path];
      if (O.Name.empty())
        O.Name = F.Name.empty() ? Path : F.Name;
      O.Original = F.Original;
      (R.Cxx ? O.CxxEdits : O.Edits).append(F.Edits);
      O.Kept.insert(O.Kept.end(), F.Kept.begin(), F.Kept.end());
      (R.Cxx ? O.FromCxx : O.FromC) = true;
      O.IsMainFile |= Path == R.MainFile;
    }
    // Nothing to change: still part of the output (stdout, -o).
    keepUnchanged(S.Outcomes, R);
  }
  bool Strip = S.Options.Annotate.Strip;
  for (auto &[Path, O] : S.Outcomes) {
    if (Strip) {
      // What C and C++ units take out of a header is the same text.
      O.Edits.append(O.CxxEdits);
    } else if (O.FromC && O.FromCxx) {
      Err << Path
          << ": warning: included by C and C++ translation units; "
             "annotated in its C form, which compiles as both\n";
      ++S.Warnings;
    } else if (O.FromCxx) {
      O.Edits = O.CxxEdits;
    }
    FileEdits::Merged M = O.Edits.merge();
    // Once per place: two configurations that plan one statement
    // differently give two conflicting edits at one offset.
    std::set<unsigned> Conflicts;
    for (const Edit &C : M.Conflicts)
      Conflicts.insert(C.Offset);
    for (unsigned Offset : Conflicts) {
      Err << positionOf(O.Name, O.Original, Offset)
          << ": warning: conflicting edits dropped (configurations or "
             "translation units planned this code differently)\n";
      ++S.Warnings;
    }
    // --strip: what one unit or configuration keeps (a function with an
    // annotation out of annotate's form, an include still used), no other
    // removes.
    llvm::erase_if(M.Edits, [&O](const Edit &E) {
      return llvm::any_of(O.Kept, [&E](const auto &K) {
        return E.Offset < K.second && K.first < E.Offset + E.Length;
      });
    });
    O.Merged = std::move(M.Edits);
    for (const Edit &E : O.Merged)
      O.Removed += E.Removes;
    O.NewText = applyEdits(O.Original, O.Merged);
    O.Changed = O.NewText != O.Original;
  }
}

} // namespace annotate
