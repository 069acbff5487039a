//===- HtmlHeatmap.cpp - The HTML report past the rank threshold ----------===//

#include "HtmlHeatmap.h"
#include "HtmlEscape.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace dftanalyze {

namespace {

using Json = nlohmann::ordered_json;

std::string seconds(uint64_t Us) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.6f", static_cast<double>(Us) / 1e6);
  return Buf;
}

/// The row of the I-th of N ranks in K rows (rank order kept).
size_t rowOf(size_t I, size_t N, size_t K) { return I * K / N; }

} // namespace

TimeGrid commonGrid(const Report &R, size_t MaxCount) {
  // The widest width of any rank, then coarser until MaxCount columns
  // cover the run.
  TimeGrid G;
  int64_t Lo = INT64_MAX, Hi = INT64_MIN;
  for (const RankFigures &Rk : R.Ranks) {
    const Timeline &T = Rk.P->Picture;
    if (!T.Width)
      continue;
    G.Width = std::max(G.Width, T.Width);
    Lo = std::min(Lo, T.Origin);
    Hi = std::max(Hi,
                  T.Origin + static_cast<int64_t>(T.Width * Timeline::Buckets));
  }
  if (G.Width) {
    for (;;) {
      G.Origin = alignDown(Lo, G.Width);
      G.Count = static_cast<size_t>(
          (Hi - G.Origin + static_cast<int64_t>(G.Width) - 1) /
          static_cast<int64_t>(G.Width));
      if (G.Count <= MaxCount)
        break;
      G.Width *= 2;
    }
  }
  return G;
}

Json heatmapData(const Report &R, const OutputOptions &O,
                 const std::vector<const RankFigures *> &Order) {
  Json D;
  D["t0"] = R.FirstUs;
  D["t1"] = R.LastUs;
  TimeGrid G = commonGrid(R, HeatColumns);
  D["io_origin"] = G.Origin;
  D["io_width"] = G.Width;
  D["io_count"] = G.Count;
  size_t N = R.Ranks.size(), K = std::min(HeatRows, N);
  Json Rows = Json::array();
  std::vector<size_t> InRow(K, 0);
  for (size_t I = 0; I < N; ++I)
    ++InRow[rowOf(I, N, K)];
  for (size_t Row = 0, I = 0; Row < K; I += InRow[Row], ++Row)
    Rows.push_back(Json::array(
        {R.Ranks[I].Label, R.Ranks[I + InRow[Row] - 1].Label, InRow[Row]}));
  D["rows"] = Rows;

  // Busy time per (row, column), one layer at a time: K x Count doubles.
  Json Layers = Json::array();
  std::vector<double> Busy(K * G.Count);
  for (size_t L = 0; L < Timeline::IoLayers && G.Width; ++L) {
    std::fill(Busy.begin(), Busy.end(), 0.0);
    bool Any = false;
    for (size_t I = 0; I < N; ++I) {
      const Timeline &T = R.Ranks[I].P->Picture;
      if (!T.Width)
        continue;
      Density C = T.coarsen(L, G.Origin, G.Width, G.Count);
      double *Cells = &Busy[rowOf(I, N, K) * G.Count];
      for (size_t Col = 0; Col < G.Count; ++Col)
        if (C.BusyUs[Col]) {
          Cells[Col] += static_cast<double>(C.BusyUs[Col]);
          Any = true;
        }
    }
    if (!Any)
      continue;
    std::string Cells(K * G.Count, '0');
    for (size_t Row = 0; Row < K; ++Row)
      for (size_t Col = 0; Col < G.Count; ++Col) {
        double V = Busy[Row * G.Count + Col];
        if (V <= 0)
          continue;
        double Fraction = V / (static_cast<double>(G.Width) *
                               static_cast<double>(InRow[Row]));
        // Any I/O at all is level 1 at least; threads may exceed 1.
        long Level = std::lround(std::ceil(
            std::min(1.0, Fraction) * static_cast<double>(HeatLevels - 1)));
        Level =
            std::max(1L, std::min(Level, static_cast<long>(HeatLevels - 1)));
        Cells[Row * G.Count + Col] =
            static_cast<char>(Level < 10 ? '0' + Level : 'a' + (Level - 10));
      }
    Layer Ly = static_cast<Layer>(L + 1); // Timeline's layers follow App
    Layers.push_back({{"name", dftrace::layerName(Ly)},
                      {"color", layerColor(Ly)},
                      {"cells", Cells}});
  }
  D["layers"] = Layers;

  Json Slowest = Json::array();
  for (size_t I = 0; I < Order.size() && I < O.Top; ++I) {
    size_t Index = static_cast<size_t>(Order[I] - R.Ranks.data());
    Slowest.push_back(Json::array({Order[I]->Label, rowOf(Index, N, K),
                                   seconds(Order[I]->P->IoUnionUs)}));
  }
  D["slowest"] = Slowest;
  return D;
}

void printHeatmapSection(std::ostream &Os, const Report &R,
                         const OutputOptions &O,
                         const std::vector<const RankFigures *> &Order) {
  size_t N = R.Ranks.size(), K = std::min(HeatRows, N);
  Os << "<h2>Timeline</h2>\n<p class=\"note\">" << N << " ranks (more than "
     << O.SummarizeRanksAbove << "): a heatmap of I/O intensity, one panel "
     << "per I/O layer. Rows: the ranks in rank order, " << K << " rows of "
     << N / K << (N % K ? " or " + std::to_string(N / K + 1) : "")
     << " ranks; columns: time. Darker: a larger share of the row's rank-time "
        "spent in the layer's calls (busy time / (ranks &times; column "
        "width)). Right: the slowest ranks by I/O time, at their row. "
        "<code>--all-ranks</code> draws one row per rank.</p>\n"
     << "<p class=\"legend\">";
  for (Layer L : {Layer::Posix, Layer::Stdio, Layer::MpiIo, Layer::Hdf5})
    Os << "<span><i style=\"background:" << layerColor(L) << "\"></i>"
       << dftrace::layerName(L) << "</span>";
  Os << "</p>\n<div id=\"tl-wrap\"><canvas id=\"timeline-canvas\" "
        "class=\"heatmap\" width=\"1180\" height=\"100\"></canvas><div "
        "id=\"tooltip\"></div></div>\n<p id=\"slowest-ranks\" "
        "class=\"note\">Slowest ranks:";
  for (size_t I = 0; I < Order.size() && I < O.Top; ++I)
    Os << (I ? ", " : " ") << htmlEscape(processName(Order[I]->Label)) << " ("
       << seconds(Order[I]->P->IoUnionUs) << " s)";
  Os << ".</p>\n";
}

void printRankSummaryHtml(std::ostream &Os, const OutputOptions &O,
                          const std::vector<const RankFigures *> &Order) {
  size_t Top = std::min(O.Top, Order.size());
  size_t Bottom = std::min(O.Top, Order.size() - Top);
  Os << "<p class=\"note\">" << Order.size() << " ranks (more than "
     << O.SummarizeRanksAbove << "): the quantiles of I/O time per rank "
     << "(nearest rank), the " << Top << " slowest and the " << Bottom
     << " fastest; <code>--all-ranks</code> lists every rank.</p>\n"
     << "<div class=\"wide\"><table id=\"rank-table\"><tr><th>rank</th>"
        "<th></th><th>I/O time (s)</th><th>I/O calls</th><th>read</th>"
        "<th>written</th><th>events</th></tr>\n";
  auto Row = [&Os](const RankFigures &Rk, const std::string &What) {
    IoTotals Reached = Rk.P->Io.reached();
    Os << "<tr><td>" << htmlEscape(Rk.Label) << "</td><td>" << What
       << "</td><td>" << seconds(Rk.P->IoUnionUs) << "</td><td>" << Reached.Ops
       << "</td><td>" << Reached.BytesRead << "</td><td>"
       << Reached.BytesWritten << "</td><td>" << Rk.P->Events << "</td></tr>\n";
  };
  for (const RankQuantile &Q : rankQuantiles(Order))
    Row(*Q.Rank, quantileName(Q.Q));
  for (size_t I = 0; I < Top; ++I)
    Row(*Order[I], "slowest " + std::to_string(I + 1));
  for (size_t I = 0; I < Bottom; ++I)
    Row(*Order[Order.size() - 1 - I], "fastest " + std::to_string(I + 1));
  Os << "</table></div>\n";
}

const char HeatmapScript[] = R"js(
window.onerror = function (msg) { document.body.dataset.error = String(msg); };
(function () {
  var d = JSON.parse(document.getElementById('timeline-data').textContent);
  var canvas = document.getElementById('timeline-canvas');
  var ctx = canvas.getContext('2d');
  var K = d.rows.length, C = d.io_count, P = d.layers.length;
  var rowH = Math.max(1, Math.min(8, Math.floor(384 / Math.max(1, K))));
  var left = 70, right = 200, top = 24, gap = 22, panelH = K * rowH;
  var width = 1170 - left - right;
  canvas.width = left + width + right;
  canvas.height = top + P * (panelH + gap) + 10;
  var span = Math.max(1, d.t1 - d.t0), sx = width / span;
  ctx.font = '11px sans-serif';
  ctx.fillStyle = '#555';
  // Enough decimals that the ticks differ (a short run of many ranks).
  var digits = Math.min(6, Math.max(3, Math.ceil(-Math.log10(span / 1e7)) + 1));
  var ticksEnd = 0; // a label that would overlap the previous one is left out
  for (var k = 0; k <= 10; k++) {
    var x = left + k * width / 10, tick = (span * k / 10 / 1e6).toFixed(digits) + ' s';
    var w = ctx.measureText(tick).width, tx = Math.min(x - 12, left + width - w);
    ctx.fillRect(x, top - 4, 1, 4);
    if (tx < ticksEnd + 4) continue;
    ctx.fillText(tick, tx, top - 8);
    ticksEnd = tx + w;
  }
  function panelTop(p) { return top + gap + p * (panelH + gap); }
  var cells = 0, bw = Math.max(1, d.io_width * sx);
  d.layers.forEach(function (l, p) {
    var y0 = panelTop(p);
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#f4f4f4';
    ctx.fillRect(left, y0, width, panelH);
    ctx.fillStyle = '#333';
    ctx.fillText(l.name, left, y0 - 5);
    ctx.fillText(d.rows[0][0], 4, y0 + 10);
    ctx.fillText(d.rows[K - 1][1], 4, y0 + panelH);
    ctx.fillStyle = l.color;
    for (var r = 0; r < K; r++)
      for (var c = 0; c < C; c++) {
        var level = parseInt(l.cells.charAt(r * C + c), 36);
        if (!level) continue;
        ctx.globalAlpha = 0.12 + 0.88 * level / 35;
        ctx.fillRect(left + (d.io_origin + c * d.io_width - d.t0) * sx, y0 + r * rowH, bw, rowH);
        cells++;
      }
    ctx.globalAlpha = 1;
    ctx.fillStyle = '#000';
    d.slowest.forEach(function (s) { ctx.fillRect(left + width, y0 + s[1] * rowH, 6, Math.max(2, rowH)); });
  });
  // The slowest ranks named beside the first panel, each linked to its row.
  if (P) {
    var y0 = panelTop(0), last = -1e9;
    d.slowest.slice().sort(function (a, b) { return a[1] - b[1]; }).forEach(function (s) {
      var yr = y0 + s[1] * rowH + rowH / 2, yl = Math.max(yr, last + 12);
      last = yl;
      ctx.fillStyle = '#000';
      ctx.beginPath(); ctx.moveTo(left + width + 6, yr); ctx.lineTo(left + width + 18, yl); ctx.stroke();
      ctx.fillText('rank ' + s[0] + ' ' + s[2] + ' s', left + width + 20, yl + 4);
    });
  }
  var tip = document.getElementById('tooltip');
  canvas.addEventListener('mousemove', function (e) {
    var b = canvas.getBoundingClientRect();
    var x = e.clientX - b.left, y = e.clientY - b.top;
    var p = Math.floor((y - top - gap) / (panelH + gap)), r = Math.floor((y - panelTop(p)) / rowH);
    var c = Math.floor(((x - left) / sx + d.t0 - d.io_origin) / d.io_width);
    if (p < 0 || p >= P || r < 0 || r >= K || x < left || x > left + width || c < 0 || c >= C) { tip.style.display = 'none'; return; }
    var level = parseInt(d.layers[p].cells.charAt(r * C + c), 36);
    tip.textContent = 'ranks ' + d.rows[r][0] + '..' + d.rows[r][1] + ' (' + d.rows[r][2] + '), ' +
      d.layers[p].name + ' at ' + ((x - left) / sx / 1e6).toFixed(3) + ' s: ' +
      (level ? 'up to ' + Math.round(100 * level / 35) + '% busy' : 'no calls');
    tip.style.display = 'block';
    tip.style.left = (x + 12) + 'px';
    tip.style.top = (y + 12) + 'px';
  });
  canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  canvas.dataset.heatCells = String(cells);
  document.body.dataset.rendered = '1';
})();
)js";

} // namespace dftanalyze
