# e2e.openmpi.NAME.check: as check.cmake does for MPICH (same output as the
# original, one trace per rank with its rank, the golden call counts, the
# I/O events of NAME.io.expect), and the kernels that use MPI-IO (directly
# or through HDF5's mpio driver) have MPIIO events read through Open MPI's
# handles: files named, comm_size 2. The io.expect files name the POSIX
# calls ROMIO makes under an MPI-IO call (pwrite, pread); OMPIO makes the
# strided ones as pwritev, preadv, which are accepted in their place. Only
# with -DIO_CHECKER (CMakeLists.txt gives it for the kernels that call
# MPI-IO themselves; vpic_writer's half a million events take 25 s).
#   -DCHECKER= -DNAME= -DWORK= -DNP= -DCOUNTS= [-DIO_CHECKER=]
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../E2E.cmake)
e2e_require(CHECKER NAME WORK NP COUNTS)
e2e_compare_outputs(${WORK})
e2e_check_processes(${CHECKER} ${WORK}/traces/${NAME} ${NP} ${NAME}
                    "${E2E_RANK_OPTIONAL_${NAME}}")
e2e_check_traces(${CHECKER} ${WORK}/traces/${NAME} ${NP} ${COUNTS} _rc _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check failed (${_rc}):\n${_out}")
endif()
message(STATUS "dftracer-check:\n${_out}")

string(REGEX REPLACE "\\.counts\\.json$" ".io.expect" _io_expect "${COUNTS}")
if(IO_CHECKER AND EXISTS ${_io_expect})
  file(READ ${_io_expect} _spec)
  string(REPLACE "pwrite|pwrite64" "pwrite|pwrite64|pwritev|pwritev64" _spec
    "${_spec}")
  string(REPLACE "pread|pread64" "pread|pread64|preadv|preadv64" _spec
    "${_spec}")
  file(WRITE ${WORK}/ompi.io.expect "${_spec}")
  e2e_traces(_traces ${WORK}/traces/${NAME})
  execute_process(COMMAND ${IO_CHECKER} --expect ${WORK}/ompi.io.expect
    ${_traces} OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "I/O events differ from ${_io_expect} (OMPIO's "
      "vector calls accepted):\n${_out}")
  endif()
  message(STATUS "I/O events: ${_out}")
endif()
if(NAME STREQUAL "h5_metadata_stress" OR NAME STREQUAL "vpic_reader")
  return() # no MPI-IO file of their own to require
endif()
e2e_traces(_traces ${WORK}/traces/${NAME})
foreach(_trace ${_traces})
  file(READ ${_trace} _text)
  if(NOT _text MATCHES "\"name\":\"MPI_File_open\",\"cat\":\"MPIIO\"[^\n]*\"comm_size\":2,\"ret\":0")
    message(FATAL_ERROR "${_trace}: no MPI_File_open event with comm_size 2")
  endif()
endforeach()
message(STATUS "${NAME}: MPI-IO traced under Open MPI")
