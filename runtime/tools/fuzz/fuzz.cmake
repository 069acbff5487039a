# Builds the fuzz target with clang-19 (-fsanitize=fuzzer,address,undefined)
# and runs it for SECONDS on a copy of the committed corpus.
#   cmake -DCLANG=<clang++-19> -DSOURCE=<runtime/tools/fuzz> -DWORK=<dir>
#         -DSECONDS=<n> -P fuzz.cmake
# The runtime's line format (C, for the compact reader) with the same clang.
string(REGEX REPLACE "\\+\\+" "" _clang_c "${CLANG}")
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE}/project -B ${WORK}/build
  -G Ninja -DCMAKE_CXX_COMPILER=${CLANG} -DCMAKE_C_COMPILER=${_clang_c}
  -DCMAKE_BUILD_TYPE=RelWithDebInfo
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "configuring the fuzz target failed:\n${_out}${_err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK}/build
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "building the fuzz target failed:\n${_out}${_err}")
endif()
file(REMOVE_RECURSE ${WORK}/corpus)
file(COPY ${SOURCE}/corpus/ DESTINATION ${WORK}/corpus)
execute_process(COMMAND ${WORK}/build/dftracer_trace_fuzz
  -max_total_time=${SECONDS} -timeout=10 -rss_limit_mb=2048 -max_len=65536
  -artifact_prefix=${WORK}/ ${WORK}/corpus
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
string(REGEX MATCH "#[0-9]+[^\n]*DONE[^\n]*" _done "${_err}")
message("${_done}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "the fuzzer found a failure (artifacts in ${WORK}):\n${_err}")
endif()
