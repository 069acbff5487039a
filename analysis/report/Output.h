//===- Output.h - The analyzer's report formats -------------------*- C++ -*-===//
//
// Text tables (the default), JSON (--json, schema in docs/analysis.md),
// the HTML page (--html) and the Chrome trace (--chrome-trace, in
// ChromeTrace.h). All of them print from one Report.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_ANALYZE_OUTPUT_H
#define DFTRACER_ANALYZE_OUTPUT_H

#include "analyze/Report.h"
#include "diagnose/Diagnose.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <ostream>

namespace dftanalyze {

struct OutputOptions {
  size_t Top = 10; // rows of the top-N tables (files, ranks, functions)
  bool AllFiles = false; // --all-files: JSON "files_all", every file
  // Above this many ranks the reports summarize them (the top and bottom
  // ranks, quantiles; the HTML timeline a rank x time heatmap):
  // --summarize-ranks-above, documented in docs/analysis.md "At scale".
  size_t SummarizeRanksAbove = 256;
  bool AllRanks = false; // --all-ranks: every rank, whatever their number
  // The diagnosis (Diagnose.h), printed first; null with --no-diagnose.
  const std::vector<Finding> *Findings = nullptr;
  std::string RulesPath;
};

/// Version of the JSON report; bumped when a key changes meaning or goes.
inline constexpr int JsonSchema = 2;

/// Whether the reports show the ranks summarized (OutputOptions).
inline bool summarizeRanks(const Report &R, const OutputOptions &O) {
  return !O.AllRanks && R.Ranks.size() > O.SummarizeRanksAbove;
}

void printText(std::ostream &Os, const Report &R, const OutputOptions &O);
nlohmann::ordered_json reportJson(const Report &R, const OutputOptions &O);
/// An AccessStats as the JSON report's "access" object (docs/analysis.md);
/// OfFunction: a function record's, without the byte-range figures.
nlohmann::ordered_json accessJson(const AccessStats &S, bool OfFunction = false);
/// J as text. Issue messages quote the bytes of bad lines, and trace paths
/// are bytes: what is not UTF-8 is written as U+FFFD instead of aborting.
std::string jsonText(const nlohmann::ordered_json &J, int Indent = -1);
/// One self-contained page: inline SVG and a canvas drawn by inline script.
void printHtml(std::ostream &Os, const Report &R, const OutputOptions &O);

} // namespace dftanalyze

#endif
