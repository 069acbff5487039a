# Runs traced programs under valgrind's memcheck: an invalid read or write
# anywhere in the runtime fails the test. The formatter stores whole words
# past the digits it writes and the writer thread hands buffers between
# threads, so this is the check that those stay inside what was allocated.
#
#   cmake -DVALGRIND=<valgrind> -DBIN_DIR=<dir of the programs>
#         -DWORK_DIR=<dir> -P memcheck.cmake
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

# program|environment (space-separated VAR=VALUE)
set(_cases
  "dft_threads|"
  "dft_threads_small_queue|DFTRACER_TRACE_COMPRESSION=1"
  "dft_every_macro_c|DFTRACER_INC_METADATA=1"
  "dft_exit_busy|"
  "dft_io_posix|DFTRACER_DATA_DIR=data"
  "dft_io_stdio|DFTRACER_DATA_DIR=data DFTRACER_TRACE_COMPRESSION=1"
  "dft_io_aio|DFTRACER_DATA_DIR=data"
  "dft_threads_small_queue|DFTRACER_TRACE_FORMAT=compact"
  "dft_io_posix|DFTRACER_DATA_DIR=data DFTRACER_TRACE_FORMAT=compact")
foreach(_case ${_cases})
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _program)
  list(GET _parts 1 _env)
  separate_arguments(_env UNIX_COMMAND "${_env}")
  set(_dir ${WORK_DIR}/${_program})
  file(REMOVE_RECURSE ${_dir})
  file(MAKE_DIRECTORY ${_dir})
  run(${CMAKE_COMMAND} -E chdir ${_dir} ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
    DFTRACER_LOG_FILE=${_dir}/trace ${_env}
    ${VALGRIND} --error-exitcode=66 --quiet ${BIN_DIR}/${_program})
endforeach()
message(STATUS "memcheck: no invalid access in ${_cases}")
