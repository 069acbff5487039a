# Runs the fuzz target (built with the main build, see CMakeLists.txt here)
# for SECONDS on a copy of the committed corpus.
#   cmake -DFUZZER=<build>/analysis/fuzz/project/dftracer_trace_fuzz
#         -DSOURCE=<analysis/fuzz> -DWORK=<dir> -DSECONDS=<n> -P fuzz.cmake
if(NOT EXISTS ${FUZZER})
  message(FATAL_ERROR "${FUZZER} is missing: build the project first")
endif()
file(REMOVE_RECURSE ${WORK}/corpus)
file(COPY ${SOURCE}/corpus/ DESTINATION ${WORK}/corpus)
execute_process(COMMAND ${FUZZER}
  -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
  -artifact_prefix=${WORK}/ ${WORK}/corpus
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
string(REGEX MATCH "#[0-9]+[^\n]*DONE[^\n]*" _done "${_err}")
message("${_done}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a failure (artifacts in ${WORK}):\n${_err}")
endif()
