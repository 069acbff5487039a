# The sources of dftracer_analyze_lib, relative to this directory: every
# file of analyze/, diagnose/ and report/ (the commands' mains are in
# tools/). Included by CMakeLists.txt here and by the fuzz project, which
# builds them with clang-19's sanitizers: one list, so a new file cannot be
# missing from one.
set(DFT_ANALYZE_LIB_SOURCES
  analyze/AccessPattern.cpp
  analyze/Aggregate.cpp
  analyze/Analysis.cpp
  analyze/CallSites.cpp
  analyze/Caveats.cpp
  analyze/Configuration.cpp
  analyze/FileAnalyzer.cpp
  analyze/IntervalUnion.cpp
  analyze/Mpi.cpp
  analyze/Report.cpp
  analyze/Timeline.cpp
  diagnose/Compare.cpp
  diagnose/Diagnose.cpp
  diagnose/DiagnoseAccess.cpp
  diagnose/DiagnoseAdvice.cpp
  diagnose/DiagnoseCalls.cpp
  diagnose/DiagnoseLedger.cpp
  diagnose/DiagnoseRanks.cpp
  diagnose/DiagnoseRules.cpp
  diagnose/JsonFile.cpp
  diagnose/SuggestFilter.cpp
  report/ChromeTrace.cpp
  report/CompareOutput.cpp
  report/ConfigurationOutput.cpp
  report/DiagnoseOutput.cpp
  report/HtmlEscape.cpp
  report/HtmlHeatmap.cpp
  report/HtmlReport.cpp
  report/JsonReport.cpp
  report/TextReport.cpp
)
