//===- CompareOutput.cpp - A comparison as text, JSON and HTML ------------===//
//
// The text, as dftracer-analyze --compare BASE TRACE printed it for two
// generated sets (two of the six findings and one row a section kept):
//
// \code
//   Comparison: 1 baseline run, 1 changed run; comparable
//
//   findings (6):
//     metadata_heavy (stat_files): regressed (0.077383 s -> 0.107872 s;
//       recoverable 0.064512 s -> 0.089857 s)
//     small_requests (write_block): fixed (0.087253 s -> 0.000000 s;
//       recoverable 0.087243 s -> 0.000000 s)
//
//   layer: ops, bytes, seconds, MiB/s per call (before -> after, change)
//     POSIX: ops 27822 -> 38758 (+39.3%); bytes 3974618926915 ->
//       5464618003838 (+37.5%); s 0.213944 -> 0.297271 (+38.9%); MiB/s
//       17717215.7 -> 17531026.7
//
//   operation: ops, bytes, seconds, MiB/s per call (before -> after, change)
//     HDF5 open: ops 805 -> 1144 (+42.1%); bytes 0 -> 0 (=); ...
//
//   file: ops, bytes, seconds, MiB/s per call (before -> after, change)
//     /scratch/run/file0.dat: ops 4322 -> 6052 (+40.0%); ...
//
//   function: ops, bytes, seconds, MiB/s per call (before -> after, change)
//     main: ops 14376 -> 40273 (+180.1%); ...
// \endcode
//
// Each finding and row is one line (wrapped here). With replicates a
// figure is "mean [min..max]"; runs that differ print "  differs: ..."
// lines under the header and, without --force, "  (--force compares
// anyway)" and nothing else. --json and --html hold the same figures.
//
//===----------------------------------------------------------------------===//

#include "HtmlEscape.h"
#include "diagnose/Compare.h"

#include <cmath>
#include <cstdio>

namespace dftanalyze {

namespace {

std::string num(double V, int Digits = 0) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), "%.*f", Digits, V);
  return Buf;
}

/// "12.5" or "12.5 [12.0..13.0]" with replicates.
std::string value(const Spread &S, size_t Runs, int Digits) {
  std::string T = num(S.Mean, Digits);
  if (Runs > 1)
    T += " [" + num(S.Min, Digits) + ".." + num(S.Max, Digits) + "]";
  return T;
}

std::string change(const Spread &B, const Spread &A) {
  if (B.Mean == 0)
    return A.Mean == 0 ? "=" : "new";
  double P = 100 * (A.Mean - B.Mean) / B.Mean;
  return (P >= 0 ? "+" : "") + num(P, 1) + "%";
}

double rounded(double V) { return std::round(V * 1e6) / 1e6; }

std::string header(const Comparison &C, bool Forced) {
  std::string S = "Comparison: " + std::to_string(C.Runs[0]) + " baseline run" +
                  (C.Runs[0] == 1 ? "" : "s") + ", " +
                  std::to_string(C.Runs[1]) + " changed run" +
                  (C.Runs[1] == 1 ? "" : "s") + "; ";
  S += C.Comparable ? "comparable" : Forced ? "NOT comparable (--force)"
                                            : "NOT comparable";
  return S;
}

} // namespace

void printComparisonText(std::ostream &Os, const Comparison &C, bool Forced) {
  Os << header(C, Forced) << "\n";
  for (const std::string &D : C.Differences)
    Os << "  differs: " << D << "\n";
  if (!C.Comparable && !Forced) {
    Os << "  (--force compares anyway)\n";
    return;
  }
  Os << "\nfindings (" << C.Findings.size() << "):\n";
  if (C.Findings.empty())
    Os << "  none on either side\n";
  for (const FindingChange &F : C.Findings) {
    Os << "  " << F.Kind;
    if (!F.Function.empty())
      Os << " (" << F.Function << ")";
    Os << ": " << F.Status << " (" << value(F.Seconds[0], C.Runs[0], 6)
       << " s -> " << value(F.Seconds[1], C.Runs[1], 6) << " s; recoverable "
       << num(F.Recoverable[0].Mean, 6) << " s -> "
       << num(F.Recoverable[1].Mean, 6) << " s)\n";
  }
  std::string Scope;
  for (const CompareRow &R : C.Rows) {
    if (R.Scope != Scope) {
      Scope = R.Scope;
      Os << "\n" << Scope << ": ops, bytes, seconds, MiB/s per call (before -> "
         << "after, change)\n";
    }
    Os << "  " << R.Name << ": ops " << value(R.Ops[0], C.Runs[0], 0) << " -> "
       << value(R.Ops[1], C.Runs[1], 0) << " (" << change(R.Ops[0], R.Ops[1])
       << "); bytes " << value(R.Bytes[0], C.Runs[0], 0) << " -> "
       << value(R.Bytes[1], C.Runs[1], 0) << " ("
       << change(R.Bytes[0], R.Bytes[1]) << "); s "
       << value(R.Seconds[0], C.Runs[0], 6) << " -> "
       << value(R.Seconds[1], C.Runs[1], 6) << " ("
       << change(R.Seconds[0], R.Seconds[1]) << "); MiB/s "
       << value(R.MiBs[0], C.Runs[0], 1) << " -> "
       << value(R.MiBs[1], C.Runs[1], 1) << "\n";
  }
}

nlohmann::ordered_json comparisonJson(const Comparison &C, bool Forced) {
  using Json = nlohmann::ordered_json;
  auto Sp = [](const Spread &S) {
    return Json{{"mean", rounded(S.Mean)},
                {"min", rounded(S.Min)},
                {"max", rounded(S.Max)}};
  };
  Json J;
  J["baseline_runs"] = C.Runs[0];
  J["changed_runs"] = C.Runs[1];
  J["comparable"] = C.Comparable;
  J["forced"] = Forced;
  J["differences"] = C.Differences;
  Json Fs = Json::array();
  for (const FindingChange &F : C.Findings)
    Fs.push_back({{"kind", F.Kind},
                  {"function", F.Function},
                  {"status", F.Status},
                  {"seconds_before", Sp(F.Seconds[0])},
                  {"seconds_after", Sp(F.Seconds[1])},
                  {"recoverable_before", Sp(F.Recoverable[0])},
                  {"recoverable_after", Sp(F.Recoverable[1])},
                  {"summary_before", F.Summary[0]},
                  {"summary_after", F.Summary[1]}});
  J["findings"] = Fs;
  Json Rows = Json::array();
  for (const CompareRow &R : C.Rows) {
    Json Row{{"scope", R.Scope}, {"name", R.Name}};
    const char *Side[2] = {"before", "after"};
    for (int I = 0; I < 2; ++I)
      Row[Side[I]] = {{"ops", Sp(R.Ops[I])},
                      {"bytes", Sp(R.Bytes[I])},
                      {"seconds", Sp(R.Seconds[I])},
                      {"mib_per_s", Sp(R.MiBs[I])}};
    Rows.push_back(std::move(Row));
  }
  J["rows"] = Rows;
  return J;
}

void printComparisonHtml(std::ostream &Os, const Comparison &C, bool Forced) {
  Os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>dftracer-analyze comparison</title><style>body{font-family:"
        "sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:"
        "1px solid #ccc;padding:2px 6px;text-align:right}td:first-child{"
        "text-align:left}.fixed,.improved{color:#070}.regressed,.new{color:"
        "#b00}</style></head><body>\n<h1>"
     << htmlEscape(header(C, Forced)) << "</h1>\n<ul>";
  for (const std::string &D : C.Differences)
    Os << "<li>" << htmlEscape(D) << "</li>";
  Os << "</ul>\n<h2>Findings</h2>\n<table><tr><th>kind</th><th>function</th>"
        "<th>status</th><th>s before</th><th>s after</th></tr>\n";
  for (const FindingChange &F : C.Findings)
    Os << "<tr><td>" << htmlEscape(F.Kind) << "</td><td>"
       << htmlEscape(F.Function) << "</td><td class=\"" << F.Status << "\">"
       << F.Status << "</td><td>" << value(F.Seconds[0], C.Runs[0], 6)
       << "</td><td>" << value(F.Seconds[1], C.Runs[1], 6) << "</td></tr>\n";
  Os << "</table>\n<h2>Figures</h2>\n<table><tr><th>scope / name</th>"
        "<th>ops</th><th>bytes</th><th>s</th><th>MiB/s</th></tr>\n";
  for (const CompareRow &R : C.Rows)
    Os << "<tr><td>" << htmlEscape(R.Scope + " " + R.Name) << "</td><td>"
       << value(R.Ops[0], C.Runs[0], 0) << " &rarr; "
       << value(R.Ops[1], C.Runs[1], 0) << "</td><td>"
       << value(R.Bytes[0], C.Runs[0], 0) << " &rarr; "
       << value(R.Bytes[1], C.Runs[1], 0) << "</td><td>"
       << value(R.Seconds[0], C.Runs[0], 6) << " &rarr; "
       << value(R.Seconds[1], C.Runs[1], 6) << "</td><td>"
       << value(R.MiBs[0], C.Runs[0], 1) << " &rarr; "
       << value(R.MiBs[1], C.Runs[1], 1) << "</td></tr>\n";
  Os << "</table>\n</body></html>\n";
}

} // namespace dftanalyze
