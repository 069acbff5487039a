# Writes the HTML report of a generated trace set (several ranks, threads,
# problems in the input: the banner shows) for the browser test, and the
# report of ODD_NAMES (names and paths holding markup, "<!--<script>" and
# long names in a multi-byte script).
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
analysis_generate(${WORK}/traces --files 6 --spans 4000 --threads 2 --invalid)
# With the runtime's records (RECORDS): the #records banner and the
# throttled table are laid out in the browser too.
if(RECORDS)
  file(COPY ${RECORDS}/rank0.pfw ${RECORDS}/rank1.pfw DESTINATION ${WORK}/traces)
endif()
analysis_run(_out _rc ${ANALYZE} ${WORK}/traces --html ${WORK}/report.html)
if(NOT _rc EQUAL 0 OR NOT EXISTS ${WORK}/report.html)
  analysis_fail("dftracer-analyze --html failed (${_rc}): ${_out}")
endif()
analysis_run(_out _rc ${ANALYZE} ${ODD_NAMES} --html ${WORK}/odd_names.html)
if(NOT _rc EQUAL 0 OR NOT EXISTS ${WORK}/odd_names.html)
  analysis_fail("dftracer-analyze --html ${ODD_NAMES} failed (${_rc}): ${_out}")
endif()
