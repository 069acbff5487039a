//===- Report.cpp - The summary line and the --report file ----------------===//

#include "BatchStages.h"
#include "annotate/Output.h"

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

void printSummary(BatchState &S) {
  FunctionCounts C = countFunctions(S);
  std::string Summary = "annotate: " + plural(S.Inputs, "file", "files") +
                        ", " + std::to_string(changedFiles(S)) + " changed, " +
                        std::to_string(S.Failed) + " failed; " +
                        plural(C.Annotated, "function", "functions") +
                        " annotated, " + std::to_string(C.Skipped) + " skipped";
  if (!C.Reasons.empty()) {
    Summary += " (";
    bool First = true;
    for (const auto &[Reason, N] : C.Reasons) {
      Summary += (First ? "" : ", ") + std::to_string(N) + " " + Reason;
      First = false;
    }
    Summary += ")";
  }
  Summary += "; " + plural(S.Warnings, "warning", "warnings");
  if (S.UncompiledExits)
    Summary += " (" + plural(S.UncompiledExits, "exit", "exits") +
               " in code no configuration compiled)";
  S.Err << Summary << "\n";
}

void writeReport(BatchState &S) {
  if (S.Options.ReportPath.empty())
    return;
  FunctionCounts C = countFunctions(S);
  nlohmann::json Report;
  Report["summary"] = {{"files", S.Inputs},
                       {"changed", changedFiles(S)},
                       {"failed", S.Failed},
                       {"annotated", C.Annotated},
                       {"skipped", C.Skipped},
                       {"warnings", S.Warnings},
                       {"uncompiled_exits", S.UncompiledExits}};
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
    if (R.Failed)
      F["reason"] = R.FailureReason;
    else if (FailedVerify)
      F["reason"] = "the annotated file does not compile; restored";
    else if (FailedWrite)
      F["reason"] = WriteError->second;
    nlohmann::json Fns = nlohmann::json::array();
    for (const FunctionRecord &Fn : R.Functions) {
      nlohmann::json J = {{"name", Fn.Name},
                          {"file", Fn.File},
                          {"line", Fn.Line},
                          {"annotated", Fn.Annotated}};
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

int exitCode(const BatchState &S) {
  if (S.Failed || S.WriteFailed)
    return 1;
  if (S.Options.Mode == OutputMode::Check && changedFiles(S))
    return 1;
  return 0;
}

} // namespace annotate
