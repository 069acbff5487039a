//===- DiagnoseOutput.cpp - Findings as text, JSON and HTML ---------------===//
//
// \code
//   Findings (2, by seconds recoverable; rules: .../diagnosis.json)
//   1. small_requests: 40960 data calls under 1048576 B (mean 4096 B), ...
//      cost: 40960 ops, 167772160 B, 1.234567 s; recoverable 1.100000 s
//        (the small calls' time minus ...)
//      site: POSIX_Xfer > pwrite64  40960 ops  167772160 B  1.234567 s
//      ...
//      try: DFTRACER_TUNE='hdf5.alignment=4096,4096'   (an advice's "try")
// \endcode
//
//===----------------------------------------------------------------------===//

#include "HtmlEscape.h"
#include "Seconds.h"
#include "diagnose/Diagnose.h"

#include <cmath>
#include <cstdio>

namespace dftanalyze {

namespace {

std::string figure(double V) {
  char Buf[64];
  if (V == std::floor(V) && std::fabs(V) < 1e15)
    std::snprintf(Buf, sizeof(Buf), "%.0f", V);
  else
    std::snprintf(Buf, sizeof(Buf), "%.4g", V);
  return Buf;
}

std::string evidenceText(const Evidence &E) {
  return E.Name + " " + figure(E.Value) + " " + E.Op + " " +
         figure(E.Threshold);
}

std::string join(const std::vector<std::string> &V, const char *Sep) {
  std::string S;
  for (const std::string &X : V)
    S += (S.empty() ? "" : Sep) + X;
  return S;
}

double rounded(double V) { return std::round(V * 1e6) / 1e6; }

} // namespace

void printFindingsText(std::ostream &Os, const std::vector<Finding> &Fs,
                       const std::string &RulesPath) {
  Os << "Findings (" << Fs.size() << ", by seconds recoverable; rules: "
     << RulesPath << ")\n";
  if (Fs.empty())
    Os << "  none: no rule's thresholds and minimum support were reached\n";
  size_t N = 0;
  for (const Finding &F : Fs) {
    Os << ++N << ". " << F.Kind << ": " << F.Summary << "\n";
    Os << "   cost: " << F.Ops << " ops, " << F.Bytes << " B, "
       << secondsText(F.TimeUs) << " s; recoverable "
       << secondsText(F.RecoverableUs) << " s (" << F.Method << ")\n";
    for (const FindingSite &S : F.Sites)
      Os << "   site: " << S.Function << " > " << S.Chain << ": " << S.Ops
         << " ops, " << S.Bytes << " B, " << secondsText(S.TimeUs) << " s\n";
    for (const FindingFile &File : F.Files)
      Os << "   file: " << File.Path << " (" << File.FsType << ")\n";
    if (!F.Ranks.empty())
      Os << "   ranks: " << join(F.Ranks, ", ") << "\n";
    std::vector<std::string> Why;
    for (const Evidence &E : F.Proof)
      Why.push_back(evidenceText(E));
    for (const Evidence &E : F.Support)
      Why.push_back(evidenceText(E));
    Os << "   evidence: " << join(Why, "; ") << "\n";
    for (const std::string &C : F.Caveats)
      Os << "   caveat: " << C << "\n";
    for (const std::string &A : F.Advices)
      Os << "   advice: " << A << "\n";
    if (!F.Try.empty()) // the advice, applied without a rebuild
      Os << "   try: " << tuneLine(F.Try) << "\n";
    for (const LedgerTrial &T : F.Ledger) // --ledger: tried before
      Os << "   ledger: " << ledgerTrialText(T) << "\n";
    if (F.LedgerRead && !F.Try.empty() && F.Ledger.empty())
      Os << "   ledger: no trial of these settings for this program and "
            "file system\n";
  }
  Os << "\n";
}

nlohmann::ordered_json findingsJson(const std::vector<Finding> &Fs) {
  using Json = nlohmann::ordered_json;
  Json Out = Json::array();
  auto Ev = [](const std::vector<Evidence> &V) {
    Json A = Json::array();
    for (const Evidence &E : V)
      A.push_back({{"name", E.Name},
                   {"value", rounded(E.Value)},
                   {"op", E.Op},
                   {"threshold", rounded(E.Threshold)}});
    return A;
  };
  for (const Finding &F : Fs) {
    Json J;
    J["kind"] = F.Kind;
    J["summary"] = F.Summary;
    J["ops"] = F.Ops;
    J["bytes"] = F.Bytes;
    J["seconds"] = rounded(F.TimeUs / 1e6);
    J["recoverable_seconds"] = rounded(F.RecoverableUs / 1e6);
    J["recoverable_method"] = F.Method;
    Json Sites = Json::array();
    for (const FindingSite &S : F.Sites)
      Sites.push_back({{"function", S.Function},
                       {"chain", S.Function + " > " + S.Chain},
                       {"ops", S.Ops},
                       {"bytes", S.Bytes},
                       {"seconds", rounded(S.TimeUs / 1e6)}});
    J["sites"] = Sites;
    Json Files = Json::array();
    for (const FindingFile &File : F.Files)
      Files.push_back({{"path", File.Path},
                       {"fs_type", File.FsType},
                       {"ops", File.Ops},
                       {"bytes", File.Bytes},
                       {"seconds", rounded(File.TimeUs / 1e6)}});
    J["files"] = Files;
    J["ranks"] = F.Ranks;
    J["evidence"] = Ev(F.Proof);
    J["support"] = Ev(F.Support);
    J["caveats"] = F.Caveats;
    J["advice"] = F.Advices;
    J["try"] = F.Try; // DFTRACER_TUNE settings (docs/diagnosis.md)
    if (F.LedgerRead) { // --ledger (docs/diagnosis.md, "The ledger")
      Json L = Json::array();
      for (const LedgerTrial &T : F.Ledger)
        L.push_back({{"id", T.Id},
                     {"date", T.Date},
                     {"setting", T.Setting},
                     {"program", T.Program},
                     {"ranks", T.Ranks},
                     {"fs_types", T.FsTypes},
                     {"metric", T.Metric},
                     {"status", T.Status},
                     {"change_percent", T.HasStats
                                            ? Json(rounded(T.ChangePercent))
                                            : Json(nullptr)},
                     {"p", T.HasStats ? Json(rounded(T.P)) : Json(nullptr)},
                     {"failure", T.Failure},
                     {"text", ledgerTrialText(T)}});
      J["ledger"] = std::move(L);
    }
    Out.push_back(std::move(J));
  }
  return Out;
}

void printFindingsHtml(std::ostream &Os, const std::vector<Finding> &Fs,
                       const std::string &RulesPath) {
  Os << "<section id=\"findings\"><h2>Findings</h2>\n<p>" << Fs.size()
     << " findings, most seconds recoverable first (rules: "
     << htmlEscape(RulesPath) << ").</p>\n";
  uint64_t Max = Fs.empty() ? 0 : Fs.front().RecoverableUs;
  for (const Finding &F : Fs) {
    // The top finding is shown open, its advice visible without a click.
    bool Open = &F == &Fs.front();
    // Severity by seconds recoverable against the largest finding.
    double Rel = Max ? double(F.RecoverableUs) / double(Max) : 0;
    const char *Sev = Rel >= 0.5 ? "high" : Rel >= 0.1 ? "medium" : "low";
    Os << "<details class=\"finding " << Sev << "\"" << (Open ? " open" : "")
       << "><summary><b>"
       << htmlEscape(F.Kind) << "</b> (" << Sev << ", "
       << secondsText(F.RecoverableUs)
       << " s recoverable): " << htmlEscape(F.Summary) << "</summary>\n<p>cost "
       << F.Ops << " ops, " << F.Bytes << " B, " << secondsText(F.TimeUs)
       << " s; estimate: " << htmlEscape(F.Method) << "</p>\n";
    if (!F.Sites.empty()) {
      Os << "<table><tr><th>function</th><th>chain</th><th>ops</th>"
            "<th>bytes</th><th>s</th></tr>\n";
      for (const FindingSite &S : F.Sites)
        Os << "<tr><td>" << htmlEscape(S.Function) << "</td><td>"
           << htmlEscape(S.Chain) << "</td><td>" << S.Ops << "</td><td>"
           << S.Bytes << "</td><td>" << secondsText(S.TimeUs) << "</td></tr>\n";
      Os << "</table>\n";
    }
    Os << "<ul>";
    for (const FindingFile &File : F.Files)
      Os << "<li>file " << htmlEscape(File.Path) << " ("
         << htmlEscape(File.FsType) << ")</li>";
    if (!F.Ranks.empty())
      Os << "<li>ranks " << htmlEscape(join(F.Ranks, ", ")) << "</li>";
    for (const Evidence &E : F.Proof)
      Os << "<li>evidence: " << htmlEscape(evidenceText(E)) << "</li>";
    for (const Evidence &E : F.Support)
      Os << "<li>support: " << htmlEscape(evidenceText(E)) << "</li>";
    for (const std::string &C : F.Caveats)
      Os << "<li>caveat: " << htmlEscape(C) << "</li>";
    for (const std::string &A : F.Advices)
      Os << "<li><b>advice</b>: " << htmlEscape(A) << "</li>";
    if (!F.Try.empty())
      Os << "<li><b>try</b> without a rebuild: <code>"
         << htmlEscape(tuneLine(F.Try)) << "</code></li>";
    for (const LedgerTrial &T : F.Ledger)
      Os << "<li><b>ledger</b>: " << htmlEscape(ledgerTrialText(T))
         << "</li>";
    Os << "</ul></details>\n";
  }
  Os << "</section>\n";
}

} // namespace dftanalyze
