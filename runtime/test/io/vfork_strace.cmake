# runtime.vfork_strace_*: the system call a program's vfork makes, seen by
# `strace -f`: vfork (clone with CLONE_VFORK on AArch64) while tracing is
# off, a plain clone (fork) while it is on.
#   cmake -DSTRACE=<strace> -DPROGRAM=<dft_vfork...> -DWORK_DIR=<dir>
#         [-DENV=VAR=VAL;...] -DMODE=shared|copied -DEXPECT=vfork|fork
#         -P vfork_strace.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
# strace's -E sets the traced program's environment, not strace's own.
set(_env -E DFTRACER_LOG_FILE=${WORK_DIR}/trace)
foreach(_var IN LISTS ENV)
  list(APPEND _env -E ${_var})
endforeach()
execute_process(
  COMMAND ${STRACE} -f -qq -e trace=vfork,fork,clone,clone3
    -o ${WORK_DIR}/strace.log ${_env} ${PROGRAM} ${MODE}
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "under strace, ${PROGRAM} ${MODE} failed (${_rc}):\n"
    "${_out}\n${_err}")
endif()
file(READ ${WORK_DIR}/strace.log _log)
set(_vfork "(^|[ \n])vfork\\(|CLONE_VFORK")
if(EXPECT STREQUAL "vfork" AND NOT _log MATCHES "${_vfork}")
  message(FATAL_ERROR "no vfork system call (nor clone with CLONE_VFORK):\n"
    "${_log}")
elseif(EXPECT STREQUAL "fork")
  if(_log MATCHES "${_vfork}")
    message(FATAL_ERROR "a vfork while tracing is on:\n${_log}")
  endif()
  if(NOT _log MATCHES "(^|[ \n])(fork|clone)\\(")
    message(FATAL_ERROR "no fork system call:\n${_log}")
  endif()
endif()
