# e2e phase 3: run the original, then the annotated kernel with tracing on.
#   -DMPIEXEC=mpiexec|-n|2 -DNAME= -DWORK= -DE2E= -DSRC=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
e2e_require(MPIEXEC NAME WORK E2E SRC)
e2e_split(MPIEXEC)
e2e_run_kernel(${NAME} ${WORK} ${E2E} ${SRC} "${MPIEXEC}" original)
e2e_run_kernel(${NAME} ${WORK} ${E2E} ${SRC} "${MPIEXEC}" annotated
               ${WORK}/traces/${NAME})
e2e_traces(_traces ${WORK}/traces/${NAME})
message(STATUS "${NAME}: both runs succeeded; traces: ${_traces}")
