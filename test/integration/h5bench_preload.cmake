# integration.h5bench_like.preload: the same benchmark under
# `LD_PRELOAD=libdftracer_preload.so mpiexec -n 2`, as the README shows:
# the launcher and its proxies trace nothing, so there are exactly two
# trace files, both with a rank and the HDF5 events.
include(${CMAKE_CURRENT_LIST_DIR}/h5bench_common.cmake)
int_require(WORK MPIEXEC PRELOAD ELEMENTS)

string(MD5 _tag "${WORK}")
string(SUBSTRING "${_tag}" 0 12 _tag)
set(_data "/dev/shm/annotate-h5bench-preload-${_tag}")
set(_traces "${WORK}/preload/traces")
set(_mpiexec "${MPIEXEC}")
int_split(_mpiexec)
file(REMOVE_RECURSE "${_data}" "${_traces}")
file(MAKE_DIRECTORY "${_data}" "${_traces}")
int_run(_r COMMAND "${CMAKE_COMMAND}" -E env DFTRACER_ENABLE=1
  "DFTRACER_DATA_DIR=${_data}" "DFTRACER_LOG_FILE=${_traces}/trace"
  "LD_PRELOAD=${PRELOAD}" ${_mpiexec} "${WORK}/build/h5write" "${_data}"
  ${ELEMENTS} WORKING_DIRECTORY "${_data}")
file(REMOVE_RECURSE "${_data}")
int_expect_success(_r "LD_PRELOAD=... mpiexec -n 2 h5write")
int_expect_match("${_r_OUT}" "rank 1: uniform_random_number calls: ${ELEMENTS}"
  "the program's output")

file(GLOB _files "${_traces}/*")
list(LENGTH _files _n)
if(NOT _n EQUAL 2)
  int_fail("expected exactly two trace files (the ranks), found ${_n}: ${_files}")
endif()
foreach(_t IN LISTS _files)
  h5_grep(_rank "${_t}" "\"name\":\"rank\"")
  if(NOT _rank)
    int_fail("${_t} has no rank: a launcher's file?")
  endif()
  h5_grep(_hit "${_t}" "\"name\":\"H5Dwrite\",\"cat\":\"HDF5\"")
  if(NOT _hit)
    int_fail("${_t}: no H5Dwrite event")
  endif()
endforeach()
message(STATUS "two trace files, both ranks")
