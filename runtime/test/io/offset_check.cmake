# runtime.io_strace_offsets*: io_offsets.c under strace, tracing on; every
# non-positioned data event's `offset` against the position strace shows
# before it, and every pread/pwrite's against the system call's
# (OffsetCheck.cpp).
#   cmake -DSTRACE= -DCHECKER= -DWORK_DIR= -DPROGRAM= [-DPRELOAD=]
#         -P offset_check.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR}/data ${WORK_DIR}/traces)
set(_env -E DFTRACER_ENABLE=1 -E DFTRACER_DATA_DIR=${WORK_DIR}/data
  -E DFTRACER_LOG_FILE=${WORK_DIR}/traces/trace)
if(PRELOAD)
  list(APPEND _env -E LD_PRELOAD=${PRELOAD})
endif()
execute_process(
  COMMAND ${STRACE} -y -s 0 -qq -e trace=getppid,lseek,pread64,pwrite64 -o ${WORK_DIR}/strace.log
    ${_env} ${PROGRAM} ${WORK_DIR}/data
  WORKING_DIRECTORY ${WORK_DIR}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "under strace, ${PROGRAM} failed (${_rc}):\n${_out}\n${_err}")
endif()
file(GLOB _traces ${WORK_DIR}/traces/*.pfw)
if(NOT _traces)
  message(FATAL_ERROR "no trace in ${WORK_DIR}/traces")
endif()
execute_process(COMMAND ${CHECKER} ${WORK_DIR}/strace.log ${_traces}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "recorded offsets and strace differ:\n${_out}\n${_err}")
endif()
