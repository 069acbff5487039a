# Runs `annotate` on one golden case and compares its stdout with the expected
# file byte for byte. Used by the golden.NAME.output and golden.NAME.idempotent
# tests (test/golden/CMakeLists.txt); also runnable by hand:
#
#   cmake -DANNOTATE=build/bin/annotate -DINPUT=test/inputs/NAME.c \
#         -DEXPECTED=test/expected/NAME.c [-DARGS_FILE=test/inputs/NAME.args] \
#         -DFLAGS_FILE=build/test/golden/compile_flags.txt \
#         [-DACTUAL=/tmp/NAME.actual.c] -P test/golden/check_golden.cmake
#
#   cmake -DANNOTATE=build/bin/annotate -DINPUT=test/inputs/NAME.cpp \
#         -DEXPECTED=test/expected/NAME.cpp \
#         [-DARGS_FILE=test/inputs/NAME.cpp.args] \
#         -DFLAGS_FILE=build/test/golden/compile_flags_cxx.txt \
#         [-DEXTRA_FLAGS_FILE=test/inputs/NAME.cpp.flags] \
#         -P test/golden/check_golden.cmake
#
#   ANNOTATE    the annotate binary
#   INPUT       the file to annotate (the input, or the expected file itself
#               for the idempotency check)
#   EXPECTED    what annotate must print on stdout
#   ARGS_FILE   extra annotate options, one per line (optional; may not exist);
#               annotate runs in this file's folder, so relative paths in it
#               (a --rules FILE) are relative to that folder
#   FLAGS_FILE  compiler flags given after `--`, one per line
#   EXTRA_FLAGS_FILE  more compiler flags, one per line, after FLAGS_FILE's
#               (optional; may not exist)
#   ACTUAL      where the actual output is written (optional)
#
# The command is `annotate INPUT [options] -- [flags] [extra flags]`; it must
# exit 0. On a mismatch the script prints `diff -u EXPECTED ACTUAL` (or both
# texts when no `diff` is installed) and fails.
cmake_minimum_required(VERSION 3.20)

foreach(_var ANNOTATE INPUT EXPECTED FLAGS_FILE)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "check_golden.cmake: -D${_var}=... is required")
  endif()
endforeach()
foreach(_file "${ANNOTATE}" "${INPUT}" "${EXPECTED}" "${FLAGS_FILE}")
  if(NOT EXISTS "${_file}")
    message(FATAL_ERROR "check_golden.cmake: ${_file} does not exist")
  endif()
endforeach()

# One option per line; blank lines are ignored. file(STRINGS) yields a list,
# which execute_process expands into separate arguments.
include(${CMAKE_CURRENT_LIST_DIR}/ReadLines.cmake)

read_lines("${ARGS_FILE}" _options)
read_lines("${FLAGS_FILE}" _flags)
read_lines("${EXTRA_FLAGS_FILE}" _extra_flags)

set(_workdir "")
set(_in_workdir "")
if(NOT "${ARGS_FILE}" STREQUAL "" AND EXISTS "${ARGS_FILE}")
  get_filename_component(_workdir "${ARGS_FILE}" DIRECTORY)
  set(_in_workdir WORKING_DIRECTORY "${_workdir}")
endif()

set(_command "${ANNOTATE}" "${INPUT}" ${_options} -- ${_flags} ${_extra_flags})
list(JOIN _command " " _shown)
if(_workdir)
  set(_shown "(cd ${_workdir} && ${_shown})")
endif()
if(NOT DEFINED ACTUAL OR "${ACTUAL}" STREQUAL "")
  get_filename_component(_name "${INPUT}" NAME_WE)
  get_filename_component(_ext "${INPUT}" LAST_EXT)
  set(ACTUAL "${CMAKE_CURRENT_BINARY_DIR}/${_name}.actual${_ext}")
endif()
# The output goes to a file and is compared as bytes: OUTPUT_VARIABLE and
# file(READ) read \r\n as \n, which would hide a wrong line ending.
execute_process(
  COMMAND ${_command}
  ${_in_workdir}
  RESULT_VARIABLE _rc
  OUTPUT_FILE "${ACTUAL}"
  ERROR_VARIABLE _stderr)

if(NOT _rc STREQUAL "0")
  message(NOTICE "--- annotate stderr ---\n${_stderr}")
  message(FATAL_ERROR "annotate failed (exit ${_rc}): ${_shown}")
endif()

execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files
  "${EXPECTED}" "${ACTUAL}" RESULT_VARIABLE _differs)
if(_differs EQUAL 0)
  return()
endif()

# message(FATAL_ERROR) re-wraps its text, so the diff goes out verbatim: diff
# writes straight to this script's stdout.
find_program(_diff NAMES diff)
if(_diff)
  execute_process(COMMAND "${_diff}" -u "${EXPECTED}" "${ACTUAL}")
else()
  file(READ "${EXPECTED}" _expected)
  file(READ "${ACTUAL}" _actual)
  message(NOTICE "--- expected ---\n${_expected}--- actual ---\n${_actual}")
endif()
message(NOTICE "--- annotate stderr ---\n${_stderr}")
message(FATAL_ERROR
  "annotate output differs from ${EXPECTED} (actual output: ${ACTUAL})\n"
  "command: ${_shown}")
