# integration.h5bench_like.throttle: the hot one-liner is throttled and its
# totals stay exact. Needs the runtime's throttling (issue 20, branch
# i20-throttle): until it is merged this test fails, by design.
#
# The linked benchmark runs twice under `mpiexec -n 2`, throttled by
# default and with DFTRACER_THROTTLE=0. Per rank, the spans of
# uniform_random_number written plus the calls of its `throttled` record
# (docs/trace-format.md) equal the calls the program counted and printed;
# the record's `dur` is there; and the default run's traces are at most 5%
# of the unthrottled run's size.
include(${CMAKE_CURRENT_LIST_DIR}/h5bench_common.cmake)
int_require(WORK MPIEXEC ELEMENTS)

string(MD5 _tag "${WORK}")
string(SUBSTRING "${_tag}" 0 12 _tag)
set(_mpiexec "${MPIEXEC}")
int_split(_mpiexec)

# run(<mode> <env...>): traces in WORK/throttle-<mode>; sets _out and _size.
function(run mode)
  set(_data "/dev/shm/annotate-h5bench-${mode}-${_tag}")
  set(_traces "${WORK}/throttle-${mode}")
  file(REMOVE_RECURSE "${_data}" "${_traces}")
  file(MAKE_DIRECTORY "${_data}" "${_traces}")
  int_run(_r COMMAND "${CMAKE_COMMAND}" -E env --unset=DFTRACER_THROTTLE
    --unset=DFTRACER_THROTTLE_CALLS --unset=DFTRACER_THROTTLE_US --unset=DFTRACER_THROTTLE_MAX_SPANS
    DFTRACER_ENABLE=1 "DFTRACER_DATA_DIR=${_data}"
    "DFTRACER_LOG_FILE=${_traces}/trace" ${ARGN}
    ${_mpiexec} "${WORK}/build/h5write" "${_data}" ${ELEMENTS}
    WORKING_DIRECTORY "${_data}")
  file(REMOVE_RECURSE "${_data}")
  int_expect_success(_r "h5write (${mode})")
  file(GLOB _files "${_traces}/*.pfw")
  list(LENGTH _files _n)
  if(NOT _n EQUAL 2)
    int_fail("${mode}: expected two trace files, found ${_n}")
  endif()
  set(_size 0)
  foreach(_f IN LISTS _files)
    file(SIZE "${_f}" _s)
    math(EXPR _size "${_size} + ${_s}")
  endforeach()
  set(_out "${_r_OUT}" PARENT_SCOPE)
  set(_size ${_size} PARENT_SCOPE)
  set(_files "${_files}" PARENT_SCOPE)
endfunction()

run(default)
set(_default_size ${_size})
set(_default_files "${_files}")
int_matches(_counted "uniform_random_number calls: ([0-9]+)" "${_out}")
foreach(_c IN LISTS _counted)
  if(NOT _c EQUAL ELEMENTS)
    int_fail("the program counted ${_c} calls, not ${ELEMENTS}")
  endif()
endforeach()
foreach(_f IN LISTS _default_files)
  h5_count(_written "${_f}" "\"name\":\"uniform_random_number\",\"cat\":\"C_APP\"")
  execute_process(COMMAND "${H5_GREP}" -E -e "\"name\":\"throttled\"" "${_f}"
    OUTPUT_VARIABLE _records)
  string(REPLACE "\n" ";" _records "${_records}")
  set(_throttled 0)
  set(_dur "")
  foreach(_rec IN LISTS _records)
    if(_rec MATCHES "\"function\":\"uniform_random_number\"" AND
       _rec MATCHES "\"calls\":([0-9]+)")
      math(EXPR _throttled "${_throttled} + ${CMAKE_MATCH_1}")
      if(_rec MATCHES "\"dur\":([0-9]+)")
        set(_dur ${CMAKE_MATCH_1})
      endif()
    endif()
  endforeach()
  math(EXPR _total "${_written} + ${_throttled}")
  if(NOT _total EQUAL ELEMENTS OR _throttled EQUAL 0 OR _dur STREQUAL "")
    int_fail("${_f}: uniform_random_number: ${_written} spans written + "
      "${_throttled} throttled (dur '${_dur}') = ${_total}, the program "
      "counted ${ELEMENTS} (needs the runtime's throttling)")
  endif()
  message(STATUS "${_f}: ${_written} written + ${_throttled} throttled, dur ${_dur} us")
endforeach()

run(unthrottled DFTRACER_THROTTLE=0)
math(EXPR _limit "${_size} / 20")
message(STATUS "trace bytes: ${_default_size} throttled, ${_size} unthrottled")
if(_default_size GREATER _limit)
  int_fail("throttled traces are ${_default_size} bytes, more than 5% of the "
    "unthrottled ${_size}")
endif()
file(REMOVE_RECURSE "${WORK}/throttle-unthrottled")
