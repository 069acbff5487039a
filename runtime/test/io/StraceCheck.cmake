# dft_strace_check(STRACE <strace> CHECKER <dft-io-expect> PRELOAD <lib>
#   WORK <dir> DATA <dir> [TRACED <dir>] [ACCOUNT <bucket>...]
#   COMMAND <launcher, program, args>)
#
# Runs COMMAND in DATA under `strace -f` with libdftracer_preload.so
# preloaded and tracing on for the files under TRACED (default DATA), then
# has dft-io-expect compare, per file under TRACED, the POSIX and STDIO
# calls and bytes of the trace with those strace saw (IoExpect.cpp,
# --strace); each ACCOUNT (a descriptor kind, `pipe`, or an absolute
# directory) compares the bytes strace saw there with the trace's
# `untraced` record. strace's options: a log per process (-ff: no
# interleaved lines), file names for descriptors (-y), no buffer contents
# (-s 0), and the system calls of every symbol the runtime wraps
# (strace_calls.txt, checked against io_symbols.def: a wrapped symbol it
# does not name fails here). Fails when strace wrote no log, when the run
# made no trace, and when nothing was compared (dft-io-expect).
# Shared by runtime.io_strace_* and the e2e kernels' strace checks.

# The `-e trace=` list (into OUT), and what is traced but not compared
# printed once.
function(dft_strace_calls out)
  set(_dir ${CMAKE_CURRENT_FUNCTION_LIST_DIR})
  file(STRINGS ${_dir}/strace_calls.txt _rows REGEX "^[^#]")
  file(STRINGS ${_dir}/../../src/io_symbols.def _wrapped
    REGEX "^DFT_(POSIX|STDIO)\\(")
  set(_known)
  set(_calls)
  set(_left)
  foreach(_row ${_rows})
    if(NOT _row MATCHES "^([^ ]+) ([^ ]+)( - (.*))?$")
      message(FATAL_ERROR "strace_calls.txt: not SYMBOLS SYSCALLS [- WHY]: ${_row}")
    endif()
    string(REPLACE "," ";" _syms "${CMAKE_MATCH_1}")
    set(_why "${CMAKE_MATCH_4}")
    list(APPEND _known ${_syms})
    if(NOT CMAKE_MATCH_2 STREQUAL "-")
      string(REPLACE "," ";" _sys "${CMAKE_MATCH_2}")
      list(APPEND _calls ${_sys})
    endif()
    if(_why)
      list(APPEND _left "  ${CMAKE_MATCH_1} (${CMAKE_MATCH_2}): ${_why}")
    endif()
  endforeach()
  foreach(_line ${_wrapped})
    string(REGEX REPLACE "^DFT_[A-Z]+\\(([^)]+)\\).*" "\\1" _sym "${_line}")
    if(NOT _sym IN_LIST _known)
      message(FATAL_ERROR "io_symbols.def wraps ${_sym}, which "
        "runtime/test/io/strace_calls.txt does not name: add its system calls")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES _calls)
  string(JOIN "\n" _left ${_left})
  message("traced by strace, not compared:\n${_left}")
  string(JOIN "," _list ${_calls})
  set(${out} ${_list} PARENT_SCOPE)
endfunction()

function(dft_strace_check)
  cmake_parse_arguments(S "" "STRACE;CHECKER;PRELOAD;WORK;DATA;TRACED"
    "COMMAND;ACCOUNT" ${ARGN})
  dft_strace_calls(_trace)
  if(NOT S_TRACED)
    set(S_TRACED ${S_DATA})
  endif()
  file(REMOVE_RECURSE ${S_WORK}/strace ${S_WORK}/traces)
  file(MAKE_DIRECTORY ${S_WORK}/strace ${S_WORK}/traces ${S_DATA})
  execute_process(
    COMMAND ${S_STRACE} -f -ff -y -s 0 -qq
      -e trace=${_trace}
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
  if(NOT _logs)
    message(FATAL_ERROR "strace wrote no log in ${S_WORK}/strace")
  endif()
  if(NOT _traces)
    message(FATAL_ERROR "no trace in ${S_WORK}/traces")
  endif()
  set(_args)
  foreach(_log ${_logs})
    list(APPEND _args --strace ${_log})
  endforeach()
  foreach(_bucket ${S_ACCOUNT})
    list(APPEND _args --strace-account ${_bucket})
  endforeach()
  if(S_ACCOUNT AND S_PRELOAD)
    # The loader reads the preloaded library before the runtime runs: not
    # the program's I/O, wherever the build lives (a clone under /tmp).
    list(APPEND _args --strace-ignore ${S_PRELOAD})
  endif()
  execute_process(
    COMMAND ${S_CHECKER} --strace-only ${S_TRACED}/ ${_args} ${_traces}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "the trace and strace differ:\n${_out}\n${_err}")
  endif()
endfunction()
