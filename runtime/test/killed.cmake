# A process killed by SIGKILL leaves a trace without its trace_end record;
# dftracer-check and dftracer-analyze must both call it unfinished, and a
# process that exits must not be (issue 37; docs/trace-format.md "The end of
# a trace"). Killed after a quiet interval longer than the writer's
# DFTRACER_FLUSH_INTERVAL_MS, it keeps every event (docs/runtime.md,
# "Signals").
#   cmake -DPROGRAM=<dft_killed> -DPRELOAD=<libdftracer_preload.so>
#         -DCHECKER=<dftracer-check> -DANALYZE=<dftracer-analyze>
#         -DWORK=<dir> -P killed.cmake
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "runtime.killed: ${_m}")
endfunction()

foreach(_mode kill wait-kill exit)
  set(_w ${WORK}/${_mode})
  file(REMOVE_RECURSE ${_w})
  file(MAKE_DIRECTORY ${_w})
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1 LD_PRELOAD=${PRELOAD}
      DFTRACER_LOG_FILE=${_w}/trace DFTRACER_DATA_DIR=${_w}
      ${PROGRAM} ${_w} ${_mode}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(_mode STREQUAL "exit" AND NOT _rc EQUAL 0)
    fail("exit: the program failed (${_rc}): ${_err}")
  endif()
  if(NOT _mode STREQUAL "exit" AND _rc EQUAL 0)
    fail("${_mode}: the program was not killed")
  endif()
  file(GLOB _traces ${_w}/trace-*.pfw)
  list(LENGTH _traces _n)
  if(NOT _n EQUAL 1)
    fail("${_mode}: expected one trace file, found ${_n}: ${_traces}")
  endif()
  execute_process(COMMAND ${CHECKER} ${_traces}
    RESULT_VARIABLE _crc OUTPUT_VARIABLE _check ERROR_VARIABLE _cerr)
  execute_process(COMMAND ${ANALYZE} ${_traces}
    RESULT_VARIABLE _arc OUTPUT_VARIABLE _text ERROR_VARIABLE _aerr)
  execute_process(COMMAND ${ANALYZE} --json ${_traces}
    RESULT_VARIABLE _jrc OUTPUT_VARIABLE _json ERROR_VARIABLE _jerr)
  if(NOT _arc EQUAL 0 OR NOT _jrc EQUAL 0)
    fail("${_mode}: dftracer-analyze failed: ${_aerr}${_jerr}")
  endif()
  string(JSON _stopped GET "${_json}" trace_stopped)
  if(NOT _mode STREQUAL "exit")
    # The events before the kill are kept (as many as had reached the
    # file), and nothing is reported broken: an unfinished trace is a
    # caveat, not an invalid one.
    if(NOT _crc EQUAL 0)
      fail("${_mode}: dftracer-check failed (${_crc}):\n${_check}${_cerr}")
    endif()
    if(NOT _check MATCHES "trace unfinished: pid [0-9]+ of [^\n]*killed\\?")
      fail("${_mode}: dftracer-check does not say unfinished:\n${_check}")
    endif()
    if(NOT _text MATCHES "trace unfinished: pid [0-9]+: the trace ends at")
      fail("${_mode}: dftracer-analyze does not say unfinished:\n${_text}")
    endif()
    string(JSON _reason ERROR_VARIABLE _e GET "${_stopped}" 0 reason)
    if(NOT _reason STREQUAL "unfinished")
      fail("${_mode}: --json trace_stopped is ${_stopped}")
    endif()
    if(NOT _json MATCHES "\"write\"")
      fail("${_mode}: no write event survived")
    endif()
    if(_mode STREQUAL "wait-kill")
      # The timed hand-over: after a quiet interval every finished event is
      # in the file, the last buffer's too.
      string(JSON _writes GET "${_json}" layers POSIX operations write ops)
      if(NOT _writes EQUAL 30000)
        fail("wait-kill: ${_writes} of the 30000 writes are in the trace")
      endif()
    endif()
  else()
    if(_check MATCHES "unfinished" OR _text MATCHES "unfinished" OR
       NOT _stopped STREQUAL "[]")
      fail("exit: a finished trace is called unfinished:\n${_check}\n${_text}")
    endif()
  endif()
  message("ok   ${_mode}")
endforeach()
