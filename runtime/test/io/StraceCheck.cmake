# dft_strace_check(STRACE <strace> CHECKER <dft-io-expect> PRELOAD <lib>
#   WORK <dir> DATA <dir> [TRACED <dir>] COMMAND <launcher, program, args>)
#
# Runs COMMAND in DATA under `strace -f` with libdftracer_preload.so
# preloaded and tracing on for the files under TRACED (default DATA), then
# has dft-io-expect compare, per file under TRACED, the POSIX calls and
# bytes of the trace with those strace saw (IoExpect.cpp, --strace). strace's
# options: a log per process (-ff: no interleaved lines), file names for
# descriptors (-y), no buffer contents (-s 0), only the compared calls.
# Shared by runtime.io_strace_* and the e2e kernels' strace checks.
function(dft_strace_check)
  cmake_parse_arguments(S "" "STRACE;CHECKER;PRELOAD;WORK;DATA;TRACED"
    "COMMAND" ${ARGN})
  if(NOT S_TRACED)
    set(S_TRACED ${S_DATA})
  endif()
  file(REMOVE_RECURSE ${S_WORK}/strace ${S_WORK}/traces)
  file(MAKE_DIRECTORY ${S_WORK}/strace ${S_WORK}/traces ${S_DATA})
  execute_process(
    COMMAND ${S_STRACE} -f -ff -y -s 0 -qq
      -e trace=openat,open,creat,close,read,write,pread64,pwrite64,lseek,fsync
      -o ${S_WORK}/strace/log
      -E DFTRACER_ENABLE=1 -E DFTRACER_DATA_DIR=${S_TRACED}
      -E DFTRACER_LOG_FILE=${S_WORK}/traces/trace -E LD_PRELOAD=${S_PRELOAD}
      ${S_COMMAND}
    WORKING_DIRECTORY ${S_DATA}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    string(JOIN " " _cmd ${S_COMMAND})
    message(FATAL_ERROR "under strace, ${_cmd} failed (${_rc}):\n${_out}\n${_err}")
  endif()
  file(GLOB _logs ${S_WORK}/strace/log.*)
  file(GLOB _traces ${S_WORK}/traces/*.pfw)
  if(NOT _traces)
    message(FATAL_ERROR "no trace in ${S_WORK}/traces")
  endif()
  set(_args)
  foreach(_log ${_logs})
    list(APPEND _args --strace ${_log})
  endforeach()
  execute_process(
    COMMAND ${S_CHECKER} --strace-only ${S_TRACED}/ ${_args} ${_traces}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "the trace and strace differ:\n${_out}\n${_err}")
  endif()
endfunction()
