# runtime.io_descriptors_tools: io_descriptors.c traced (data dir data/),
# then dftracer-check and dftracer-analyze read its trace: valid, the new
# events known, and the `not traced:` lines by kind and directory.
#   cmake -DPROGRAM= -DPRELOAD= -DCHECK= -DANALYZE= -DWORK_DIR= -P ...
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
    DFTRACER_DATA_DIR=data DFTRACER_LOG_FILE=${WORK_DIR}/trace
    LD_PRELOAD=${PRELOAD} ${PROGRAM}
  WORKING_DIRECTORY ${WORK_DIR} RESULT_VARIABLE _rc ERROR_VARIABLE _err)
file(GLOB _traces ${WORK_DIR}/*.pfw)
if(NOT _rc EQUAL 0 OR NOT _traces)
  message(FATAL_ERROR "the probe failed (${_rc}) or left no trace:\n${_err}")
endif()
execute_process(COMMAND ${CHECK} ${_traces} RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _check ERROR_VARIABLE _check_err)
message("${_check}${_check_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check failed (${_rc})")
endif()
execute_process(COMMAND ${ANALYZE} ${_traces} RESULT_VARIABLE _rc
  OUTPUT_VARIABLE _analyze ERROR_VARIABLE _analyze_err)
message("${_analyze}${_analyze_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-analyze failed (${_rc})")
endif()
foreach(_line
    "not traced: pipe: 4 calls \\(0 opens, 2 reads, 2 writes\\), 16 bytes read, 16 bytes written, in 1 process \\(not a file: pipe descriptors are not traced\\)"
    "not traced: socket: 4 calls \\(0 opens, 2 reads, 2 writes\\), 23 bytes read, 23 bytes written"
    "not traced: memfd: 3 calls \\(1 opens, 1 reads, 1 writes\\), 77 bytes read, 77 bytes written"
    "not traced: anon: 2 calls \\(0 opens, 1 reads, 1 writes\\), 8 bytes read, 8 bytes written"
    "not traced: /tmp: 3 calls \\(1 opens, 1 reads, 1 writes\\), 300 bytes read, 300 bytes written, in 1 process \\(outside the traced directories")
  if(NOT "${_check}${_check_err}" MATCHES "${_line}")
    message(FATAL_ERROR "dftracer-check does not say: ${_line}")
  endif()
endforeach()
foreach(_word unknown Unknown)
  if("${_check}${_check_err}${_analyze}" MATCHES "${_word} (event|operation|name)")
    message(FATAL_ERROR "an event the tools do not know: ${_word}")
  endif()
endforeach()
