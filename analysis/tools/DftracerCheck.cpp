//===- DftracerCheck.cpp - dftracer-check: options and main ---------------===//
//
//   dftracer-check [--expect-counts FILE.json] [--json] [--time-unit U] TRACE...
//
// TRACE is a .pfw, .pfw.gz or compact .pfc file, or a directory whose
// trace files are all read. Exit 0: every trace is valid (and counts
// match); 1: a trace is invalid, unreadable, or counts differ; 2: usage
// error.
//
//===----------------------------------------------------------------------===//

#include "check/ExpectCounts.h"
#include "check/Summary.h"
#include "check/TraceReader.h"
#include "reader/TraceScanner.h"

#include "CommandLine.h"

#include <iostream>
#include <map>
#include <string>
#include <vector>

using namespace dftcheck;

namespace {

const char UsageLines[] =
    "usage: dftracer-check [--expect-counts FILE.json] [--json] "
    "[--time-unit U] TRACE...\n";

const char Description[] =
    "Validate DFTracer traces (.pfw, .pfw.gz, .pfc: each line, span nesting\n"
    "per thread, non-negative durations) and print calls, total and self\n"
    "time per function and totals per process. TRACE may be a directory.";

const char Footer[] =
    "exit status: 0 valid, 1 invalid trace or count mismatch, 2 usage error";

constexpr size_t MaxProblemsShown = 50;

std::string location(const TraceSet &Set, const Problem &P) {
  std::string Where = Set.Files[P.FileIndex];
  if (P.Line)
    Where += ":" + std::to_string(P.Line);
  return Where;
}

} // namespace

int main(int Argc, char **Argv) {
  std::string CountsPath;
  bool Json = false;
  dftrace::TimeUnit Unit = dftrace::TimeUnit::Us;
  bool UnitGiven = false;
  std::vector<std::string> Args;

  // The options (CommandLine.h: CLI11, with the spellings of before).
  dfttools::CommandLine::Grammar G;
  G.Unknown = [](const std::string &A) {
    return "unknown option '" + A + "'";
  };
  dfttools::CommandLine CL("dftracer-check", UsageLines, Description, Footer,
                           G);
  dfttools::CommandLine::ValueForm Counts;
  Counts.Missing = "--expect-counts needs a FILE.json argument";
  CL.value("--expect-counts", "FILE",
           "JSON object {\"function\": calls}; fail when the\n"
           "calls summed over all traces differ",
           [&](const std::string &V) { CountsPath = V; }, Counts);
  CL.flag("--json", "print the report as JSON on stdout", Json);
  dfttools::CommandLine::ValueForm TimeUnit;
  TimeUnit.Missing = "--time-unit needs a unit (us, ns, ms, sec)";
  CL.value("--time-unit", "U",
           "ts and dur of traces that do not record their\n"
           "unit are in U: us (default), ns, ms or sec",
           [&](const std::string &V) {
             Unit = dftrace::parseTimeUnit(V);
             if (Unit == dftrace::TimeUnit::Unknown)
               throw dfttools::UsageError(
                   "--time-unit must be us, ns, ms or sec, not '" + V + "'");
             UnitGiven = true;
           },
           TimeUnit);
  CL.helpFlag("-h,--help", "this text");
  CL.positionals("TRACE",
                 "a trace (.pfw, .pfw.gz, .pfc) or a directory of them",
                 Args);
  int Code = CL.parse(Argc, Argv);
  if (Code >= 0)
    return Code;
  if (Args.empty())
    return CL.usageError("no trace file given");

  std::map<std::string, uint64_t> Expected;
  if (!CountsPath.empty()) {
    std::string Error;
    if (!loadExpectedCounts(CountsPath, Expected, Error))
      return CL.usageError(Error);
  }

  // File by file, span by span: spans nest within a (file, pid, tid) and
  // are written when they end, so each is checked and summarised as it is
  // read (Nesting.h), and memory follows the spans still open, not the
  // length of a file or of the set.
  TraceSet Set;
  Summary Sum;
  std::vector<std::string> ArgErrors;
  for (const std::string &File :
       dftrace::expandTraceArguments(Args, ArgErrors)) {
    mergeSummary(Sum, readTraceFile(File, Set, Unit, UnitGiven));
    nameRecordRanks(Set);
    Set.Meta = {};
  }
  std::vector<CountMismatch> Mismatches;
  if (!CountsPath.empty())
    Mismatches = compareCounts(Expected, callCounts(Sum));

  for (const std::string &E : ArgErrors)
    std::cerr << "dftracer-check: error: " << E << "\n";
  for (size_t I = 0; I < Set.Problems.size() && I < MaxProblemsShown; ++I)
    std::cerr << location(Set, Set.Problems[I])
              << ": error: " << Set.Problems[I].Message << "\n";
  if (Set.Problems.size() > MaxProblemsShown)
    std::cerr << "dftracer-check: ... and "
              << Set.Problems.size() - MaxProblemsShown << " more problems\n";
  if (!Mismatches.empty())
    printCountDiff(std::cerr, CountsPath, Mismatches);
  for (const Problem &C : Set.Caveats)
    std::cerr << location(Set, C) << ": caveat: " << C.Message << "\n";

  bool Valid = Set.Problems.empty() && ArgErrors.empty();
  if (Json) {
    nlohmann::json Report = recordsToJson(Set);
    Report.update(summaryToJson(Sum));
    nlohmann::json Problems = nlohmann::json::array();
    for (const Problem &P : Set.Problems)
      Problems.push_back({{"file", Set.Files[P.FileIndex]},
                          {"line", P.Line},
                          {"message", P.Message}});
    for (const std::string &E : ArgErrors)
      Problems.push_back({{"file", ""}, {"line", 0}, {"message", E}});
    Report["valid"] = Valid;
    Report["files"] = Set.Files;
    Report["events"] = Set.Events;
    Report["problems"] = Problems;
    nlohmann::json Caveats = nlohmann::json::array();
    for (const Problem &C : Set.Caveats)
      Caveats.push_back(
          {{"file", Set.Files[C.FileIndex]}, {"message", C.Message}});
    Report["caveats"] = Caveats;
    Report["tracer_spans"] = Set.TracerSpans;
    if (!CountsPath.empty()) {
      nlohmann::json Diff = nlohmann::json::array();
      for (const CountMismatch &M : Mismatches)
        Diff.push_back(
            {{"name", M.Name}, {"expected", M.Expected}, {"actual", M.Actual}});
      Report["expect_counts"] = {{"file", CountsPath},
                                 {"ok", Mismatches.empty()},
                                 {"mismatches", Diff}};
    }
    // Messages quote the bytes of bad lines and paths, which need not be
    // UTF-8: those bytes are written as U+FFFD instead of aborting.
    std::cout << Report.dump(2, ' ', false,
                             nlohmann::json::error_handler_t::replace)
              << "\n";
  } else {
    printRecords(std::cout, Set);
    printSummary(std::cout, Set, Sum);
    std::cout << "\n"
              << (Valid ? "trace is valid" : "trace is INVALID")
              << (CountsPath.empty()
                      ? ""
                      : (Mismatches.empty() ? "; call counts match"
                                            : "; call counts DIFFER"))
              << "\n";
  }
  return Valid && Mismatches.empty() ? 0 : 1;
}
