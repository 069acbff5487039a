# runtime.io_strace_*: one program under strace and the preloaded runtime.
#   cmake -DSTRACE= -DCHECKER= -DPRELOAD= -DWORK_DIR= -DPROGRAM= [-DARGS=]
#         [-DLAUNCHER=] [-DTRACED=subdir] [-DACCOUNT=bucket;...]
#         -P strace_check.cmake
# TRACED: the data dir, under the run directory (default: all of it);
# ACCOUNT: buckets compared with the untraced record, `<run>` standing for
# the run directory.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/StraceCheck.cmake)
file(REMOVE_RECURSE ${WORK_DIR})
set(_run ${WORK_DIR}/run)
set(_traced ${_run})
if(TRACED)
  set(_traced ${_run}/${TRACED})
endif()
string(REPLACE "<run>" "${_run}" _account "${ACCOUNT}")
dft_strace_check(STRACE ${STRACE} CHECKER ${CHECKER} PRELOAD ${PRELOAD}
  WORK ${WORK_DIR} DATA ${_run} TRACED ${_traced} ACCOUNT ${_account}
  COMMAND ${LAUNCHER} ${PROGRAM} ${ARGS})
