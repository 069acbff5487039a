# integration.h5bench_like.linked: the benchmark as it was linked (no
# preload) under `mpiexec -n 2` and `strace -f`, its data on /dev/shm named
# as the data dir: two trace files, each with its rank; HDF5, MPI-IO and
# POSIX events all there (the HDF5 layer is not bypassed by the project's
# link order); MPI_File_open with the communicator's size; and per file,
# the POSIX calls and bytes of the traces equal what strace counted
# (runtime/test/io/StraceCheck.cmake, dft-io-expect --strace).
include(${CMAKE_CURRENT_LIST_DIR}/h5bench_common.cmake)
include(${STRACE_CHECK})
int_require(WORK MPIEXEC STRACE IO_CHECKER ELEMENTS)

string(MD5 _tag "${WORK}")
string(SUBSTRING "${_tag}" 0 12 _tag)
set(_data "/dev/shm/annotate-h5bench-linked-${_tag}")
set(_mpiexec "${MPIEXEC}")
int_split(_mpiexec)
file(REMOVE_RECURSE "${_data}")
dft_strace_check(STRACE ${STRACE} CHECKER ${IO_CHECKER} PRELOAD ""
  WORK "${WORK}/linked" DATA "${_data}"
  COMMAND ${_mpiexec} "${WORK}/build/h5write" "${_data}" ${ELEMENTS})
file(REMOVE_RECURSE "${_data}")

file(GLOB _traces "${WORK}/linked/traces/*.pfw")
list(LENGTH _traces _n)
if(NOT _n EQUAL 2)
  int_fail("expected one trace per rank (2), found ${_n}: ${_traces}")
endif()
# Every layer in each rank's file; POSIX writes and reads in one at least
# (with collective buffering only the aggregator moves the bytes).
set(_pwrite 0)
set(_pread 0)
foreach(_t IN LISTS _traces)
  h5_grep(_rank "${_t}" "\"name\":\"rank\"")
  if(NOT _rank)
    int_fail("${_t}: no rank")
  endif()
  h5_grep(_bypassed "${_t}" "layer_bypassed")
  if(_bypassed)
    int_fail("${_t}: ${_bypassed}")
  endif()
  foreach(_event "H5Fcreate\",\"cat\":\"HDF5" "H5Dcreate2\",\"cat\":\"HDF5"
                 "H5Dwrite\",\"cat\":\"HDF5" "H5Dread\",\"cat\":\"HDF5"
                 "MPI_File_write_at_all\",\"cat\":\"MPIIO"
                 "[a-z0-9_]+\",\"cat\":\"POSIX")
    h5_grep(_hit "${_t}" "\"name\":\"${_event}\"")
    if(NOT _hit)
      int_fail("${_t}: no event ${_event}")
    endif()
  endforeach()
  foreach(_call pwrite pread) # or pwrite64, pread64
    h5_count(_n "${_t}" "\"name\":\"${_call}(64)?\",\"cat\":\"POSIX\"")
    math(EXPR _${_call} "${_${_call}} + ${_n}")
  endforeach()
  h5_grep(_open "${_t}" "\"name\":\"MPI_File_open\"")
  int_expect_match("${_open}" "\"comm_size\":2," "${_t}: MPI_File_open")
endforeach()
if(_pwrite EQUAL 0 OR _pread EQUAL 0)
  int_fail("pwrite: ${_pwrite}, pread: ${_pread} events in the ranks' traces")
endif()
message(STATUS "two ranks, HDF5 + MPI-IO + POSIX, bytes as strace counted")
