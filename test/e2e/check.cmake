# e2e phase 4: the annotated run did the same I/O as the original, wrote one
# valid trace per rank, called each function as often as the golden counts
# say, and, when the kernel has a NAME.io.expect beside its counts, recorded
# the I/O events it lists, nested as it says (runtime/test/io/IoExpect.cpp).
#   -DCHECKER= -DNAME= -DWORK= -DNP= -DCOUNTS= [-DIO_CHECKER=]
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
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
  e2e_traces(_traces ${WORK}/traces/${NAME})
  execute_process(COMMAND ${IO_CHECKER} --expect ${_io_expect} ${_traces}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "I/O events differ from ${_io_expect}:\n${_out}")
  endif()
  message(STATUS "I/O events: ${_out}")
endif()
