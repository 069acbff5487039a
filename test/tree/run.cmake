# tree.verify.run: the annotated programs run as before, with tracing on,
# and their traces hold one span per call of every annotated function
# (dftracer-check --expect-counts app.counts.json).
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

set(_traces ${WORK}/traces)
file(REMOVE_RECURSE ${_traces})
file(MAKE_DIRECTORY ${_traces})
set(ENV{DFTRACER_ENABLE} 1)
set(ENV{DFTRACER_INC_METADATA} 0)

function(run_traced name)
  set(ENV{DFTRACER_LOG_FILE} ${_traces}/${name}/trace)
  file(MAKE_DIRECTORY ${_traces}/${name})
  execute_process(COMMAND ${WORK}/build-traced/${name} ${ARGN}
    WORKING_DIRECTORY ${WORK}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    tree_fail("${name} ${ARGN} exited with ${_rc}:\n${_out}${_err}")
  endif()
  file(GLOB _files ${_traces}/${name}/trace-*.pfw)
  if(NOT _files)
    tree_fail("${name} wrote no trace under ${_traces}/${name}")
  endif()
  message(STATUS "${name}: ${_out}")
  set(run_OUT "${_out}" PARENT_SCOPE)
endfunction()

run_traced(tree_app ${WORK}/records.txt 100)
if(NOT run_OUT STREQUAL "100 records, 790 bytes written; 100 records, 101 lines read\n")
  tree_fail("tree_app printed '${run_OUT}'")
endif()
execute_process(COMMAND ${CHECKER} --expect-counts
    ${CMAKE_CURRENT_LIST_DIR}/app.counts.json ${_traces}/tree_app
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  file(READ ${TREE_ROOT}/include/tree/common.h _header)
  tree_count(_starts "${_header}" "${TREE_START}")
  if(_starts EQUAL 0)
    set(_out "${_out}\n(common.h is not annotated: see tree.verify.header_kept)")
  endif()
  tree_fail("dftracer-check on tree_app's trace failed:\n${_out}")
endif()

run_traced(tree_buffer_selftest)
execute_process(COMMAND ${CHECKER} ${_traces}/tree_buffer_selftest
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  tree_fail("dftracer-check on tree_buffer_selftest's trace failed:\n${_out}")
endif()
