# run(COMMAND...): runs a command in a `cmake -P` script and fails with its
# output when it fails; its stdout is left in RUN_OUTPUT.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out
    ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(JOIN " " _cmd ${ARGN})
    message(FATAL_ERROR "failed (${_rc}): ${_cmd}\n${_out}\n${_err}")
  endif()
  set(RUN_OUTPUT "${_out}" PARENT_SCOPE)
endfunction()
