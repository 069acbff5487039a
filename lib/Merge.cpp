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

#include "llvm/ADT/StringExtras.h"
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

/// A warning at Offset in Text, placed as Clang counts (line and column
/// from 1, the column in bytes).
static Diagnostic warningAt(llvm::StringRef File, llvm::StringRef Text,
                            unsigned Offset, llvm::StringRef Message) {
  llvm::StringRef Before = Text.take_front(Offset);
  size_t LineStart = Before.rfind('\n') + 1; // npos + 1 == 0
  Diagnostic D;
  D.File = File.str();
  D.Line = Before.count('\n') + 1;
  D.Column = Offset - LineStart + 1;
  D.Message = Message.str();
  return D;
}

/// Prints the warnings: each once, and, unless --verbose, those of one
/// kind and cause (one message: "return inside macro 'PetscCall' ...") as
/// one line with their count and first location, so that 5,000 of one
/// kind do not hide the few that differ. Then, once, the flags dropped.
static void printWarnings(BatchState &S) {
  const std::vector<Diagnostic> &All = S.WarningList;
  if (S.Options.Verbose) {
    for (const Diagnostic &D : All)
      S.Err << D.format() << "\n";
    S.WarningLines = All.size();
  } else {
    std::map<std::string, std::pair<size_t, size_t>> Groups; // first, count
    for (size_t I = 0; I < All.size(); ++I)
      ++Groups.try_emplace(All[I].Message, I, 0).first->second.second;
    for (size_t I = 0; I < All.size(); ++I) {
      auto [First, Count] = Groups[All[I].Message];
      if (First != I)
        continue;
      S.Err << All[I].format();
      if (Count > 1)
        S.Err << " [" << Count
              << " times, the first shown; --verbose or --report lists "
                 "each]";
      S.Err << "\n";
      ++S.WarningLines;
    }
  }
  if (!S.DroppedFlags.empty())
    S.Err << "annotate: note: dropped compiler flags Clang does not know "
             "(as clangd does): "
          << llvm::join(S.DroppedFlags, " ") << "\n";
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
        S.WarningList.push_back(D);
        ++S.Warnings;
        S.Unremoved += D.Unremoved;
      }
    for (const std::string &Flag : R.DroppedFlags)
      if (!llvm::is_contained(S.DroppedFlags, Flag))
        S.DroppedFlags.push_back(Flag);
    if (R.Failed) {
      ++S.Failed;
      // One line, which the build integrations show as the reason:
      // "...; left unchanged (first error at a.c:5:3: ...; try ...)".
      Err << R.MainFile << ": error: " << R.FailureReason;
      if (!R.FirstError.empty())
        Err << " (first error " << R.FirstError
            << (R.FailureHint.empty() ? "" : "; " + R.FailureHint) << ")";
      Err << "\n";
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
      Diagnostic D;
      D.File = Path;
      D.Message = "included by C and C++ translation units; annotated in "
                  "its C form, which compiles as both";
      S.WarningList.push_back(std::move(D));
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
      S.WarningList.push_back(warningAt(
          O.Name, O.Original, Offset,
          "conflicting edits dropped (configurations or translation units "
          "planned this code differently)"));
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
  printWarnings(S);
}

} // namespace annotate
