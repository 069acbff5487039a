# e2e phase 4: the annotated run did the same I/O as the original, wrote one
# valid trace per rank, and called each function as often as the golden
# counts say.
#   -DCHECKER= -DNAME= -DWORK= -DNP= -DCOUNTS=
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
