# The HTML report of a 10-million-event trace set (64 files, half I/O) in
# headless Chromium: the same checks as the browser test, and the seconds
# it took. Not run by default (-DDFTRACER_ANALYZE_LARGE_TESTS=ON, label
# `large`): it writes 1.7 GB and takes minutes.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
analysis_generate(${WORK}/traces --files 64 --spans 156250 --compute 4 --seed 42)
string(TIMESTAMP _t0 "%s")
analysis_run(_out _rc ${ANALYZE} ${WORK}/traces --html ${WORK}/report.html)
string(TIMESTAMP _t1 "%s")
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze --html failed (${_rc}): ${_out}")
endif()
math(EXPR _secs "${_t1} - ${_t0}")
file(SIZE ${WORK}/report.html _size)
message("analysed in ${_secs} s; report ${_size} bytes")
execute_process(COMMAND ${CMAKE_COMMAND} -DCHROMIUM=${CHROMIUM}
  -DUNSHARE=${UNSHARE} -DGEN=${GEN} -DHTML=${WORK}/report.html
  -DPNG=${WORK}/report.png -DWORK=${WORK}/browser
  -P ${CMAKE_CURRENT_LIST_DIR}/browser.cmake
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc EQUAL 0)
  analysis_fail("the browser check failed")
endif()
file(REMOVE_RECURSE ${WORK}/traces)
