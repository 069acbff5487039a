# e2e I/O cross-check: the original (unannotated) kernel under mpiexec, with
# libdftracer_preload.so tracing the files of every kernel's folder (the
# reader reads the writer's output) and under `strace -f`; per file, the POSIX calls and bytes in the traces must equal
# what strace saw (runtime/test/io/StraceCheck.cmake).
#   -DMPIEXEC=mpiexec|-n|2 -DNAME= -DWORK= -DE2E= -DSRC= -DSTRACE=
#   -DCHECKER=<dft-io-expect> -DPRELOAD=<libdftracer_preload.so>
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/../../runtime/test/io/StraceCheck.cmake)
e2e_require(MPIEXEC NAME WORK E2E SRC STRACE CHECKER PRELOAD)
e2e_split(MPIEXEC)
set(_work ${WORK}/strace)
file(REMOVE_RECURSE ${_work})
e2e_kernel_args(_args ${NAME} ${_work}/out ${E2E} original ${SRC})
dft_strace_check(STRACE ${STRACE} CHECKER ${CHECKER} PRELOAD ${PRELOAD}
  WORK ${_work} DATA ${_work}/out TRACED ${E2E}
  COMMAND ${MPIEXEC} ${WORK}/original/${NAME} ${_args})
