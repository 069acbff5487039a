# dftracer-check's memory follows the largest file, not the set: a set of
# 20 files peaks (GNU time's maximum resident set) about where a set of 2
# files of the same shape does, and both are read in full (their spans
# counted, as the generator wrote them). Before, every span of every file
# was held until the end: about 10x the memory for 10x the files.
#   cmake -DGEN=<dftracer_trace_gen> -DCHECK=<dftracer-check> -DWORK=<dir>
#         -DTIME=</usr/bin/time> -P memory_bound.cmake
file(REMOVE_RECURSE ${WORK})
set(_rss)
foreach(_files 2 20)
  set(_dir ${WORK}/set${_files})
  execute_process(COMMAND ${GEN} generate --dir ${_dir} --files ${_files}
      --spans 40000 --seed 21 --expected ${WORK}/expected${_files}.json
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "dftracer_trace_gen failed: ${_err}")
  endif()
  execute_process(COMMAND ${TIME} -f "maxrss_kb=%M" ${CHECK} --json ${_dir}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _err MATCHES "maxrss_kb=([0-9]+)")
    message(FATAL_ERROR "no maximum resident set from ${TIME}: ${_err}")
  endif()
  list(APPEND _rss ${CMAKE_MATCH_1})
  # Every span was read and checked: the report holds them all.
  file(READ ${WORK}/expected${_files}.json _want)
  string(JSON _want_spans GET "${_want}" spans)
  string(JSON _np LENGTH "${_out}" processes)
  set(_spans 0)
  math(EXPR _last "${_np} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _s GET "${_out}" processes ${_i} spans)
    math(EXPR _spans "${_spans} + ${_s}")
  endforeach()
  if(NOT _spans EQUAL _want_spans)
    message(FATAL_ERROR "${_files} files: dftracer-check counted ${_spans} spans, the generator wrote ${_want_spans}")
  endif()
  string(JSON _nfiles LENGTH "${_out}" files)
  if(NOT _nfiles EQUAL _files)
    message(FATAL_ERROR "${_files} files: dftracer-check read ${_nfiles}")
  endif()
endforeach()
list(GET _rss 0 _small)
list(GET _rss 1 _large)
# 10x the spans in 10x the files: at most 1.5x the memory (plus 8 MB for
# the report of 10x the processes), where holding every span takes 10x.
math(EXPR _bound "${_small} * 3 / 2 + 8192")
message(STATUS "max RSS: 2 files ${_small} KiB, 20 files ${_large} KiB (bound ${_bound} KiB)")
if(_large GREATER _bound)
  message(FATAL_ERROR "dftracer-check's memory grows with the set: ${_large} KiB for 20 files against ${_small} KiB for 2")
endif()
