//===- HtmlHeatmap.h - The HTML report past the rank threshold ----*- C++
//-*-===//
//
// One row per rank stops being readable (and the page stops being small)
// at thousands of ranks. Past OutputOptions::SummarizeRanksAbove the page's
// timeline is a rank x time heatmap instead, one panel per I/O layer:
//  - rows: the ranks in rank order, binned into at most HeatRows rows;
//  - columns: at most HeatColumns buckets of the ranks' common grid;
//  - a cell: the fraction of its ranks' time spent in the layer's calls,
//    busy time / (ranks in the row x column width), in 36 levels, written
//    one character a cell ('0' none, '1'..'9', 'a'..'z'), so the data is
//    at most layers x rows x columns bytes whatever the number of ranks;
//  - the O.Top slowest ranks named beside it, at their row.
// The Ranks section gains the quantiles and the top and bottom ranks.
//
//===----------------------------------------------------------------------===//
#ifndef DFTRACER_REPORT_HTMLHEATMAP_H
#define DFTRACER_REPORT_HTMLHEATMAP_H

#include "Output.h"

#include <nlohmann/json.hpp>

#include <ostream>
#include <vector>

namespace dftanalyze {

inline constexpr size_t HeatRows = 256, HeatColumns = 256, HeatLevels = 36;

/// One bucket grid for all ranks (Timeline.h): columns of Width
/// microseconds from Origin, at most the given number of them.
struct TimeGrid {
  int64_t Origin = 0;
  uint64_t Width = 0; // 0: no I/O in the trace
  size_t Count = 0;
};
TimeGrid commonGrid(const Report &R, size_t MaxCount);

/// The colour of a layer in every chart of the page (HtmlReport.cpp).
const char *layerColor(Layer L);

/// The Timeline section past the threshold: heading, note, legend, canvas
/// (#timeline-canvas, class "heatmap") and the slowest ranks' list. Here
/// and below, BySlowest is ranksBySlowest(R), sorted once for the page.
void printHeatmapSection(std::ostream &Os, const Report &R,
                         const OutputOptions &O,
                         const std::vector<const RankFigures *> &BySlowest);
/// The data its script draws.
nlohmann::ordered_json
heatmapData(const Report &R, const OutputOptions &O,
            const std::vector<const RankFigures *> &BySlowest);
/// The script: draws the heatmap, sets data-heat-cells="N" on the canvas
/// (N: the cells drawn, for the browser test), then <body
/// data-rendered="1"> as the per-rank timeline's script does.
extern const char HeatmapScript[];

/// The Ranks section's table past the threshold: quantiles, then the
/// slowest and the fastest O.Top ranks (#rank-table).
void printRankSummaryHtml(std::ostream &Os, const OutputOptions &O,
                          const std::vector<const RankFigures *> &BySlowest);

} // namespace dftanalyze

#endif
