# Runs the unwinding check of kernels.cmake's E2E_CXX_UNWIND_<NAME> on one
# trace (used by broken.cmake, which needs it to fail in a child process).
#   -DTRACE= -DNAME=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/unwind.cmake)
e2e_cxx_check_unwind(${TRACE} ${E2E_CXX_UNWIND_${NAME}})
