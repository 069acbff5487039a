//===- DftracerAnalyze.cpp - dftracer-analyze: options and main -----------===//
//
//   dftracer-analyze [options] TRACE...
//   mpiexec -n N dftracer-analyze [options] TRACE...
//
// Exit 0: the report was written; 1: a trace could not be read, an output
// could not be written, or --strict and the input has problems; 2: usage.
//
//===----------------------------------------------------------------------===//

#include "analyze/Analysis.h"
#include "analyze/Mpi.h"
#include "diagnose/Compare.h"
#include "diagnose/Diagnose.h"
#include "diagnose/SuggestFilter.h"
#include "reader/TraceScanner.h"
#include "report/ChromeTrace.h"
#include "report/Output.h"

#include "CommandLine.h"

#ifdef DFT_HAVE_LEDGER // SQLite found: dftracer-tune's ledger can be read
#include "tune/Ledger.h"
#endif

#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace dftanalyze;

namespace {

const char UsageLines[] =
    "usage: dftracer-analyze [options] TRACE...\n"
    "       mpiexec -n N dftracer-analyze [options] TRACE...\n";

const char Description[] =
    "Analyse DFTracer traces (.pfw, .pfw.gz, .pfc, or directories of them):\n"
    "I/O per layer (calls, bytes, time summed and as a union per rank,\n"
    "bandwidth), metadata against data, transfer sizes, top files, ranks,\n"
    "and the I/O each annotated function issued, directly and with its\n"
    "callees.\n"
    "docs/analysis.md defines every figure.";

const char Footer[] =
    "Problems in the input are counted and reported with file:line; the rest\n"
    "of the input is analysed. Output is byte-identical for any -j and under\n"
    "MPI.\n"
    "\n"
    "exit status: 0 report written; 1 unreadable trace, unwritable output, or\n"
    "problems with --strict; 2 usage error";

struct Options {
  std::vector<std::string> Traces;
  unsigned Jobs = 0;
  bool Json = false;
  bool Strict = false;
  dftrace::TimeUnit Unit = dftrace::TimeUnit::Us; // --time-unit
  bool UnitGiven = false;
  std::string Html;
  std::string Chrome;
  ChromeFilter Filter;
  bool Filtered = false;
  bool Suggest = false;
  std::string SuggestConfigPath;
  bool DiagnoseOnly = false, NoDiagnose = false;
  std::string RulesPath;
  std::string LedgerPath;           // --ledger: dftracer-tune's trials
  std::vector<std::string> Compare; // baseline runs
  bool Replicates = false, Force = false;
  RunMetric Metric; // --metric
  bool MetricGiven = false;
  OutputOptions Out;
};

bool parseCount(const std::string &S, unsigned long &Out) {
  if (S.empty() || S.find_first_not_of("0123456789") != std::string::npos)
    return false;
  Out = std::stoul(S);
  return Out > 0 && Out < 100000;
}

/// The options (CommandLine.h: CLI11, with the spellings of before).
void defineOptions(dfttools::CommandLine &CL, Options &O) {
  using dfttools::UsageError;
  dfttools::CommandLine::ValueForm Jobs;
  Jobs.Attached = [](const std::string &V) { // -j4
    unsigned long N = 0;
    return parseCount(V, N);
  };
  CL.value("-j,--jobs", "N",
           "files read in parallel (default: every core; under\n"
           "MPI: the cores divided by the ranks on the node)",
           [&O](const std::string &V) {
             unsigned long N = 0;
             if (!parseCount(V, N))
               throw UsageError("-j needs a number of threads, not '" + V +
                                "'");
             O.Jobs = static_cast<unsigned>(N);
           },
           Jobs);
  CL.flag("--json", "print the report as JSON (schema 2) instead of text",
          O.Json);
  CL.flag("--all-files",
          "JSON: also list every file (files_all), not only\n"
          "the top N",
          O.Out.AllFiles);
  CL.flag("--all-ranks",
          "every rank in the reports: the per-rank HTML\n"
          "timeline, JSON ranks.list, all rows of the text\n"
          "rank table (past --summarize-ranks-above the\n"
          "reports show the top and bottom ranks, quantiles\n"
          "and a rank x time heatmap instead)",
          O.Out.AllRanks);
  CL.value("--summarize-ranks-above", "N",
           "summarize the ranks when there are more than N\n"
           "(default 256)",
           [&O](const std::string &V) {
             unsigned long N = 0;
             if (!parseCount(V, N))
               throw UsageError("--summarize-ranks-above needs a positive "
                                "number, not '" + V + "'");
             O.Out.SummarizeRanksAbove = N;
           });
  CL.value("--html", "FILE", "also write a self-contained HTML report",
           [&O](const std::string &V) { O.Html = V; });
  CL.value("--chrome-trace", "FILE",
           "also write Trace Event JSON for speedscope and\n"
           "chrome://tracing (FILE ending in .gz: gzip)",
           [&O](const std::string &V) { O.Chrome = V; });
  using FilterParser = bool (ChromeFilter::*)(const std::string &,
                                              std::string &);
  auto Filter = [&O](FilterParser Parse) {
    return [&O, Parse](const std::string &V) {
      O.Filtered = true;
      std::string Error;
      if (!(O.Filter.*Parse)(V, Error))
        throw UsageError(Error);
    };
  };
  CL.value("--ranks", "LIST", "chrome trace: only these ranks, e.g. 0,4-7",
           Filter(&ChromeFilter::parseRanks));
  CL.value("--window", "A:B",
           "chrome trace: only spans overlapping A..B seconds\n"
           "after the first event (A: or :B leave one end open)",
           Filter(&ChromeFilter::parseWindow));
  CL.value("--layers", "LIST",
           "chrome trace: only these layers, e.g. APP,MPIIO",
           Filter(&ChromeFilter::parseLayers));
  CL.value("--top", "N", "rows of the top-N tables (default 10)",
           [&O](const std::string &V) {
             unsigned long N = 0;
             if (!parseCount(V, N))
               throw UsageError("--top needs a positive number, not '" + V +
                                "'");
             O.Out.Top = N;
           });
  CL.value("--time-unit", "U",
           "ts and dur of traces that do not record their\n"
           "unit are in U: us (default), ns, ms or sec",
           [&O](const std::string &V) {
             O.Unit = dftrace::parseTimeUnit(V);
             if (O.Unit == dftrace::TimeUnit::Unknown)
               throw UsageError("--time-unit must be us, ns, ms or sec, not '" +
                                V + "'");
             O.UnitGiven = true;
           });
  CL.flag("--suggest-filter",
          "print, instead of the report, an annotate\n"
          "--filter-file excluding the functions that were\n"
          "throttled or cost more to trace than they did work",
          O.Suggest);
  CL.value("--suggest-config", "FILE",
           "its thresholds (default: the installed\n"
           "dftracer-analyze-suggest.json)",
           [&O](const std::string &V) { O.SuggestConfigPath = V; });
  CL.flag("--strict",
          "exit 1 when the input has any problem (truncated\n"
          "or invalid lines, unknown categories, fhash without\n"
          "FH, negative times or sizes, missing parents)",
          O.Strict);
  CL.flag("--diagnose",
          "print only the findings (what is wrong, where, what\n"
          "it costs, what to change; docs/diagnosis.md);\n"
          "the text, JSON and HTML reports start with them",
          O.DiagnoseOnly);
  CL.flag("--no-diagnose",
          "leave the findings out (and skip their bookkeeping)",
          O.NoDiagnose);
  CL.value("--diagnosis-rules", "FILE",
           "the rules (default: the installed\n"
           "dftracer-analyze-diagnosis.json)",
           [&O](const std::string &V) { O.RulesPath = V; });
  CL.value("--ledger", "FILE",
           "with the findings: what dftracer-tune's ledger\n"
           "FILE knows about each advice's try settings for\n"
           "this program and file system (docs/diagnosis.md)",
           [&O](const std::string &V) { O.LedgerPath = V; });
  CL.value("--compare", "BASE",
           "compare the baseline run BASE (a directory or\n"
           "file; repeat for replicates) with the run given\n"
           "as TRACE...: per layer, operation, file and\n"
           "function, and per finding fixed, improved,\n"
           "unchanged, regressed or new; and a verdict on\n"
           "the run (--metric): faster, slower, no detectable\n"
           "change or cannot decide, from the replicates\n"
           "(docs/tuning.md). N runs a side: --compare B1\n"
           "... --compare BN --replicates C1 ... CN",
           [&O](const std::string &V) { O.Compare.push_back(V); });
  CL.flag("--replicates", "with --compare: each TRACE is one changed run",
          O.Replicates);
  CL.value("--metric", "M",
           "with --compare: the run metric of the verdict:\n"
           "io (default: the slowest rank's I/O time), wall\n"
           "(the longest process's time), bandwidth (bytes\n"
           "per second at the files) or function:NAME (the\n"
           "time of one annotated function, a phase)",
           [&O](const std::string &V) {
             std::string Error;
             if (!parseRunMetric(V, O.Metric, Error))
               throw UsageError(Error);
             O.MetricGiven = true;
           });
  CL.flag("--force",
          "with --compare: compare runs that differ in\n"
          "programs, rank count or files",
          O.Force);
  CL.helpFlag("-h,--help", "this text");
  CL.positionals("TRACE",
                 "a trace (.pfw, .pfw.gz, .pfc) or a directory of them",
                 O.Traces);
}

/// Returns -1 to go on, else the exit code.
int parseArgs(int Argc, char **Argv, Options &O) {
  dfttools::CommandLine::Grammar G;
  G.Unknown = [](const std::string &A) {
    return "unknown option '" + A + "' (or it needs a value)";
  };
  dfttools::CommandLine CL("dftracer-analyze", UsageLines, Description,
                           Footer, G);
  defineOptions(CL, O);
  int Code = CL.parse(Argc, Argv);
  if (Code >= 0)
    return Code;
  if (O.Traces.empty())
    return CL.usageError("no trace file given");
  if (!O.SuggestConfigPath.empty() && !O.Suggest)
    return CL.usageError("--suggest-config needs --suggest-filter");
  if ((O.Replicates || O.Force) && O.Compare.empty())
    return CL.usageError("--replicates and --force need --compare BASE");
  if (O.MetricGiven && O.Compare.empty())
    return CL.usageError("--metric needs --compare BASE");
  if (!O.Compare.empty() &&
      (O.Suggest || !O.Chrome.empty() || O.DiagnoseOnly))
    return CL.usageError("--compare prints a comparison: not with "
                         "--suggest-filter, --chrome-trace or --diagnose");
  if (O.DiagnoseOnly && O.NoDiagnose)
    return CL.usageError("--diagnose and --no-diagnose exclude each other");
  if (!O.RulesPath.empty() && O.NoDiagnose)
    return CL.usageError("--diagnosis-rules with --no-diagnose: nothing to "
                         "apply them to");
  if (!O.LedgerPath.empty() &&
      (O.NoDiagnose || O.Suggest || !O.Compare.empty()))
    return CL.usageError("--ledger adds to the findings: not with "
                         "--no-diagnose, --suggest-filter or --compare");
#ifndef DFT_HAVE_LEDGER
  if (!O.LedgerPath.empty())
    return CL.usageError("--ledger: this dftracer-analyze was built without "
                         "SQLite (libsqlite3-dev), so it cannot read a "
                         "ledger");
#endif
  if (O.Filtered && O.Chrome.empty())
    return CL.usageError("--ranks, --window and --layers filter "
                         "--chrome-trace, which is not given");
  return -1;
}

/// The trials of the ledger at Path, for addLedgerTrials; false with Error
/// when it cannot be read.
bool readLedger(const std::string &Path, std::vector<LedgerTrial> &Out,
                std::string &Error) {
#ifdef DFT_HAVE_LEDGER
  std::unique_ptr<dfttune::Ledger> L =
      dfttune::Ledger::openToRead(Path, Error);
  if (!L)
    return false;
  std::vector<dfttune::TrialRow> Rows = L->trials("", Error);
  if (!Error.empty())
    return false;
  for (const dfttune::TrialRow &R : Rows) {
    LedgerTrial T;
    T.Id = R.Id;
    T.Date = R.Date;
    T.Program = R.Program;
    T.Ranks = R.Ranks;
    T.FsTypes = R.FsTypes;
    T.Setting = R.Setting;
    T.Metric = R.Metric;
    T.Status = R.Status;
    T.HasStats = R.HasStats;
    T.ChangePercent = R.ChangePercent;
    T.P = R.P;
    if (!R.Failures.empty()) {
      const dfttune::FailureRow &F = R.Failures.front();
      T.Failure = F.Kind == "signal" ? "signal " + std::to_string(F.Signal)
                  : F.Kind == "exit" ? "exit " + std::to_string(F.ExitStatus)
                                     : F.Kind;
      T.Failure += " in round " + std::to_string(F.Round);
    }
    Out.push_back(std::move(T));
  }
  return true;
#else
  (void)Out;
  Error = Path + ": built without SQLite";
  return false;
#endif
}

/// Writes Text to Path through Path.tmp and a rename.
bool writeFileAtomically(const std::string &Path, const std::string &Text,
                         std::string &Error) {
  std::string Tmp = Path + ".tmp";
  {
    std::ofstream Out(Tmp, std::ios::binary);
    Out << Text;
    Out.close();
    if (!Out) {
      Error = Path + ": cannot write: " + std::strerror(errno);
      std::remove(Tmp.c_str());
      return false;
    }
  }
  if (std::rename(Tmp.c_str(), Path.c_str()) != 0) {
    Error = Path + ": cannot write: " + std::strerror(errno);
    std::remove(Tmp.c_str());
    return false;
  }
  return true;
}

/// One run's aggregate over every process of the job (all ranks call it).
Aggregate analyzeRun(const MpiWorld &World, const std::vector<std::string> &Args,
                     unsigned Jobs, const AnalyzeOptions &AO,
                     std::vector<std::string> &ArgErrors) {
  std::vector<std::string> Files = dftrace::expandTraceArguments(Args, ArgErrors);
  std::vector<uint32_t> Mine =
      mpiShare(World, mpiLargestFirst(World, Files, Jobs));
  Aggregate A = analyzeFiles(Files, Mine, Jobs, AO);
  mpiGather(World, A);
  if (World.Rank == 0) {
    A.FileNames = Files;
    A.finish(Jobs);
  }
  return A;
}

/// --compare: exit 0 when compared; 1 when a trace could not be read or the
/// runs are not comparable (without --force) or an output not written.
int compareMain(const MpiWorld &World, const Options &O,
                const DiagnosisRules &Rules, bool Diagnosing, unsigned Jobs,
                const AnalyzeOptions &AO) {
  bool Root = World.Rank == 0;
  std::vector<std::string> ArgErrors;
  std::vector<RunFacts> Sides[2];
  std::vector<std::vector<std::string>> Runs[2];
  for (const std::string &B : O.Compare)
    Runs[0].push_back({B});
  if (O.Replicates)
    for (const std::string &T : O.Traces)
      Runs[1].push_back({T});
  else
    Runs[1].push_back(O.Traces);
  bool Unreadable = false;
  for (int I = 0; I < 2; ++I)
    for (const std::vector<std::string> &Run : Runs[I]) {
      Aggregate A = analyzeRun(World, Run, Jobs, AO, ArgErrors);
      if (!Root)
        continue;
      Unreadable |= A.FilesUnreadable != 0 || A.FileNames.empty();
      Report R(A);
      std::string Name;
      for (const std::string &P : Run)
        Name += (Name.empty() ? "" : " ") + P;
      Sides[I].push_back(runFacts(
          Name, R, Diagnosing ? diagnose(R, Rules) : std::vector<Finding>()));
    }
  int Status = 0;
  if (Root) {
    for (const std::string &E : ArgErrors)
      std::cerr << "dftracer-analyze: error: " << E << "\n";
    if (!ArgErrors.empty() || Unreadable)
      Status = 1;
    Comparison C =
        compareRuns(Sides[0], Sides[1], Rules.CompareTolerance, O.Metric);
    if (O.Json)
      std::cout << jsonText({{"schema", JsonSchema},
                             {"tool", "dftracer-analyze"},
                             {"compare", comparisonJson(C, O.Force)}},
                            2)
                << "\n";
    else
      printComparisonText(std::cout, C, O.Force);
    std::string Error;
    if (!O.Html.empty()) {
      std::ostringstream Page;
      printComparisonHtml(Page, C, O.Force);
      if (!writeFileAtomically(O.Html, Page.str(), Error)) {
        std::cerr << "dftracer-analyze: " << Error << "\n";
        Status = 1;
      }
    }
    if (!C.Comparable && !O.Force) {
      std::cerr << "dftracer-analyze: the runs are not comparable (see "
                   "\"differs\"); --force compares anyway\n";
      Status = 1;
    }
  }
  return mpiBroadcast(World, Status);
}

} // namespace

int main(int Argc, char **Argv) {
  std::string Error;
  MpiWorld World = mpiStart(Argc, Argv, Error);
  if (!Error.empty()) {
    std::cerr << "dftracer-analyze: " << Error << "\n";
    return 1;
  }
  if (launchedByMpi() && !mpiAvailable() && World.Rank == 0)
    std::cerr << "dftracer-analyze: warning: started by an MPI launcher but "
                 "built without MPI; each process analyses every file\n";
  Options O;
  int Code = parseArgs(Argc, Argv, O);
  if (Code >= 0) {
    mpiStop(World);
    return Code;
  }
  bool Root = World.Rank == 0;
  SuggestConfig Suggest;
  if (O.Suggest) {
    if (O.SuggestConfigPath.empty())
      O.SuggestConfigPath = defaultSuggestConfig();
    if (O.SuggestConfigPath.empty())
      Error = "--suggest-filter: no thresholds file (dftracer-analyze-suggest."
              "json next to the binary or in share/dftracer); give "
              "--suggest-config FILE";
    else
      loadSuggestConfig(O.SuggestConfigPath, Suggest, Error);
    if (!Error.empty()) {
      if (Root)
        std::cerr << "dftracer-analyze: " << Error << "\n";
      mpiStop(World);
      return 2;
    }
  }

  DiagnosisRules Rules;
  bool Diagnosing = !O.NoDiagnose && !O.Suggest;
  if (Diagnosing) {
    if (O.RulesPath.empty())
      O.RulesPath = defaultDiagnosisRules();
    if (O.RulesPath.empty())
      Error = "no diagnosis rules (dftracer-analyze-diagnosis.json next to "
              "the binary or in share/dftracer): give --diagnosis-rules FILE "
              "or --no-diagnose";
    else
      loadDiagnosisRules(O.RulesPath, Rules, Error);
    if (!Error.empty()) {
      if (Root)
        std::cerr << "dftracer-analyze: " << Error << "\n";
      mpiStop(World);
      return 2;
    }
  }

  std::vector<LedgerTrial> LedgerTrials; // read by rank 0, which reports
  int LedgerStatus = 0;
  if (!O.LedgerPath.empty() && Root &&
      !readLedger(O.LedgerPath, LedgerTrials, Error)) {
    std::cerr << "dftracer-analyze: " << Error << "\n";
    LedgerStatus = 1;
  }
  if (mpiBroadcast(World, LedgerStatus)) {
    mpiStop(World);
    return 1;
  }

  if (!O.Compare.empty()) {
    unsigned CJobs = O.Jobs ? O.Jobs
                            : std::max(1u, std::thread::hardware_concurrency() /
                                               static_cast<unsigned>(World.LocalSize));
    AnalyzeOptions CO;
    CO.Unit = O.Unit;
    CO.UnitGiven = O.UnitGiven;
    CO.Sites = Diagnosing;
    CO.SmallBytes = Rules.SmallBytes;
    int Status = compareMain(World, O, Rules, Diagnosing, CJobs, CO);
    mpiStop(World);
    return Status;
  }

  std::vector<std::string> ArgErrors;
  std::vector<std::string> Files =
      dftrace::expandTraceArguments(O.Traces, ArgErrors);
  unsigned Jobs = O.Jobs;
  if (!Jobs)
    Jobs = std::max(1u, std::thread::hardware_concurrency() /
                            static_cast<unsigned>(World.LocalSize));
  std::vector<uint32_t> Mine =
      mpiShare(World, mpiLargestFirst(World, Files, Jobs));

  AnalyzeOptions AO;
  AO.Timeline = !O.Html.empty();
  AO.Unit = O.Unit;
  AO.UnitGiven = O.UnitGiven;
  AO.Sites = Diagnosing;
  AO.SmallBytes = Rules.SmallBytes;
  Aggregate A = analyzeFiles(Files, Mine, Jobs, AO);
  mpiGather(World, A);

  // The Chrome trace is a second pass: it needs the ranks' numbers.
  ChromePlan Plan;
  if (Root) {
    // Moved when --chrome, the one reader of Files below, is not asked:
    // copying 100,000 paths took 19 ms after the workers (issue 41).
    if (O.Chrome.empty())
      A.FileNames = std::move(Files);
    else
      A.FileNames = Files;
    A.finish(Jobs);
  }
  int Status = 0;
  if (!O.Chrome.empty()) {
    if (Root) {
      Report R(A);
      Plan = ChromePlan::make(R, O.Filter);
    }
    if (World.Active && World.Size > 1) { // rank 0 sends the plan
      Writer W;
      if (Root)
        visit(W, Plan);
      mpiBroadcastBytes(World, W.Bytes);
      if (!Root) {
        Reader In(W.Bytes.data(), W.Bytes.size());
        visit(In, Plan);
      }
    }
    std::string PartError;
    std::mutex ErrorLock;
    forEachFile(Mine, Jobs, [&](uint32_t I, unsigned) {
      std::string E;
      if (!writeChromePart(Files, I, Plan, O.Chrome, E)) {
        std::lock_guard<std::mutex> Lock(ErrorLock);
        PartError = E;
      }
    });
    if (!PartError.empty()) {
      std::cerr << "dftracer-analyze: " << PartError << "\n";
      Status = 1;
    }
    // Join only when every rank wrote every part of its files.
    bool PartsOk = mpiAll(World, PartError.empty());
    if (Root && !PartsOk) {
      removeChromeParts(Files.size(), O.Chrome);
      Status = 1;
    } else if (Root && !joinChromeParts(Files.size(), O.Chrome, Error)) {
      std::cerr << "dftracer-analyze: " << Error << "\n";
      Status = 1;
    }
  }

  if (Root) {
    for (const std::string &E : ArgErrors) {
      std::cerr << "dftracer-analyze: error: " << E << "\n";
      Status = 1;
    }
    Report R(A);
    std::vector<Finding> Findings;
    if (Diagnosing) {
      Findings = diagnose(R, Rules);
      if (!O.LedgerPath.empty())
        addLedgerTrials(Findings, R, LedgerTrials);
      O.Out.Findings = &Findings;
      O.Out.RulesPath = O.RulesPath;
    }
    if (O.Suggest)
      printSuggestedFilter(std::cout, R, Suggest, O.SuggestConfigPath);
    else if (O.DiagnoseOnly && O.Json)
      std::cout << jsonText({{"schema", JsonSchema},
                             {"tool", "dftracer-analyze"},
                             {"findings", findingsJson(Findings)}},
                            2)
                << "\n";
    else if (O.DiagnoseOnly)
      printFindingsText(std::cout, Findings, O.RulesPath);
    else if (O.Json)
      std::cout << jsonText(reportJson(R, O.Out), 2) << "\n";
    else
      printText(std::cout, R, O.Out);
    if (!O.Html.empty()) {
      std::ostringstream Page;
      printHtml(Page, R, O.Out);
      if (!writeFileAtomically(O.Html, Page.str(), Error)) {
        std::cerr << "dftracer-analyze: " << Error << "\n";
        Status = 1;
      }
    }
    if (A.FilesUnreadable)
      Status = 1;
    if (O.Strict && A.issueTotal()) {
      std::cerr << "dftracer-analyze: " << A.issueTotal()
                << " problems in the input (--strict)\n";
      Status = 1;
    }
  }
  Status = mpiBroadcast(World, Status);
  mpiStop(World);
  // exit, not return: the aggregate is not taken apart piece by piece, a
  // free per rank's tables (a quarter of the time after the report at
  // 100,000 ranks, issue 41); the system takes the memory back at once.
  std::cout.flush();
  std::exit(Status);
}
