# e2e_cxx phase 4: the annotated run printed and wrote the same as the
# original, wrote one valid trace per rank (with the app metadata), called
# each function as often as the golden counts say, and closed every span the
# exception unwound before its handler went on (unwind.cmake).
#   -DCHECKER= -DNAME= -DWORK= -DNP= -DCOUNTS=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/unwind.cmake)
e2e_require(CHECKER NAME WORK NP COUNTS)
e2e_compare_outputs(${WORK})
e2e_check_processes(${CHECKER} ${WORK}/traces/${NAME} ${NP} ${NAME})
e2e_check_traces(${CHECKER} ${WORK}/traces/${NAME} ${NP} ${COUNTS} _rc _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check failed (${_rc}):\n${_out}")
endif()
message(STATUS "dftracer-check:\n${_out}")
if(E2E_CXX_UNWIND_${NAME})
  e2e_traces(_traces ${WORK}/traces/${NAME})
  foreach(_trace ${_traces})
    e2e_cxx_check_unwind(${_trace} ${E2E_CXX_UNWIND_${NAME}})
  endforeach()
endif()
