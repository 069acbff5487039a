# integration.cmake.run: the traced writer and reader run under mpiexec with
# 2 ranks, as the originals would, and their traces are valid with one span
# per call of every annotated function (legacy_sum, not annotated: none).
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK MPIEXEC CHECKER)

set(_data "${WORK}/data")
file(REMOVE_RECURSE "${_data}")
file(MAKE_DIRECTORY "${_data}")
int_mpirun(_w "${WORK}/traces/writer" "${WORK}/build/apps/writer" "${_data}")
int_expect_match("${_w_OUT}" "writer: 576 bytes" "writer output")
int_mpirun(_r "${WORK}/traces/reader" "${WORK}/build/apps/reader" "${_data}")
int_expect_match("${_r_OUT}" "reader 1.0: 576 bytes, ok, sum 24832" "reader output")

int_check_traces("${WORK}/traces/writer" "${CMAKE_CURRENT_LIST_DIR}/cmake_project/writer.counts.json")
int_check_traces("${WORK}/traces/reader" "${CMAKE_CURRENT_LIST_DIR}/cmake_project/reader.counts.json")
# META reached the trace.
file(GLOB _traces "${WORK}/traces/writer/trace-*.pfw")
foreach(_t IN LISTS _traces)
  file(READ "${_t}" _text)
  int_expect_match("${_text}" "\"name\":\"app\",\"value\":\"writer\"" "${_t}")
  int_expect_match("${_text}" "\"name\":\"suite\",\"value\":\"annotate integration\"" "${_t}")
endforeach()
