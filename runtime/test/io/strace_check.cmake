# runtime.io_strace_*: one program under strace and the preloaded runtime.
#   cmake -DSTRACE= -DCHECKER= -DPRELOAD= -DWORK_DIR= -DPROGRAM= [-DARGS=]
#         [-DLAUNCHER=] -P strace_check.cmake
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/StraceCheck.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
dft_strace_check(STRACE ${STRACE} CHECKER ${CHECKER} PRELOAD ${PRELOAD}
  WORK ${WORK_DIR} DATA ${WORK_DIR}/run COMMAND ${LAUNCHER} ${PROGRAM} ${ARGS})
