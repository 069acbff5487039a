# dftracer-check's memory follows the open spans, not the set nor a file
# (issue 21): spans are checked and summarised as they are read
# (Nesting.h), so
#  - a set of 20 files peaks (GNU time's maximum resident set) about where a
#    set of 2 files of the same shape does, and
#  - one file of 400,000 spans peaks about where one of 40,000 does,
# and every set is read in full (its spans counted, as the generator wrote
# them). Before, each file's spans were held until the file ended: about
# 10x the memory for a file 10x larger (135 MB against 19 MB).
#   cmake -DGEN=<dftracer_trace_gen> -DCHECK=<dftracer-check> -DWORK=<dir>
#         -DTIME=</usr/bin/time> -P memory_bound.cmake
file(REMOVE_RECURSE ${WORK})

# measure(<out-var> <files> <spans per file>): the peak RSS in KiB.
function(measure out files spans)
  set(_name set${files}x${spans})
  set(_dir ${WORK}/${_name})
  execute_process(COMMAND ${GEN} generate --dir ${_dir} --files ${files}
      --spans ${spans} --seed 21 --expected ${WORK}/${_name}.json
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "dftracer_trace_gen failed: ${_err}")
  endif()
  execute_process(COMMAND ${TIME} -f "maxrss_kb=%M" ${CHECK} --json ${_dir}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _err MATCHES "maxrss_kb=([0-9]+)")
    message(FATAL_ERROR "no maximum resident set from ${TIME}: ${_err}")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
  # Every span was read and checked: the report holds them all.
  file(READ ${WORK}/${_name}.json _want)
  string(JSON _want_spans GET "${_want}" spans)
  string(JSON _np LENGTH "${_out}" processes)
  set(_spans 0)
  math(EXPR _last "${_np} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _s GET "${_out}" processes ${_i} spans)
    math(EXPR _spans "${_spans} + ${_s}")
  endforeach()
  if(NOT _spans EQUAL _want_spans)
    message(FATAL_ERROR "${_name}: dftracer-check counted ${_spans} spans, the generator wrote ${_want_spans}")
  endif()
  string(JSON _nfiles LENGTH "${_out}" files)
  if(NOT _nfiles EQUAL files)
    message(FATAL_ERROR "${_name}: dftracer-check read ${_nfiles} files")
  endif()
  file(REMOVE_RECURSE ${_dir})
endfunction()

# 10x the spans: at most 1.5x the memory (plus 8 MB for the report of 10x
# the processes), where holding every span takes 10x.
function(bounded what small large)
  math(EXPR _bound "${small} * 3 / 2 + 8192")
  message(STATUS "max RSS, ${what}: ${small} KiB against ${large} KiB at 10x (bound ${_bound} KiB)")
  if(large GREATER _bound)
    message(FATAL_ERROR "dftracer-check's memory grows with ${what}: ${large} KiB at 10x against ${small} KiB")
  endif()
endfunction()

measure(_two 2 40000)
measure(_twenty 20 40000)
bounded("the number of files" ${_two} ${_twenty})
measure(_one 1 40000)
measure(_long 1 400000)
bounded("the length of a file" ${_one} ${_long})
