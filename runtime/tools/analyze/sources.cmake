# The sources of dftracer_analyze_lib, relative to this directory (every
# analyzer file but the tool's main, DftracerAnalyze.cpp). Included by
# CMakeLists.txt here and by the fuzz project, which builds them with
# clang-19's sanitizers: one list, so a new file cannot be missing from one.
set(DFT_ANALYZE_LIB_SOURCES
  AccessPattern.cpp
  Aggregate.cpp
  Analysis.cpp
  CallSites.cpp
  Caveats.cpp
  Compare.cpp
  CompareOutput.cpp
  Diagnose.cpp
  DiagnoseAccess.cpp
  DiagnoseAdvice.cpp
  DiagnoseCalls.cpp
  DiagnoseOutput.cpp
  DiagnoseRanks.cpp
  DiagnoseRules.cpp
  ChromeTrace.cpp
  FileAnalyzer.cpp
  HtmlReport.cpp
  IntervalUnion.cpp
  JsonFile.cpp
  JsonReport.cpp
  Mpi.cpp
  Report.cpp
  SuggestFilter.cpp
  TextReport.cpp
  Timeline.cpp
)
