# Wrappers find the real function wherever the caller got it (issue 37,
# runtime/src/real_symbol.h). Runs COMMAND three times, each in its own
# directory with a data/ subdirectory, with the same arguments:
#   untraced; preloaded with DFTRACER_ENABLE=0; preloaded and traced.
# The second must be exactly the first (exit code, stdout, stderr); the
# third must succeed with the same stdout, and its one trace must hold the
# HDF5 events of EVENTS and a POSIX write, all on FILE (data/FILE), and
# pass dftracer-check.
#
# cmake -DWORK_DIR=<dir> -DPRELOAD=<libdftracer_preload.so>
#       -DCOMMAND=prog;arg... -DFILE=<name> -DEVENTS=H5Fcreate;H5Dwrite...
#       -DCHECKER=<dftracer-check> -P real_symbol.cmake
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

set(_clean --unset=DFTRACER_ENABLE --unset=DFTRACER_LOG_FILE
  --unset=DFTRACER_TRACE_COMPRESSION --unset=DFTRACER_INC_METADATA
  --unset=DFTRACER_DATA_DIR --unset=DFTRACER_DISABLE_IO
  --unset=DFTRACER_DISABLE_POSIX --unset=DFTRACER_DISABLE_STDIO
  --unset=DFTRACER_DISABLE_MPIIO --unset=DFTRACER_DISABLE_HDF5
  --unset=DFTRACER_THROTTLE --unset=DFTRACER_TRACE_FORMAT
  --unset=DFTRACER_TEST_BOTH_FORMATS --unset=DFTRACER_TUNE
  --unset=LD_PRELOAD --unset=PYTHONPATH)

file(REMOVE_RECURSE "${WORK_DIR}")
# run(<name> env...): COMMAND in WORK_DIR/<name>; sets <name>_rc/_out/_err.
function(run name)
  file(MAKE_DIRECTORY "${WORK_DIR}/${name}/data")
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${_clean} ${ARGN} ${COMMAND}
    WORKING_DIRECTORY "${WORK_DIR}/${name}"
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  set(${name}_rc "${_rc}" PARENT_SCOPE)
  set(${name}_out "${_out}" PARENT_SCOPE)
  set(${name}_err "${_err}" PARENT_SCOPE)
endfunction()

run(untraced)
if(NOT untraced_rc EQUAL 0)
  fail("the untraced run fails (${untraced_rc}): ${COMMAND}\n"
       "${untraced_out}\n${untraced_err}")
endif()

run(off LD_PRELOAD=${PRELOAD} DFTRACER_ENABLE=0)
if(NOT off_rc STREQUAL untraced_rc OR NOT off_out STREQUAL untraced_out
   OR NOT off_err STREQUAL untraced_err)
  fail("DFTRACER_ENABLE=0 is not transparent: exit ${off_rc} (untraced "
       "${untraced_rc})\nstdout:\n${off_out}\nuntraced stdout:\n"
       "${untraced_out}\nstderr:\n${off_err}\nuntraced stderr:\n"
       "${untraced_err}")
endif()

run(on LD_PRELOAD=${PRELOAD} DFTRACER_ENABLE=1
  DFTRACER_LOG_FILE=${WORK_DIR}/on/trace DFTRACER_DATA_DIR=data)
if(NOT on_rc EQUAL 0 OR NOT on_out STREQUAL untraced_out)
  fail("the traced run fails (${on_rc}) or prints otherwise:\n${on_out}\n"
       "stderr:\n${on_err}")
endif()
file(GLOB _traces "${WORK_DIR}/on/trace-*.pfw")
list(LENGTH _traces _n)
if(NOT _n EQUAL 1)
  fail("expected one trace file, found ${_n}: ${_traces}")
endif()
execute_process(COMMAND ${CHECKER} --json ${_traces}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _o ERROR_VARIABLE _e)
if(NOT _rc EQUAL 0)
  fail("dftracer-check rejects ${_traces} (${_rc}):\n${_e}\n${_o}")
endif()
file(READ ${_traces} _trace)
set(_path "${WORK_DIR}/on/data/${FILE}")
string(REGEX MATCH "\"name\":\"FH\"[^\n]*\"name\":\"${_path}\",\"value\":([0-9]+)"
  _fh "${_trace}")
if(NOT _fh)
  fail("no FH record for ${_path} in ${_traces}")
endif()
set(_hash "${CMAKE_MATCH_1}")
foreach(_event ${EVENTS})
  if(NOT _trace MATCHES
     "\"name\":\"${_event}\",\"cat\":\"HDF5\"[^\n]*\"fhash\":${_hash}[,}]")
    fail("no HDF5 ${_event} event on ${_path} in ${_traces}")
  endif()
endforeach()
if(NOT _trace MATCHES
   "\"name\":\"(write|pwrite|pwrite64)\",\"cat\":\"POSIX\"[^\n]*\"fhash\":${_hash}[,}]")
  fail("no POSIX write on ${_path} in ${_traces}")
endif()
if(_trace MATCHES "symbol_unresolved")
  fail("a real function was not found:\n${on_err}")
endif()
