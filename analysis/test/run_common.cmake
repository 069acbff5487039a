# Helpers shared by the analyzer's test scripts (include()d).

# analysis_run(<out-var> <rc-var> COMMAND...): runs, captures stdout+stderr.
function(analysis_run out rc)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  set(${out} "${_out}${_err}" PARENT_SCOPE)
  set(${rc} ${_rc} PARENT_SCOPE)
endfunction()

function(analysis_fail)
  message(FATAL_ERROR ${ARGN})
endfunction()

# analysis_generate(<dir> FLAGS...): a fresh trace set from dftracer_trace_gen.
function(analysis_generate dir)
  file(REMOVE_RECURSE ${dir})
  file(MAKE_DIRECTORY ${dir})
  analysis_run(_out _rc ${GEN} generate --dir ${dir} ${ARGN})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer_trace_gen generate ${ARGN} failed: ${_out}")
  endif()
endfunction()

# analysis_same(<a> <b> <what>): the two files hold the same bytes.
function(analysis_same a b what)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${a} ${b}
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    analysis_fail("${what}: ${a} and ${b} differ")
  endif()
endfunction()
