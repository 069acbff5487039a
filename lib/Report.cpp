//===- Report.cpp - The summary line and the --report file ----------------===//

#include "BatchStages.h"
#include "Paths.h"
#include "annotate/Output.h"

#include "llvm/ADT/StringExtras.h"

#include <nlohmann/json.hpp>

namespace annotate {

static std::string plural(size_t N, llvm::StringRef One, llvm::StringRef Many) {
  return std::to_string(N) + " " + (N == 1 ? One : Many).str();
}

/// Files whose new text differs from the original (after --verify's
/// restores).
static size_t changedFiles(const BatchState &S) {
  size_t Changed = 0;
  for (const auto &[Path, O] : S.Outcomes)
    Changed += O.Changed;
  return Changed;
}

namespace {
struct FunctionCounts {
  size_t Annotated = 0, Skipped = 0;
  std::map<std::string, size_t> Reasons;
};
} // namespace

static FunctionCounts countFunctions(const BatchState &S) {
  FunctionCounts C;
  for (const auto &[Key, F] : S.Functions) {
    if (F.Annotated) {
      ++C.Annotated;
    } else {
      ++C.Skipped;
      ++C.Reasons[F.SkipReason];
    }
  }
  return C;
}

/// What --strip took out of every file.
static Removal removedInAll(const BatchState &S) {
  Removal All;
  for (const auto &[Path, O] : S.Outcomes)
    if (O.Changed)
      All += O.Removed;
  return All;
}

void printSummary(BatchState &S) {
  FunctionCounts C = countFunctions(S);
  bool Strip = S.Options.Annotate.Strip;
  // --strip says what it took out of each file, then in all.
  if (Strip)
    for (const auto &[Path, O] : S.Outcomes)
      if (O.Changed)
        S.Err << "annotate: " << relativeTo(Path, S.Options.Root)
              << ": removed " << O.Removed.str() << "\n";
  std::string Summary = "annotate: " + plural(S.Inputs, "file", "files") +
                        ", " + std::to_string(changedFiles(S)) + " changed, " +
                        std::to_string(S.Failed) + " failed; " +
                        plural(C.Annotated, "function", "functions") +
                        (Strip ? " stripped, " : " annotated, ") +
                        std::to_string(C.Skipped) +
                        (Strip ? " kept" : " skipped");
  if (!C.Reasons.empty()) {
    Summary += " (";
    bool First = true;
    for (const auto &[Reason, N] : C.Reasons) {
      Summary += (First ? "" : ", ") + std::to_string(N) + " " + Reason;
      First = false;
    }
    Summary += ")";
  }
  if (Strip) {
    Removal All = removedInAll(S);
    Summary += "; removed " + (All.total() ? All.str() : "nothing");
  }
  Summary += "; " + plural(S.Warnings, "warning", "warnings");
  std::vector<std::string> Notes;
  if (S.UncompiledExits)
    Notes.push_back(plural(S.UncompiledExits, "exit", "exits") +
                    " in code no configuration compiled");
  if (S.WarningLines != S.Warnings)
    Notes.push_back("printed on " +
                    plural(S.WarningLines, "line", "lines") +
                    ", one per kind and cause; --verbose prints each");
  if (!Notes.empty())
    Summary += " (" + llvm::join(Notes, "; ") + ")";
  S.Err << Summary << "\n";
}

void writeReport(BatchState &S) {
  if (S.Options.ReportPath.empty())
    return;
  FunctionCounts C = countFunctions(S);
  bool Strip = S.Options.Annotate.Strip;
  auto Counts = [](const Removal &R) {
    return nlohmann::json{{"statements", R.Statements},
                          {"value_returns", R.Returns},
                          {"braces", R.Braces},
                          {"includes", R.Includes},
                          {"line_directives", R.LineDirectives}};
  };
  nlohmann::json Report;
  Report["summary"] = {{"files", S.Inputs},
                       {"changed", changedFiles(S)},
                       {"failed", S.Failed},
                       {Strip ? "stripped" : "annotated", C.Annotated},
                       {Strip ? "kept" : "skipped", C.Skipped},
                       {"warnings", S.Warnings},
                       {"warning_lines", S.WarningLines},
                       {"uncompiled_exits", S.UncompiledExits}};
  if (Strip) {
    Report["summary"]["unremoved"] = S.Unremoved;
    Report["summary"]["removed"] = Counts(removedInAll(S));
  }
  nlohmann::json FileList = nlohmann::json::array();
  for (const TranslationUnitResult &R : S.Units) {
    nlohmann::json F;
    F["path"] = R.MainFile;
    bool FailedVerify = S.FailedVerify.count(R.MainFile);
    auto WriteError = S.WriteErrors.find(R.MainFile);
    bool FailedWrite = WriteError != S.WriteErrors.end();
    auto Outcome = S.Outcomes.find(R.MainFile);
    F["status"] = R.Failed || FailedVerify || FailedWrite ? "failed"
                  : Outcome != S.Outcomes.end() && Outcome->second.Changed
                      ? "changed"
                      : "unchanged";
    if (Strip)
      F["removed"] = Counts(Outcome != S.Outcomes.end() && Outcome->second.Changed
                                ? Outcome->second.Removed
                                : Removal());
    if (R.Failed) {
      F["reason"] = R.FailureReason;
      if (!R.FirstError.empty()) {
        F["first_error"] = R.FirstError;
        F["hint"] = R.FailureHint;
      }
    }
    else if (FailedVerify)
      F["reason"] = std::string("the ") + resultOf(S.Options) +
                    " file does not compile; restored";
    else if (FailedWrite)
      F["reason"] = WriteError->second;
    nlohmann::json Fns = nlohmann::json::array();
    for (const FunctionRecord &Fn : R.Functions) {
      nlohmann::json J = {{"name", Fn.Name},
                          {"file", Fn.File},
                          {"line", Fn.Line},
                          {Strip ? "stripped" : "annotated", Fn.Annotated}};
      if (!Fn.Annotated)
        J["reason"] = Fn.SkipReason;
      if (!Fn.Detail.empty())
        J["rule"] = Fn.Detail;
      Fns.push_back(J);
    }
    F["functions"] = Fns;
    nlohmann::json Diags = nlohmann::json::array();
    for (const Diagnostic &D : R.Diagnostics)
      Diags.push_back(D.format());
    F["warnings"] = Diags;
    nlohmann::json Exits = nlohmann::json::array();
    for (const SkippedExit &E : R.UncompiledExits)
      Exits.push_back({{"file", E.File},
                       {"line", E.Line},
                       {"column", E.Column},
                       {"token", E.Token},
                       {"condition", E.Condition},
                       {"function", E.Function}});
    F["uncompiled_exits"] = Exits;
    FileList.push_back(F);
  }
  Report["files"] = FileList;
  if (llvm::Error E =
          writeFileAtomically(S.Options.ReportPath, Report.dump(2) + "\n")) {
    S.Err << S.Options.ReportPath << ": error: " << llvm::toString(std::move(E))
          << "\n";
    S.WriteFailed = true;
  }
}

void writeCoverage(BatchState &S) {
  if (S.Options.CoveragePath.empty() || S.Options.Annotate.Strip)
    return;
  // Compact and stable: a build integration joins the records of the
  // sources of a program, one line each, and the trace may carry them.
  nlohmann::json Files = nlohmann::json::array();
  for (const TranslationUnitResult &R : S.Units) {
    nlohmann::json F;
    F["file"] = R.MainFile;
    std::string Reason;
    if (R.Failed)
      Reason = R.FailureReason +
               (R.FirstError.empty() ? "" : " (first error: " + R.FirstError + ")");
    else if (S.FailedVerify.count(R.MainFile))
      Reason = std::string("the ") + resultOf(S.Options) +
               " file does not compile; restored";
    else if (auto W = S.WriteErrors.find(R.MainFile); W != S.WriteErrors.end())
      Reason = W->second;
    unsigned Annotated = 0;
    nlohmann::json Left = nlohmann::json::array();
    for (const FunctionRecord &Fn : R.Functions) {
      // Annotated by an earlier run: traced all the same.
      if (Fn.Annotated || Fn.SkipReason == "already annotated") {
        ++Annotated;
        continue;
      }
      // No code of their own to trace.
      if (Fn.SkipReason == "implicit" || Fn.SkipReason == "defaulted" ||
          Fn.SkipReason == "deleted")
        continue;
      nlohmann::json J = {{"function", Fn.Name},
                          {"file", Fn.File},
                          {"line", Fn.Line},
                          {"reason", Fn.SkipReason}};
      if (!Fn.Detail.empty())
        J["rule"] = Fn.Detail;
      Left.push_back(std::move(J));
    }
    if (!Reason.empty()) {
      F["status"] = "failed";
      F["reason"] = Reason;
      Annotated = 0;
    } else {
      F["status"] = Annotated ? "annotated" : "not_annotated";
    }
    F["annotated"] = Annotated;
    F["unannotated"] = std::move(Left);
    Files.push_back(std::move(F));
  }
  nlohmann::json Record = {{"coverage", 1},
                           {"tool", "annotate"},
                           {"rules", S.Options.Annotate.Rules.Name},
                           {"files", std::move(Files)}};
  if (llvm::Error E = writeFileAtomically(S.Options.CoveragePath,
                                          Record.dump() + "\n")) {
    S.Err << S.Options.CoveragePath << ": error: "
          << llvm::toString(std::move(E)) << "\n";
    S.WriteFailed = true;
  }
}

int exitCode(const BatchState &S) {
  if (S.Failed || S.WriteFailed || S.Unremoved)
    return 1;
  if (S.Options.Mode == OutputMode::Check && changedFiles(S))
    return 1;
  return 0;
}

} // namespace annotate
