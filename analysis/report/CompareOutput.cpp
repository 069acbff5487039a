//===- CompareOutput.cpp - A comparison as text, JSON and HTML ------------===//
//
// The text, as dftracer-analyze --compare BASE TRACE printed it for two
// generated sets (two of the six findings and one row a section kept):
//
// \code
//   Comparison: 1 baseline run, 1 changed run; comparable
//
//   changed: nothing in the configuration the traces record
//
//   verdict (slowest rank's I/O time, s): cannot decide
//     baseline: median 0.213944, n 1
//     changed: median 0.297271, n 1
//     ratio of medians 1.389 (+38.9%); Mann-Whitney p = 1
//     why: 1 run against 1 run: the smallest p any result can give is 1,
//       not below 0.05; run at least 4 runs a side (the spread is unknown
//       until a side has 2 runs)
//
//   findings (6):
//     metadata_heavy (stat_files): regressed, run: cannot decide
//       (0.077383 s -> 0.107872 s; recoverable 0.064512 s -> 0.089857 s)
//     small_requests (write_block): fixed, run: cannot decide (0.087253 s
//       -> 0.000000 s; recoverable 0.087243 s -> 0.000000 s)
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
// With configuration records (issue 35) "changed:" names the first
// differences in one line, then "what changed (N):" lists each as
// "  SCOPE KEY: BEFORE -> AFTER" (Compare.h, ConfigChange). Each finding
// and row is one line (wrapped here). The verdict's sides are
// "median M [min..max], n N, CV C%" with replicates and its ratio has its
// 95% interval (docs/tuning.md, "Verdict"); a fixed or improved finding of
// a run that is not faster ends with "; moved to OPERATION +S s". With
// replicates a figure is "mean [min..max]"; runs that differ print
// "  differs: ..." lines under the header and, without --force, "  (--force
// compares anyway)" and what changed, nothing else. --json and --html hold
// the same figures.
//
//===----------------------------------------------------------------------===//

#include "HtmlEscape.h"
#include "diagnose/Compare.h"

#include <cmath>
#include <cstdio>
#include <sstream>

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

std::string sideText(const dftstats::Summary &S, int Digits) {
  std::string T = "median " + num(S.Median, Digits);
  if (S.N > 1)
    T += " [" + num(S.Min, Digits) + ".." + num(S.Max, Digits) + "]";
  T += ", n " + std::to_string(S.N);
  if (S.N > 1)
    T += ", CV " + num(100 * S.Cv, 1) + "%";
  return T;
}

int digitsOf(const RunMetric &M) { return M.Unit == "s" ? 6 : 1; }

std::string pText(double P) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", P);
  return Buf;
}

std::string ratioText(const dftstats::Verdict &V) {
  if (!V.Ratio.Valid)
    return "ratio of medians undefined (baseline median 0)";
  std::string T = "ratio of medians " + num(V.Ratio.Ratio, 3);
  if (V.Before.N > 1 || V.After.N > 1)
    T += " (" + num(100 * V.Ratio.Level, 0) + "% CI " + num(V.Ratio.Low, 3) +
         ".." + num(V.Ratio.High, 3) + ")";
  double P = 100 * (V.Ratio.Ratio - 1);
  T += ", " + std::string(P >= 0 ? "+" : "") + num(P, 1) + "%";
  return T;
}

} // namespace

void printVerdictText(std::ostream &Os, const RunVerdict &R,
                      const std::string &Indent) {
  const dftstats::Verdict &V = R.V;
  int D = digitsOf(R.Metric);
  Os << Indent << "verdict (" << R.Metric.Description << ", " << R.Metric.Unit
     << "): " << V.Status << "\n";
  Os << Indent << "  baseline: " << sideText(V.Before, D) << "\n";
  Os << Indent << "  changed: " << sideText(V.After, D) << "\n";
  Os << Indent << "  " << ratioText(V)
     << "; Mann-Whitney p = " << pText(V.Test.P)
     << (V.Test.Exact ? "" : " (normal approximation)") << "\n";
  Os << Indent << "  why: " << V.Why << "\n";
}

nlohmann::ordered_json verdictJson(const RunVerdict &R) {
  using Json = nlohmann::ordered_json;
  const dftstats::Verdict &V = R.V;
  auto Side = [](const dftstats::Summary &S, const std::vector<double> &Vals) {
    Json Values = Json::array();
    for (double X : Vals)
      Values.push_back(rounded(X));
    return Json{{"n", S.N},
                {"median", rounded(S.Median)},
                {"min", rounded(S.Min)},
                {"max", rounded(S.Max)},
                {"cv", rounded(S.Cv)},
                {"values", Values}};
  };
  Json J;
  J["metric"] = R.Metric.Name;
  J["description"] = R.Metric.Description;
  J["unit"] = R.Metric.Unit;
  J["better"] = R.Metric.Better == dftstats::Direction::LowerIsBetter
                    ? "lower"
                    : "higher";
  J["status"] = V.Status;
  J["why"] = V.Why;
  J["baseline"] = Side(V.Before, R.Values[0]);
  J["changed"] = Side(V.After, R.Values[1]);
  if (V.Ratio.Valid)
    J["ratio"] = {{"median_ratio", rounded(V.Ratio.Ratio)},
                  {"low", rounded(V.Ratio.Low)},
                  {"high", rounded(V.Ratio.High)},
                  {"level", V.Ratio.Level},
                  {"change_percent", rounded(100 * (V.Ratio.Ratio - 1))}};
  else
    J["ratio"] = nullptr;
  J["test"] = "mann-whitney";
  J["p"] = rounded(V.Test.P);
  J["p_exact"] = V.Test.Exact;
  J["smallest_p"] = rounded(V.SmallestP);
  J["alpha"] = V.Alpha;
  J["detect_change"] = V.DetectChange;
  J["runs_needed"] = V.RunsNeeded;
  return J;
}

void printComparisonText(std::ostream &Os, const Comparison &C, bool Forced) {
  Os << header(C, Forced) << "\n";
  for (const std::string &D : C.Differences)
    Os << "  differs: " << D << "\n";
  bool Stop = !C.Comparable && !Forced;
  if (Stop)
    Os << "  (--force compares anyway)\n";
  // What changed, also when the runs are not comparable: it may say why.
  Os << "\n" << C.ChangedLine << "\n";
  if (!C.Changes.empty()) {
    Os << "\nwhat changed (" << C.Changes.size() << "):\n";
    const size_t Shown = 40; // the rest in --json
    for (size_t I = 0; I < C.Changes.size() && I < Shown; ++I) {
      const ConfigChange &Ch = C.Changes[I];
      Os << "  " << Ch.Scope << " " << Ch.Key << ": "
         << (Ch.Before.empty() ? "(none)" : Ch.Before) << " -> "
         << (Ch.After.empty() ? "(none)" : Ch.After) << "\n";
    }
    if (C.Changes.size() > Shown)
      Os << "  ... " << C.Changes.size() - Shown << " more (--json lists "
         << "them all)\n";
  }
  if (Stop)
    return;
  Os << "\n";
  printVerdictText(Os, C.Verdict, "");
  Os << "\nfindings (" << C.Findings.size() << "):\n";
  if (C.Findings.empty())
    Os << "  none on either side\n";
  for (const FindingChange &F : C.Findings) {
    Os << "  " << F.Kind;
    if (!F.Function.empty())
      Os << " (" << F.Function << ")";
    Os << ": " << F.Status << ", " << F.Run << " ("
       << value(F.Seconds[0], C.Runs[0], 6) << " s -> "
       << value(F.Seconds[1], C.Runs[1], 6) << " s; recoverable "
       << num(F.Recoverable[0].Mean, 6) << " s -> "
       << num(F.Recoverable[1].Mean, 6) << " s"
       << (F.MovedTo.empty() ? "" : "; moved to " + F.MovedTo) << ")\n";
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
                  {"summary_after", F.Summary[1]},
                  {"run", F.Run},
                  {"moved_to", F.MovedTo}});
  J["changed"] = C.ChangedLine;
  Json Changes = Json::array();
  for (const ConfigChange &Ch : C.Changes)
    Changes.push_back({{"scope", Ch.Scope},
                       {"key", Ch.Key},
                       {"before", Ch.Before},
                       {"after", Ch.After}});
  J["changes"] = Changes;
  J["verdict"] = verdictJson(C.Verdict);
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
  Os << "</ul>\n<h2>What changed</h2>\n<p>" << htmlEscape(C.ChangedLine)
     << "</p>\n<table><tr><th>scope</th><th>key</th><th>before</th>"
        "<th>after</th></tr>\n";
  for (const ConfigChange &Ch : C.Changes)
    Os << "<tr><td>" << htmlEscape(Ch.Scope) << "</td><td>"
       << htmlEscape(Ch.Key) << "</td><td>" << htmlEscape(Ch.Before)
       << "</td><td>" << htmlEscape(Ch.After) << "</td></tr>\n";
  Os << "</table>\n<h2>Verdict</h2>\n<pre>";
  {
    std::ostringstream V;
    printVerdictText(V, C.Verdict, "");
    Os << htmlEscape(V.str());
  }
  Os << "</pre>\n<h2>Findings</h2>\n<table><tr><th>kind</th><th>function</th>"
        "<th>status</th><th>run</th><th>s before</th><th>s after</th>"
        "<th>moved to</th></tr>\n";
  for (const FindingChange &F : C.Findings)
    Os << "<tr><td>" << htmlEscape(F.Kind) << "</td><td>"
       << htmlEscape(F.Function) << "</td><td class=\"" << F.Status << "\">"
       << F.Status << "</td><td>" << htmlEscape(F.Run) << "</td><td>"
       << value(F.Seconds[0], C.Runs[0], 6) << "</td><td>"
       << value(F.Seconds[1], C.Runs[1], 6) << "</td><td>"
       << htmlEscape(F.MovedTo) << "</td></tr>\n";
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
