# Runs a traced program in a clean directory, then checks what it wrote.
#
#   cmake -DPROGRAM=<exe> [-DLAUNCHER=mpiexec;-n;2] [-DARGS=a;b]
#         -DWORK_DIR=<dir> [-DENV=VAR=VAL;...] [-DNO_PREFIX=ON]
#         [-DEXPECT_FILES=N] [-DFILE_REGEX=<re>] [-DGZIP=ON]
#         [-DCHECKER=<dftracer-check> [-DCOUNTS=<file.json>]]
#         [-DGREP_ALL=re;re] [-DGREP_EACH=re;re] [-DNOT_GREP=re;re]
#         [-DIO_CHECKER=<dft-io-expect> -DIO_EXPECT=spec;spec]
#         [-DCOMPACT=ON | -DCOMPACT_ONLY=ON -DCONVERTER=<dftracer-convert>]
#         -P run_traced.cmake
#
# The DFTRACER_* variables of the caller's environment are cleared first so
# a developer's shell cannot change the outcome. Unless NO_PREFIX is set,
# DFTRACER_LOG_FILE=<WORK_DIR>/trace; otherwise the default "./trace" applies
# (the program runs in WORK_DIR). GREP_* regexes are matched against plain
# trace text (not .gz): GREP_ALL against all files together, GREP_EACH
# against every file, NOT_GREP must match no file. IO_EXPECT: the I/O
# events must meet each spec (io/IoExpect.cpp); files the program made
# itself go in subdirectories of WORK_DIR, where they are not taken for
# traces. COMPACT: the program writes the compact format beside the .pfw
# (DFTRACER_TEST_BOTH_FORMATS=1); each .pfc must convert to its .pfw byte
# for byte and give the same dftracer-check report, and is then moved to
# compact/, so the rest checks the .pfw as usual. COMPACT_ONLY: the traces
# are .pfc alone; the checker reads them, greps and IO_EXPECT read their
# conversions (in converted/).
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

if(NOT DEFINED EXPECT_FILES)
  set(EXPECT_FILES 1)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

set(_env --unset=DFTRACER_ENABLE --unset=DFTRACER_LOG_FILE
  --unset=DFTRACER_TRACE_COMPRESSION --unset=DFTRACER_INC_METADATA
  --unset=DFTRACER_DATA_DIR --unset=DFTRACER_DISABLE_IO
  --unset=DFTRACER_DISABLE_POSIX --unset=DFTRACER_DISABLE_STDIO
  --unset=DFTRACER_DISABLE_MPIIO --unset=DFTRACER_DISABLE_HDF5
  --unset=DFTRACER_THROTTLE --unset=DFTRACER_THROTTLE_CALLS
  --unset=DFTRACER_THROTTLE_US --unset=DFTRACER_THROTTLE_MAX_SPANS
  --unset=DFTRACER_MAX_TRACE_SIZE
  --unset=DFTRACER_TRACE_FORMAT --unset=DFTRACER_TEST_BOTH_FORMATS
  --unset=DFTRACER_COMPACT_LEVEL --unset=LD_PRELOAD)
if(NOT NO_PREFIX)
  list(APPEND _env "DFTRACER_LOG_FILE=${WORK_DIR}/trace")
endif()
if(COMPACT)
  list(APPEND _env DFTRACER_TRACE_FORMAT=compact DFTRACER_TEST_BOTH_FORMATS=1)
elseif(COMPACT_ONLY)
  list(APPEND _env DFTRACER_TRACE_FORMAT=compact)
endif()
list(APPEND _env ${ENV})

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${_env} ${LAUNCHER} ${PROGRAM} ${ARGS}
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("program failed (${_rc}): ${LAUNCHER} ${PROGRAM} ${ARGS}\n"
       "stdout:\n${_out}\nstderr:\n${_err}")
endif()

# run(ARGS...): the command must succeed; its stdout in _run_out.
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o
    ERROR_VARIABLE _e)
  if(NOT _rc EQUAL 0)
    fail("failed (${_rc}): ${ARGN}\n${_e}\n${_o}")
  endif()
  set(_run_out "${_o}" PARENT_SCOPE)
endfunction()

if(COMPACT)
  file(GLOB _pfc LIST_DIRECTORIES false "${WORK_DIR}/*.pfc")
  list(LENGTH _pfc _count)
  if(NOT _count EQUAL EXPECT_FILES)
    fail("expected ${EXPECT_FILES} .pfc file(s) beside the .pfw, found "
         "${_count}: ${_pfc}")
  endif()
  file(MAKE_DIRECTORY "${WORK_DIR}/compact")
  foreach(_c IN LISTS _pfc)
    string(REGEX REPLACE "\\.pfc$" ".pfw" _w "${_c}")
    get_filename_component(_n "${_c}" NAME)
    set(_conv "${WORK_DIR}/compact/${_n}.pfw")
    run(${CONVERTER} -o "${_conv}" "${_c}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files "${_conv}" "${_w}"
      RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      fail("${_n} converts to a .pfw that differs from the runtime's ${_w}")
    endif()
    if(CHECKER)
      run(${CHECKER} --json "${_c}")
      string(REPLACE "${_c}" "TRACE" _from_pfc "${_run_out}")
      run(${CHECKER} --json "${_w}")
      string(REPLACE "${_w}" "TRACE" _from_pfw "${_run_out}")
      if(NOT _from_pfc STREQUAL _from_pfw)
        fail("dftracer-check reports ${_n} differently from its .pfw:\n"
             "${_from_pfc}\n---\n${_from_pfw}")
      endif()
    endif()
    file(RENAME "${_c}" "${WORK_DIR}/compact/${_n}")
  endforeach()
endif()

file(GLOB _files LIST_DIRECTORIES false "${WORK_DIR}/*")
list(LENGTH _files _count)
if(NOT _count EQUAL EXPECT_FILES)
  fail("expected ${EXPECT_FILES} trace file(s) in ${WORK_DIR}, found ${_count}:"
       " ${_files}\nprogram stderr:\n${_err}")
endif()

# The text the greps and IO_EXPECT read: the traces, or their conversions.
set(_text_files ${_files})
if(COMPACT_ONLY)
  set(_text_files)
  file(MAKE_DIRECTORY "${WORK_DIR}/converted")
  foreach(_f IN LISTS _files)
    if(NOT _f MATCHES "\\.pfc$")
      fail("${_f} is not a .pfc")
    endif()
    get_filename_component(_n "${_f}" NAME)
    run(${CONVERTER} -o "${WORK_DIR}/converted/${_n}.pfw" "${_f}")
    list(APPEND _text_files "${WORK_DIR}/converted/${_n}.pfw")
  endforeach()
endif()

foreach(_f IN LISTS _files)
  get_filename_component(_name "${_f}" NAME)
  if(FILE_REGEX AND NOT _name MATCHES "${FILE_REGEX}")
    fail("trace file name '${_name}' does not match '${FILE_REGEX}'")
  endif()
endforeach()

foreach(_f IN LISTS _text_files)
  get_filename_component(_name "${_f}" NAME)
  if(GZIP)
    file(READ "${_f}" _magic LIMIT 2 HEX)
    if(NOT _magic STREQUAL "1f8b")
      fail("${_name} is not gzip data (starts with ${_magic})")
    endif()
    continue()
  endif()
  file(READ "${_f}" _text)
  string(APPEND _all "${_text}")
  foreach(_re IN LISTS GREP_EACH)
    if(NOT _text MATCHES "${_re}")
      fail("${_name} does not match '${_re}':\n${_text}")
    endif()
  endforeach()
  foreach(_re IN LISTS NOT_GREP)
    if(_text MATCHES "${_re}")
      fail("${_name} matches '${_re}' but must not:\n${_text}")
    endif()
  endforeach()
endforeach()
foreach(_re IN LISTS GREP_ALL)
  if(NOT _all MATCHES "${_re}")
    fail("no trace file matches '${_re}':\n${_all}")
  endif()
endforeach()

# check_traces(TOOL ARGS...): TOOL ARGS <_check_files> must succeed.
set(_check_files ${_files})
function(check_traces tool)
  execute_process(COMMAND ${tool} ${ARGN} ${_check_files}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  message("${_out}")
  if(NOT _rc EQUAL 0)
    get_filename_component(_name ${tool} NAME)
    fail("${_name} failed (${_rc}):\n${_err}\n${_out}")
  endif()
endfunction()

if(CHECKER AND _count GREATER 0)
  set(_args)
  if(COUNTS)
    list(APPEND _args --expect-counts "${COUNTS}")
  endif()
  check_traces(${CHECKER} ${_args})
endif()

if(IO_EXPECT AND _count GREATER 0)
  set(_args)
  foreach(_spec IN LISTS IO_EXPECT)
    list(APPEND _args --expect ${_spec})
  endforeach()
  set(_check_files ${_text_files})
  check_traces(${IO_CHECKER} ${_args})
endif()
