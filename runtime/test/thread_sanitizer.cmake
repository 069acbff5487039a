# Builds the runtime and its threaded test programs with ThreadSanitizer in
# a separate tree and runs them traced: a data race anywhere in the runtime
# (buffer hand-over to the writer thread, FINI or exit() racing with threads
# that are still tracing, the writer's queue) fails the test.
#
#   cmake -DSOURCE_DIR=<runtime> -DWORK_DIR=<dir> -DGENERATOR=<gen>
#         -DC_COMPILER=<cc> -DCXX_COMPILER=<c++> -P thread_sanitizer.cmake
cmake_minimum_required(VERSION 3.20)

include(${CMAKE_CURRENT_LIST_DIR}/run_command.cmake)

# program[|argument]
set(_cases dft_threads dft_threads_small_queue dft_exit_busy dft_fork_child
  "dft_io_robust|threads" "dft_io_robust|signal" "dft_io_robust|metadata"
  "dft_io_robust|handler-first"
  "dft_io_stdio" "dft_io_aio|edge" "dft_throttle|threads|20000"
  "dft_throttle|fork|5000" "dft_signal_exit|default" "dft_signal_exit|handler"
  "dft_signal_exit|chain")
set(_programs dft_threads dft_threads_small_queue dft_exit_busy dft_fork_child
  dft_io_robust dft_io_stdio dft_io_aio dft_throttle dft_signal_exit)
set(_flags -fsanitize=thread)
run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=ON
  -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_C_FLAGS=${_flags} -DCMAKE_CXX_FLAGS=${_flags}
  -DCMAKE_EXE_LINKER_FLAGS=${_flags} -DCMAKE_SHARED_LINKER_FLAGS=${_flags})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --target ${_programs})

# The compact format (issue 25) on a few: its encoder runs on the writer
# thread, or on a thread that hands over a buffer while it does not run.
set(_compact_cases dft_threads_small_queue dft_fork_child "dft_io_robust|signal"
  "dft_io_robust|handler-first")
foreach(_compression 0 1 compact)
  foreach(_case ${_cases})
    if(_compression STREQUAL "compact" AND NOT _case IN_LIST _compact_cases)
      continue()
    endif()
    string(REPLACE "|" ";" _parts "${_case}")
    list(GET _parts 0 _program)
    set(_arg)
    set(_env)
    if(_case MATCHES "\\|")
      list(SUBLIST _parts 1 -1 _arg)
    endif()
    set(_format DFTRACER_TRACE_COMPRESSION=${_compression})
    if(_compression STREQUAL "compact")
      set(_format DFTRACER_TRACE_FORMAT=compact)
    endif()
    if(_program STREQUAL "dft_throttle")
      # Throttled after 100 calls whatever TSan's slowdown: the throttled
      # path, the threads' counters and their merge at the end race too.
      set(_env DFTRACER_THROTTLE_CALLS=100 DFTRACER_THROTTLE_US=1000000)
    endif()
    string(JOIN "_" _argname ${_arg})
    set(_dir ${WORK_DIR}/run/${_program}-${_argname}-${_compression})
    file(REMOVE_RECURSE ${_dir})
    file(MAKE_DIRECTORY ${_dir})
    run(${CMAKE_COMMAND} -E chdir ${_dir} ${CMAKE_COMMAND} -E env
      "TSAN_OPTIONS=halt_on_error=1 exitcode=66"
      DFTRACER_ENABLE=1 DFTRACER_LOG_FILE=${_dir}/trace
      ${_format} DFTRACER_DATA_DIR=data
      ${_env} ${WORK_DIR}/build/bin/${_program} ${_arg})
  endforeach()
endforeach()
message(STATUS "no data race in ${_cases}, plain and compressed; "
               "${_compact_cases} compact")
