//===- HtmlReport.cpp - --html: one self-contained page -------------------===//
//
// The page needs no network: styles, data and script are inline, charts are
// inline SVG written here, and the timeline is drawn on a canvas by a short
// inline script from the data of Timeline.h (the longest spans of each
// rank, and I/O busy time per bucket), so ten million events still make a
// page of a few megabytes. Sections:
//
//   summary, records banner, caveats box (#caveats), findings and issues
//   banner | timeline (#timeline-canvas) | layers
//   (#layer-chart) | transfer sizes (#size-chart) | top functions by I/O
//   time (#function-chart) | ranks | files
//
// Past --summarize-ranks-above ranks the timeline is a rank x time heatmap
// and the Ranks section a summary instead (HtmlHeatmap.h).
//
// When the script has drawn the timeline it sets <body data-rendered="1">;
// a script error sets data-error instead (the browser test reads both).
//
//===----------------------------------------------------------------------===//

#include "ConfigurationOutput.h"
#include "HtmlEscape.h"
#include "HtmlHeatmap.h"
#include "Output.h"
#include "analyze/Caveats.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace dftanalyze {
void printAccessTable(std::ostream &Os, const Report &R, size_t Top);
void printFunctionAccessTable(std::ostream &Os, const Report &R, size_t Top);
}

namespace dftanalyze {

const char *layerColor(Layer L) {
  switch (L) {
  case Layer::Posix: return "#d62728";
  case Layer::Stdio: return "#ff7f0e";
  case Layer::MpiIo: return "#2ca02c";
  case Layer::Hdf5: return "#9467bd";
  case Layer::App: return "#1f77b4";
  default: return "#7f7f7f";
  }
}

namespace {

using Json = nlohmann::ordered_json;

/// Name cut to at most Max bytes, on a UTF-8 character boundary, with "…"
/// when cut.
std::string shortName(const std::string &Name, size_t Max = 32) {
  if (Name.size() <= Max)
    return Name;
  size_t Cut = Max - 1;
  while (Cut > 0 && (static_cast<unsigned char>(Name[Cut]) & 0xC0) == 0x80)
    --Cut; // a continuation byte: the character starts before
  return Name.substr(0, Cut) + "…";
}

/// JSON text that may stand inside <script>...</script>: no "</" (which
/// could end the element) and no "<!--" (which, followed by "<script",
/// makes the parser skip the real end tag). Both occur only in strings,
/// where "\/" and "\u0021" are the same characters.
std::string scriptData(std::string Json) {
  for (size_t P = 0; (P = Json.find('<', P)) != std::string::npos; ++P) {
    if (Json.compare(P, 2, "</") == 0)
      Json.replace(P, 2, "<\\/");
    else if (Json.compare(P, 4, "<!--") == 0)
      Json.replace(P, 2, "<\\u0021");
  }
  return Json;
}

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

std::string secondsText(uint64_t Us) { return fmt("%.6f", Us / 1e6); }

std::string bytesText(uint64_t B) {
  const char *Units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double V = static_cast<double>(B);
  int U = 0;
  while (V >= 1024 && U < 4) {
    V /= 1024;
    ++U;
  }
  return U == 0 ? std::to_string(B) + " B" : fmt("%.1f ", V) + Units[U];
}

const char *OpColors[NumOps] = {"#1f77b4", "#aec7e8", "#d62728", "#ff9896",
                                "#ff7f0e", "#ffbb78", "#9467bd", "#c5b0d5",
                                "#8c564b", "#7f7f7f", "#c7c7c7"};

/// The opening tag of a W x H chart.
std::string svgOpen(const char *Id, int W, int H, const char *Label) {
  std::string Ws = std::to_string(W), Hs = std::to_string(H);
  return std::string("<svg id=\"") + Id + "\" class=\"chart\" width=\"" + Ws +
         "\" height=\"" + Hs + "\" viewBox=\"0 0 " + Ws + " " + Hs +
         "\" role=\"img\" aria-label=\"" + Label + "\">";
}

/// Stacked horizontal bars: per I/O layer, its time split by operation.
std::string layerChart(const Report &R) {
  std::vector<const LayerFigures *> Io;
  uint64_t Max = 0;
  for (const LayerFigures &F : R.Layers)
    if (dftrace::isIoLayer(F.L)) {
      Io.push_back(&F);
      Max = std::max(Max, F.S->Totals.TimeUs);
    }
  int W = 760, Left = 70, BarH = 26, Gap = 10;
  int H = static_cast<int>(Io.size()) * (BarH + Gap) + 78;
  std::string S =
      svgOpen("layer-chart", W, H, "I/O time per layer and operation");
  if (Io.empty())
    return S + "<text x=\"10\" y=\"20\">no I/O events</text></svg>";
  double Scale = Max ? (W - Left - 190.0) / static_cast<double>(Max) : 0;
  int Y = 10;
  for (const LayerFigures *F : Io) {
    S += "<text x=\"0\" y=\"" + std::to_string(Y + BarH / 2 + 5) + "\">" +
         dftrace::layerName(F->L) + "</text>";
    double X = Left;
    for (size_t O = 0; O < NumOps; ++O) {
      const OpStat &Stat = F->S->ByOp[O];
      if (!Stat.TimeUs)
        continue;
      double Wd = Stat.TimeUs * Scale;
      S += "<rect x=\"" + fmt("%.2f", X) + "\" y=\"" + std::to_string(Y) +
           "\" width=\"" + fmt("%.2f", std::max(Wd, 0.5)) + "\" height=\"" +
           std::to_string(BarH) + "\" fill=\"" + OpColors[O] + "\"><title>" +
           dftrace::layerName(F->L) + " " + dftrace::opName(static_cast<Op>(O)) +
           ": " + std::to_string(Stat.Ops) + " calls, " +
           secondsText(Stat.TimeUs) + " s</title></rect>";
      X += Wd;
    }
    S += "<text x=\"" + fmt("%.0f", X + 6) +
         "\" y=\"" + std::to_string(Y + BarH / 2 + 5) + "\" class=\"note\">" +
         secondsText(F->S->Totals.TimeUs) + " s, meta " +
         fmt("%.0f", 100 * F->MetadataFraction) + "%</text>";
    Y += BarH + Gap;
  }
  // Legend: the operations present, wrapped to the chart's width.
  int X = Left;
  for (size_t O = 0; O < NumOps; ++O) {
    bool Present = false;
    for (const LayerFigures *F : Io)
      Present |= F->S->ByOp[O].Ops > 0;
    if (!Present)
      continue;
    if (X + 90 > W) {
      X = Left;
      Y += 18;
    }
    S += "<rect x=\"" + std::to_string(X) + "\" y=\"" + std::to_string(Y + 8) +
         "\" width=\"10\" height=\"10\" fill=\"" + OpColors[O] + "\"/>";
    S += "<text x=\"" + std::to_string(X + 14) + "\" y=\"" +
         std::to_string(Y + 17) + "\" class=\"note\">" +
         dftrace::opName(static_cast<Op>(O)) + "</text>";
    X += 95;
  }
  return S + "</svg>";
}

/// The layers whose calls the transfer-size chart counts: the lowest level
/// that moved bytes (bottomLayers), as the totals "at the files" take it.
/// An H5Dwrite, the MPI_File_write_at inside it and that one's pwrite are
/// one transfer, counted once (as pwrite), never three times.
unsigned sizeChartLayers(const Report &R) { return bottomLayers(R.A.Io.Layers); }

/// "POSIX and STDIO": the layers of a mask of I/O slots.
std::string layerNames(unsigned Mask) {
  std::string S;
  for (size_t L = 0; L < NumIoLayers; ++L)
    if (Mask & (1u << L))
      S += (S.empty() ? "" : " and ") +
           std::string(dftrace::layerName(ioLayer(L)));
  return S;
}

/// Read and write calls per Darshan size bin, each call once (at the layers
/// of sizeChartLayers), on a logarithmic scale (one bin often holds most
/// calls); the exact counts are printed under the axis.
std::string sizeChart(const Report &R) {
  uint64_t Read[NumSizeBins] = {}, Write[NumSizeBins] = {};
  uint64_t Max = 0;
  unsigned Mask = sizeChartLayers(R);
  for (const LayerFigures &F : R.Layers) {
    if (!dftrace::isIoLayer(F.L) || !(Mask & (1u << ioSlot(F.L))))
      continue;
    for (size_t B = 0; B < NumSizeBins; ++B) {
      Read[B] += F.S->ReadBins[B];
      Write[B] += F.S->WriteBins[B];
    }
  }
  for (size_t B = 0; B < NumSizeBins; ++B)
    Max = std::max({Max, Read[B], Write[B]});
  int W = 760, H = 270, Bottom = 70, Top = 10;
  std::string S = svgOpen("size-chart", W, H, "calls per transfer size");
  double Slot = (W - 70.0) / NumSizeBins;
  double Scale = Max ? (H - Bottom - Top) / std::log10(1.0 + Max) : 0;
  int Axis = H - Bottom;
  S += "<text x=\"0\" y=\"" + std::to_string(Axis + 30) +
       "\" class=\"note\">reads</text><text x=\"0\" y=\"" +
       std::to_string(Axis + 44) + "\" class=\"note\">writes</text>";
  for (size_t B = 0; B < NumSizeBins; ++B) {
    double X = 60 + B * Slot;
    for (int K = 0; K < 2; ++K) {
      uint64_t V = K == 0 ? Read[B] : Write[B];
      double Hh = std::log10(1.0 + V) * Scale;
      S += "<rect x=\"" + fmt("%.2f", X + 6 + K * (Slot - 12) / 2) +
           "\" y=\"" + fmt("%.2f", Axis - Hh) + "\" width=\"" +
           fmt("%.2f", (Slot - 12) / 2 - 2) + "\" height=\"" +
           fmt("%.2f", Hh) + "\" fill=\"" + (K == 0 ? "#1f77b4" : "#d62728") +
           "\"><title>" + (K == 0 ? "reads " : "writes ") +
           dftrace::sizeBinName(B) + ": " + std::to_string(V) +
           "</title></rect>";
      S += "<text x=\"" + fmt("%.2f", X + Slot / 2) + "\" y=\"" +
           std::to_string(Axis + 30 + 14 * K) +
           "\" text-anchor=\"middle\" class=\"tiny\">" + std::to_string(V) +
           "</text>";
    }
    S += "<text x=\"" + fmt("%.2f", X + Slot / 2) + "\" y=\"" +
         std::to_string(Axis + 14) +
         "\" text-anchor=\"middle\" class=\"note\">" +
         dftrace::sizeBinName(B) + "</text>";
  }
  S += "<line x1=\"60\" x2=\"" + std::to_string(W - 10) + "\" y1=\"" +
       std::to_string(Axis) + "\" y2=\"" + std::to_string(Axis) +
       "\" stroke=\"#444\"/>";
  S += "<rect x=\"60\" y=\"" + std::to_string(H - 14) +
       "\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/><text x=\"74\" y=\"" +
       std::to_string(H - 5) + "\" class=\"note\">reads</text>";
  S += "<rect x=\"130\" y=\"" + std::to_string(H - 14) +
       "\" width=\"10\" height=\"10\" fill=\"#d62728\"/><text x=\"144\" y=\"" +
       std::to_string(H - 5) + "\" class=\"note\">writes (bar heights: "
       "log scale)</text>";
  return S + "</svg>";
}

/// The top functions by inclusive I/O time, with their direct part.
std::string functionChart(const Report &R, size_t Top) {
  std::vector<const FunctionFigures *> List;
  for (const FunctionFigures &F : R.Functions)
    if (List.size() < Top &&
        F.S->Inclusive.Once.TimeUs + F.S->Direct.Once.TimeUs > 0)
      List.push_back(&F);
  uint64_t Max = 0;
  for (const FunctionFigures *F : List)
    Max = std::max(Max, F->S->Inclusive.Once.TimeUs);
  int W = 760, Left = 220, BarH = 18, Gap = 6;
  int H = static_cast<int>(List.size()) * (BarH + Gap) + 40;
  std::string S = svgOpen("function-chart", W, H, "I/O time per function");
  if (List.empty())
    return S + "<text x=\"10\" y=\"20\">no I/O under annotated functions"
               "</text></svg>";
  double Scale = Max ? (W - Left - 120.0) / static_cast<double>(Max) : 0;
  int Y = 8;
  for (const FunctionFigures *F : List) {
    S += "<text x=\"" + std::to_string(Left - 6) + "\" y=\"" +
         std::to_string(Y + 13) + "\" text-anchor=\"end\">" +
         htmlEscape(shortName(F->Name)) +
         (F->S->ThrottledCalls ? " (throttled)" : "") + "</text>";
    const IoBreakdown &In = F->S->Inclusive, &Di = F->S->Direct;
    double Wi = In.Once.TimeUs * Scale, Wd = Di.Once.TimeUs * Scale;
    S += "<rect x=\"" + std::to_string(Left) + "\" y=\"" + std::to_string(Y) +
         "\" width=\"" + fmt("%.2f", std::max(Wi, 0.5)) + "\" height=\"" +
         std::to_string(BarH) + "\" fill=\"#aec7e8\"><title>" +
         htmlEscape(F->Name) + " inclusive: " + std::to_string(In.Once.Ops) +
         " calls, " + secondsText(In.Once.TimeUs) + " s, " +
         bytesText(In.reached().bytes()) + " at the files; " +
         htmlEscape(layersText(In.Layers, In.Mpi)) + "</title></rect>";
    S += "<rect x=\"" + std::to_string(Left) + "\" y=\"" +
         std::to_string(Y + 4) + "\" width=\"" + fmt("%.2f", Wd) +
         "\" height=\"" + std::to_string(BarH - 8) +
         "\" fill=\"#1f77b4\"><title>" + htmlEscape(F->Name) +
         " direct: " + std::to_string(Di.Once.Ops) + " calls, " +
         secondsText(Di.Once.TimeUs) + " s, " +
         bytesText(Di.reached().bytes()) + " at the files; " +
         htmlEscape(layersText(Di.Layers, Di.Mpi)) + "</title></rect>";
    S += "<text x=\"" + fmt("%.0f", Left + std::max(Wi, 0.5) + 6) + "\" y=\"" +
         std::to_string(Y + 13) + "\" class=\"note\">" +
         secondsText(In.Once.TimeUs) + " s</text>";
    Y += BarH + Gap;
  }
  S += "<rect x=\"" + std::to_string(Left) + "\" y=\"" + std::to_string(Y + 6) +
       "\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/><text x=\"" +
       std::to_string(Left + 14) + "\" y=\"" + std::to_string(Y + 15) +
       "\" class=\"note\">direct</text><rect x=\"" + std::to_string(Left + 80) +
       "\" y=\"" + std::to_string(Y + 6) +
       "\" width=\"10\" height=\"10\" fill=\"#aec7e8\"/><text x=\"" +
       std::to_string(Left + 94) + "\" y=\"" + std::to_string(Y + 15) +
       "\" class=\"note\">inclusive of callees</text>";
  return S + "</svg>";
}

/// The data the timeline script draws.
Json timelineData(const Report &R) {
  Json D;
  D["t0"] = R.FirstUs;
  D["t1"] = R.LastUs;
  Json Layers = Json::array();
  for (size_t L = 0; L < NumLayers; ++L)
    Layers.push_back({{"name", dftrace::layerName(static_cast<Layer>(L))},
                      {"color", layerColor(static_cast<Layer>(L))}});
  D["layers"] = Layers;
  TimeGrid G = commonGrid(R, 1024);
  uint64_t Width = G.Width;
  size_t Count = G.Count;
  int64_t Origin = G.Origin;
  D["io_origin"] = Origin;
  D["io_width"] = Width;
  D["io_count"] = Count;
  Json Ranks = Json::array();
  for (const RankFigures &Rk : R.Ranks) {
    const Timeline &T = Rk.P->Picture;
    Json Row;
    Row["label"] = Rk.Label;
    Row["names"] = T.Names;
    Json Spans = Json::array();
    for (const TimelineSpan &S : T.Spans)
      Spans.push_back(Json::array({S.Ts - R.FirstUs, S.Dur, S.Name, S.Layer,
                                   S.Level}));
    Row["spans"] = Spans;
    Json Io = Json::object();
    for (size_t L = 0; L < Timeline::IoLayers && T.Width; ++L) {
      Density C = T.coarsen(L, Origin, Width, Count);
      Json Cells = Json::array();
      for (size_t I = 0; I < Count; ++I)
        if (C.BusyUs[I] || C.Calls[I])
          Cells.push_back(Json::array({I, C.BusyUs[I], C.Calls[I]}));
      if (!Cells.empty())
        Io[std::to_string(L + 1)] = Cells; // the Layer's number
    }
    Row["io"] = Io;
    Ranks.push_back(Row);
  }
  D["ranks"] = Ranks;
  return D;
}

const char Style[] = R"css(
body{font:14px/1.4 system-ui,sans-serif;margin:24px;color:#222;max-width:1280px}
h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;border-bottom:1px solid #ddd}
table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee;white-space:nowrap}
td:first-child,th:first-child{text-align:left}th{background:#f4f4f4}
.banner{background:#fde2e1;border:1px solid #e06c6c;padding:8px 12px;margin:12px 0}
.caveats{background:#fff6dc;border:1px solid #d9a400;padding:8px 12px;margin:12px 0}.caveats ul{margin:4px 0;padding-left:20px}
.note{font-size:11px;fill:#555;color:#555}.tiny{font-size:9px;fill:#333}
.chart{max-width:100%;height:auto}.wide{overflow-x:auto;max-width:100%}
.chart text{font-size:12px}#tl-wrap{position:relative;overflow:auto;max-height:720px;border:1px solid #ddd}
#tooltip{position:absolute;pointer-events:none;background:#fff;border:1px solid #999;padding:2px 6px;font-size:12px;display:none;white-space:nowrap}
.legend span{display:inline-block;margin-right:14px}.legend i{display:inline-block;width:10px;height:10px;margin-right:4px}
)css";

const char Script[] = R"js(
window.onerror = function (msg) { document.body.dataset.error = String(msg); };
(function () {
  var data = JSON.parse(document.getElementById('timeline-data').textContent);
  var canvas = document.getElementById('timeline-canvas');
  var ctx = canvas.getContext('2d');
  var n = data.ranks.length;
  var rowH = n <= 16 ? 40 : n <= 64 ? 20 : n <= 256 ? 8 : 4;
  ctx.font = '11px sans-serif';
  var left = 60;
  data.ranks.forEach(function (r) { left = Math.max(left, ctx.measureText(r.label).width + 12); });
  left = Math.min(Math.ceil(left), 240);
  var width = Math.max(600, 1170 - left), top = 24;
  canvas.width = left + width + 10;
  canvas.height = top + n * rowH + 10;
  var span = Math.max(1, data.t1 - data.t0);
  var sx = width / span;
  function hue(s) { var h = 0; for (var i = 0; i < s.length; i++) h = (h * 31 + s.charCodeAt(i)) % 360; return h; }
  ctx.font = '11px sans-serif';
  ctx.fillStyle = '#555';
  for (var k = 0; k <= 10; k++) {
    var x = left + k * width / 10, tick = (span * k / 10 / 1e6).toFixed(3) + ' s';
    ctx.fillRect(x, top - 4, 1, 4);
    // The last label ends at the canvas's right edge rather than past it.
    ctx.fillText(tick, Math.min(x - 12, canvas.width - ctx.measureText(tick).width - 2), top - 8);
  }
  var ioH = rowH >= 20 ? Math.floor(rowH / 3) : Math.max(1, Math.floor(rowH / 2));
  var lanes = rowH >= 20 ? 4 : rowH >= 8 ? 2 : 0;
  var laneH = lanes ? (rowH - ioH - 2) / lanes : 0;
  data.ranks.forEach(function (r, i) {
    var y = top + i * rowH;
    ctx.fillStyle = i % 2 ? '#fafafa' : '#f0f0f0';
    ctx.fillRect(left, y, width, rowH);
    if (rowH >= 8) { ctx.fillStyle = '#333'; ctx.fillText(r.label, 4, y + Math.min(rowH, 14) - 2); }
    if (lanes) {
      r.spans.forEach(function (s) {
        var lane = Math.min(s[4], lanes) - 1;
        var layer = data.layers[s[3]];
        ctx.fillStyle = s[3] === 0 ? 'hsl(' + hue(r.names[s[2]]) + ',55%,60%)' : layer.color;
        ctx.fillRect(left + s[0] * sx, y + 1 + lane * laneH, Math.max(1, s[1] * sx), Math.max(1, laneH - 1));
      });
    }
    var bw = data.io_width * sx;
    Object.keys(r.io).forEach(function (key) {
      ctx.fillStyle = data.layers[+key].color;
      r.io[key].forEach(function (c) {
        var x = left + (data.io_origin + c[0] * data.io_width - data.t0) * sx;
        ctx.globalAlpha = Math.min(1, 0.25 + c[1] / data.io_width);
        ctx.fillRect(x, y + rowH - ioH, Math.max(1, bw), ioH);
      });
      ctx.globalAlpha = 1;
    });
  });
  var tip = document.getElementById('tooltip');
  canvas.addEventListener('mousemove', function (e) {
    var b = canvas.getBoundingClientRect();
    var x = e.clientX - b.left, y = e.clientY - b.top;
    var i = Math.floor((y - top) / rowH);
    if (i < 0 || i >= n || x < left) { tip.style.display = 'none'; return; }
    var r = data.ranks[i], t = (x - left) / sx, text = 'rank ' + r.label;
    var yIn = y - top - i * rowH;
    if (lanes && yIn < rowH - ioH) {
      var lane = Math.floor((yIn - 1) / laneH) + 1;
      r.spans.forEach(function (s) {
        if (Math.min(s[4], lanes) === lane && t >= s[0] && t <= s[0] + Math.max(s[1], 1 / sx))
          text = r.names[s[2]] + ' (' + data.layers[s[3]].name + '): ' + (s[1] / 1e6).toFixed(6) + ' s at ' + (s[0] / 1e6).toFixed(6) + ' s';
      });
    } else {
      var col = Math.floor((t + data.t0 - data.io_origin) / data.io_width);
      Object.keys(r.io).forEach(function (key) {
        r.io[key].forEach(function (c) {
          if (c[0] === col) text += ' | ' + data.layers[+key].name + ': ' + c[2] + ' calls, ' + (c[1] / 1e6).toFixed(6) + ' s busy';
        });
      });
    }
    tip.textContent = text;
    tip.style.display = 'block';
    tip.style.left = (x + 12) + 'px';
    tip.style.top = (y + 12) + 'px';
  });
  canvas.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  document.body.dataset.rendered = '1';
})();
)js";

/// The runtime's records of what the trace does not hold, at the top.
void printRecordBanner(std::ostream &Os, const Report &R, size_t Top) {
  const Aggregate &A = R.A;
  if (R.Bypassed.empty() && R.Stopped.empty() && A.Untraced.empty())
    return;
  Os << "<div id=\"records\" class=\"banner\"><b>Not in this trace</b><br>";
  for (const BypassFigures &B : R.Bypassed) {
    Os << "<span class=\"bypassed\">Layer bypassed: " << htmlEscape(B.B->Layer)
       << " calls do not reach the tracer (" << htmlEscape(B.B->Symbol)
       << " resolves to " << htmlEscape(B.B->Library) << ") in "
       << B.Ranks.size() << " process(es)";
    for (size_t I = 0; I < B.Ranks.size() && I < Top; ++I)
      Os << (I ? ", " : ": ") << htmlEscape(processName(B.Ranks[I]));
    if (!B.B->Fix.empty())
      Os << ". Fix: " << htmlEscape(B.B->Fix);
    Os << "</span><br>";
  }
  for (size_t I = 0; I < R.Stopped.size() && I < Top; ++I) {
    const StopRecord &S = *R.Stopped[I].S;
    if (S.Reason == "unfinished") {
      std::string Name = processName(R.Stopped[I].Rank);
      Os << "<span class=\"stopped\">Trace unfinished on "
         << htmlEscape(Name);
      if (Name.rfind("pid ", 0) != 0)
        Os << " (pid " << S.Pid << ")";
      Os << ": it ends without its trace_end record (killed?); I/O after "
            "its last event is missing</span><br>";
      continue;
    }
    Os << "<span class=\"stopped\">Trace stopped on "
       << htmlEscape(processName(R.Stopped[I].Rank)) << ": "
       << htmlEscape(S.Reason);
    if (!S.Error.empty())
      Os << " (" << htmlEscape(S.Error) << ")";
    Os << ", " << S.Written << " of " << S.Limit
       << " bytes; later spans are only counted</span><br>";
  }
  if (R.Stopped.size() > Top) // said, as the text report says it
    Os << "<span class=\"stopped\">Trace stopped on "
       << R.Stopped.size() - Top
       << " more processes (the JSON report lists them)</span><br>";
  for (const auto &[Dir, U] : A.Untraced)
    Os << "<span class=\"untraced\">Not traced: " << htmlEscape(Dir) << ": "
       << U.calls() << " calls (" << U.Opens << " opens, " << U.Reads
       << " reads, " << U.Writes << " writes), " << bytesText(U.BytesRead)
       << " read, " << bytesText(U.BytesWritten)
       << " written (outside DFTRACER_DATA_DIR)</span><br>";
  Os << "</div>\n";
}

/// What the figures below do not hold (Caveats.h), as the text report and
/// the findings say it, before the figures.
void printCaveatBox(std::ostream &Os, const Report &R, size_t Top) {
  std::vector<std::string> Caveats = reportCaveats(R, Top);
  if (Caveats.empty())
    return;
  Os << "<div id=\"caveats\" class=\"caveats\"><b>Caveats</b>: what the "
        "figures below do not hold<ul>";
  for (const std::string &C : Caveats)
    Os << "<li>" << htmlEscape(C) << "</li>";
  Os << "</ul></div>\n";
}

void printThrottledTable(std::ostream &Os, const Report &R, size_t Top) {
  if (R.Throttled.empty())
    return;
  Os << "<h2>Throttled</h2>\n<p class=\"note\">Spans the runtime counted but "
        "did not write; their calls and time are in the figures above, their "
        "I/O is their parent's.</p>\n<div class=\"wide\"><table "
        "id=\"throttled-table\"><tr><th>function</th><th>category</th>"
        "<th>calls</th><th>time (s)</th><th>bytes</th><th>reason</th></tr>\n";
  bool AnySampled = false;
  for (size_t I = 0; I < R.Throttled.size() && I < Top; ++I) {
    const ThrottleFigures &F = R.Throttled[I];
    Os << "<tr><td>" << htmlEscape(F.Function) << "</td><td>"
       << htmlEscape(F.FCat) << "</td><td>" << F.S->Calls << "</td><td>"
       << (F.S->SampledTime ? "~" : "") << secondsText(F.S->DurUs)
       << "</td><td>" << bytesText(F.S->Bytes) << "</td><td>"
       << reasonsText(F.S->Reasons) << "</td></tr>\n";
    AnySampled |= F.S->SampledTime != 0;
  }
  Os << "</table></div>\n";
  if (AnySampled)
    Os << "<p class=\"note\">~: an estimate (sampled time: 1 throttled call "
          "in DFTRACER_THROTTLE_SAMPLE timed); the calls are exact.</p>\n";
}

} // namespace

void printHtml(std::ostream &Os, const Report &R, const OutputOptions &O) {
  const Aggregate &A = R.A;
  Os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
     << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src "
        "'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
     << "<title>dftracer-analyze report</title>\n<style>" << Style
     << "</style></head>\n<body>\n<h1>I/O report</h1>\n<p>"
     << A.FileNames.size() << " trace files, " << A.Events << " events, "
     << R.Ranks.size() << " ranks, " << secondsText(R.LastUs - R.FirstUs)
     << " s from the first event to the last. I/O calls (each once): "
     << A.Io.Once.Ops << ", " << secondsText(A.Io.Once.TimeUs) << " s; at the "
     << "files: " << bytesText(A.Io.reached().BytesRead) << " read, "
     << bytesText(A.Io.reached().BytesWritten) << " written.</p>\n";
  printRecordBanner(Os, R, O.Top);
  printCaveatBox(Os, R, O.Top);
  if (O.Findings)
    printFindingsHtml(Os, *O.Findings, O.RulesPath);
  if (uint64_t Total = A.issueTotal()) {
    Os << "<div id=\"issues\" class=\"banner\"><b>" << Total
       << " problems in the input</b> (counted, reported, the rest analysed):";
    for (size_t I = 0; I < NumIssues; ++I)
      if (A.IssueCounts[I])
        Os << " " << dftrace::issueName(static_cast<Issue>(I)) << " "
           << A.IssueCounts[I] << ";";
    Os << "<br>";
    size_t Shown = 0;
    for (const IssueRecord &I : A.Issues) {
      if (Shown++ == 5)
        break;
      Os << htmlEscape(A.FileNames[I.FileIndex]) << ":" << I.Line << ": "
         << htmlEscape(I.Message) << "<br>";
    }
    Os << "</div>\n";
  }

  printConfigurationHtml(Os, R);
  bool Summary = summarizeRanks(R, O);
  // Past the threshold three parts name the slowest ranks: one sort of
  // every rank for the page, not one each (issue 41).
  std::vector<const RankFigures *> BySlowest;
  if (Summary) {
    BySlowest = ranksBySlowest(R);
    printHeatmapSection(Os, R, O, BySlowest);
  } else {
    Os << "<h2>Timeline</h2>\n<p class=\"note\">One row per rank. Bars: the "
       << Timeline::MaxSpans << " longest spans of each rank by nesting level "
       << "(application spans coloured by name, I/O calls by layer). Strip "
          "below: I/O calls per time bucket, darker when busier.</p>\n"
       << "<p class=\"legend\">";
    for (Layer L : {Layer::Posix, Layer::Stdio, Layer::MpiIo, Layer::Hdf5})
      Os << "<span><i style=\"background:" << layerColor(L) << "\"></i>"
         << dftrace::layerName(L) << "</span>";
    Os << "</p>\n<div id=\"tl-wrap\"><canvas id=\"timeline-canvas\" width=\"1180\" "
          "height=\"100\"></canvas><div id=\"tooltip\"></div></div>\n";
  }

  // Tables scroll inside their own box on a narrow window.
  Os << "<h2>Layers</h2>\n" << layerChart(R)
     << "\n<div class=\"wide\"><table id=\"layer-table\">"
     << "<tr><th>layer</th><th>calls</th><th>time (s)</th><th>union per rank, "
        "summed (s)</th><th>slowest rank (s)</th><th>read</th><th>written</th>"
        "<th>MiB/s (slowest rank)</th><th>metadata time</th></tr>\n";
  for (const LayerFigures &F : R.Layers)
    Os << "<tr><td>" << dftrace::layerName(F.L) << "</td><td>"
       << F.S->Totals.Ops << "</td><td>" << secondsText(F.S->Totals.TimeUs)
       << "</td><td>" << secondsText(F.UnionSumUs) << "</td><td>"
       << secondsText(F.UnionMaxUs) << " (" << htmlEscape(F.UnionMaxRank)
       << ")</td><td>" << bytesText(F.S->Totals.BytesRead) << "</td><td>"
       << bytesText(F.S->Totals.BytesWritten) << "</td><td>"
       << fmt("%.1f", F.BandwidthSlowestMiBs) << "</td><td>"
       << (dftrace::isIoLayer(F.L) ? fmt("%.1f%%", 100 * F.MetadataFraction)
                                   : "")
       << "</td></tr>\n";
  Os << "</table></div>\n";
  if (std::string M = sharedMemoryCaveat(R); !M.empty())
    Os << "<p id=\"mpi-shared-memory\" class=\"note\">Of these: "
       << htmlEscape(M) << ".</p>\n";

  Os << "<h2>Transfer sizes</h2>\n<p class=\"note\">Successful read and write "
        "calls by bytes moved (Darshan's bins), each call once: at the lowest "
        "traced layer that moved bytes";
  if (unsigned Mask = sizeChartLayers(R))
    Os << " (" << layerNames(Mask) << ")";
  Os << ", as the totals at the files, never a sum over layers (the text "
        "and JSON reports give each layer's bins).</p>\n"
     << sizeChart(R) << "\n";

  Os << "<h2>Top functions by I/O time</h2>\n<p class=\"note\">Direct: I/O "
        "calls whose nearest enclosing annotated span is the function. "
        "Inclusive: also those of its callees, rebuilt from p_idx.</p>\n"
     << functionChart(R, O.Top) << "\n";
  printFunctionAccessTable(Os, R, O.Top);

  if (!R.Ranks.empty()) {
    Os << "<h2>Ranks</h2>\n<p>Slowest rank " << htmlEscape(R.Slowest->Label)
       << ": " << secondsText(R.Slowest->P->IoUnionUs) << " s of I/O; mean "
       << fmt("%.6f", R.MeanIoUs / 1e6) << " s; imbalance (slowest/mean) "
       << fmt("%.3f", R.Imbalance) << ".</p>\n";
    if (Summary)
      printRankSummaryHtml(Os, O, BySlowest);
  }
  if (!R.FilesByTime.empty()) {
    Os << "<h2>Top files by I/O time</h2>\n<div class=\"wide\"><table "
          "id=\"file-table\"><tr><th>"
          "file</th><th>calls</th><th>time (s)</th><th>metadata calls</th>"
          "<th>read</th><th>written</th><th>ranks</th><th>by layer (calls, "
          "bytes r/w; MPI-IO kinds)</th></tr>\n";
    for (size_t I = 0; I < R.FilesByTime.size() && I < O.Top; ++I) {
      const FileFigures &F = R.FilesByTime[I];
      Os << "<tr><td>" << htmlEscape(F.Path)
         << (mpiSharedMemory(F.Path)
                 ? " <span class=\"note shm\">(MPI shared memory: MPI's "
                   "transport, not the program's data)</span>"
                 : "")
         << "</td><td>" << F.Reached.Ops
         << "</td><td>" << secondsText(F.Reached.TimeUs) << "</td><td>"
         << F.MetaOps << "</td><td>" << bytesText(F.Reached.BytesRead)
         << "</td><td>" << bytesText(F.Reached.BytesWritten) << "</td><td>"
         << F.S->Processes << "</td><td>"
         << htmlEscape(layersText(F.S->Layers, F.S->Mpi)) << "</td></tr>\n";
    }
    Os << "</table></div>\n<p class=\"note\">A file's calls, time and bytes "
          "are its lowest traced layer's (POSIX where traced): what reached "
          "it, never a sum over layers.</p>\n";
    printAccessTable(Os, R, O.Top);
  }
  printThrottledTable(Os, R, O.Top);

  // Its own statement: the JSON tree is freed before the page grows.
  std::string Data = scriptData(
      jsonText(Summary ? heatmapData(R, O, BySlowest) : timelineData(R)));
  Os << "<script id=\"timeline-data\" type=\"application/json\">" << Data
     << "</script>\n<script>" << (Summary ? HeatmapScript : Script)
     << "</script>\n</body></html>\n";
}

namespace {

std::string topValues(const ValueCounts &V) {
  std::string T;
  for (const auto &[Value, Count] : V.top(4))
    T += (T.empty() ? "" : ", ") + std::to_string(Value) + " &times; " +
         std::to_string(Count);
  return T.empty() ? "-" : T;
}

} // namespace

/// The access patterns of the top files by time (docs/analysis.md).
void printAccessTable(std::ostream &Os, const Report &R, size_t Top) {
  bool Any = false;
  for (const FileFigures &F : R.FilesByTime)
    Any |= !F.S->reachedAccess().empty();
  if (!Any)
    return;
  Os << "<h2>Access patterns</h2>\n<div class=\"wide\"><table "
        "id=\"access-table\"><tr><th>file</th><th>fs</th><th>reads (seq, "
        "consec)</th><th>writes (seq, consec)</th><th>rw switches</th>"
        "<th>common sizes</th><th>strides</th><th>not aligned</th>"
        "<th>memory not aligned</th>"
        "<th>redundant read (same, other ranks)</th><th>redundant written "
        "(same, other ranks)</th><th>ranks</th></tr>\n";
  for (size_t I = 0; I < R.FilesByTime.size() && I < Top; ++I) {
    const FileFigures &F = R.FilesByTime[I];
    AccessStats A = F.S->reachedAccess();
    if (A.empty())
      continue;
    std::string AtLeast = A.RangesCapped ? "&ge; " : "";
    std::string Unit = A.alignment() ? bytesText(A.alignment()) : "mixed";
    if (A.AlignAssumed)
      Unit += " (assumed)";
    FileRankFigures Rk = R.fileRanks(*F.S);
    Os << "<tr><td>" << htmlEscape(F.Path) << "</td><td>"
       << htmlEscape(F.S->Fs.Type.empty() ? "?" : F.S->Fs.Type) << "</td><td>"
       << A.Reads << " (" << A.SeqReads << ", " << A.ConsecReads << ")</td><td>"
       << A.Writes << " (" << A.SeqWrites << ", " << A.ConsecWrites
       << ")</td><td>" << A.RwSwitches << "</td><td>" << topValues(A.Sizes)
       << "</td><td>" << topValues(A.Strides) << "</td><td>" << A.NotAligned
       << " of " << A.Reads + A.Writes << " (unit " << Unit << ")</td><td>"
       << htmlEscape(memAlignText(A)) << "</td><td>" << AtLeast
       << bytesText(A.RedundantRead) << ", " << AtLeast
       << bytesText(A.CrossRead) << "</td><td>" << AtLeast
       << bytesText(A.RedundantWritten) << ", " << AtLeast
       << bytesText(A.CrossWritten) << "</td><td>" << Rk.Ranks
       << (Rk.Ranks > 1 ? " (shared)" : "") << "</td></tr>\n";
  }
  Os << "</table></div>\n<p class=\"note\">seq: starts at or after the end "
        "of the previous call of its kind by the process; consec: exactly "
        "there. Unit: the file system's stripe or block size (1 MiB when the "
        "trace has no FS record). Memory not aligned: buffers that are not "
        "a multiple of the process's recorded memory alignment (unit). "
        "&ge;: past the range cap, a lower bound.</p>\n";
}

/// The same counters per function: the top functions with data calls.
void printFunctionAccessTable(std::ostream &Os, const Report &R, size_t Top) {
  const std::vector<const FunctionFigures *> &List = R.FunctionsWithAccess;
  if (List.empty())
    return;
  Os << "<h2>Access patterns per function</h2>\n<div class=\"wide\"><table "
        "id=\"function-access-table\"><tr><th>function</th><th>reads (seq, "
        "consec)</th><th>writes (seq, consec)</th><th>rw switches</th>"
        "<th>common sizes</th><th>strides</th><th>not aligned</th>"
        "<th>memory not aligned</th><th>redundant read, written (same "
        "process)</th></tr>\n";
  for (size_t I = 0; I < List.size() && I < Top; ++I) {
    const AccessStats &A = List[I]->S->Access;
    std::string AtLeast = A.RangesCapped ? "&ge; " : "";
    Os << "<tr><td>" << htmlEscape(List[I]->Name) << "</td><td>" << A.Reads
       << " (" << A.SeqReads << ", " << A.ConsecReads << ")</td><td>"
       << A.Writes << " (" << A.SeqWrites << ", " << A.ConsecWrites
       << ")</td><td>" << A.RwSwitches << "</td><td>" << topValues(A.Sizes)
       << "</td><td>" << topValues(A.Strides) << "</td><td>" << A.NotAligned
       << " of " << A.Reads + A.Writes << "</td><td>"
       << htmlEscape(memAlignText(A)) << "</td><td>" << AtLeast
       << bytesText(A.RedundantRead) << ", " << AtLeast
       << bytesText(A.RedundantWritten) << "</td></tr>\n";
  }
  Os << "</table></div>\n<p class=\"note\">Each function's direct POSIX and "
        "STDIO data calls, each judged in its process's stream on its file "
        "(the previous call there may be another function's); the files' "
        "definitions.</p>\n";
}

} // namespace dftanalyze
