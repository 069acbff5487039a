# e2e_cxx phase 3: run the original, then the annotated C++ kernel with
# tracing on (test/e2e/E2E.cmake's e2e_run_kernel).
#   -DMPIEXEC=mpiexec|-n|2 -DNAME= -DWORK=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)
e2e_require(MPIEXEC NAME WORK)
e2e_split(MPIEXEC)
e2e_run_kernel(${NAME} ${WORK} ${WORK} ${CMAKE_CURRENT_LIST_DIR} "${MPIEXEC}" original)
e2e_run_kernel(${NAME} ${WORK} ${WORK} ${CMAKE_CURRENT_LIST_DIR} "${MPIEXEC}" annotated
               ${WORK}/traces/${NAME})
e2e_traces(_traces ${WORK}/traces/${NAME})
message(STATUS "${NAME}: both runs succeeded; traces: ${_traces}")
