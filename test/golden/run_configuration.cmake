# golden.NAME.run.CC.cK: one configuration of a case planned with --variant
# (test/inputs/NAME.args), built from its expected file and run with
# tracing on, against the runtime WITHOUT the cleanup attribute
# (-DDFTRACER_TEST_NO_CLEANUP, as with upstream DFTracer): only the ENDs that
# annotate placed close spans. Checks:
#   - the program builds with -Wall -Werror and exits 0;
#   - dftracer-check finds the trace valid;
#   - every span of `mark` is at level 2. Each case's main calls mark()
#     after each call it makes, so a span that no END closed (it stays open
#     until its parent ends) would hold the next mark at level 3 or deeper.
#
#   cmake -DCOMPILER=gcc -DSOURCE=test/expected/NAME.c -DFLAGS="-std=gnu11;..."
#         -DLIBRARY=build/runtime/libdftracer_core.so [-DLINK="-lmpich;..."]
#         -DCHECKER=build/bin/dftracer-check -DWORK=<dir>
#         -P test/golden/run_configuration.cmake
cmake_minimum_required(VERSION 3.20)

foreach(_var COMPILER SOURCE LIBRARY CHECKER WORK)
  if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
    message(FATAL_ERROR "run_configuration.cmake: -D${_var}=... is required")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/traces")
get_filename_component(_libdir "${LIBRARY}" DIRECTORY)
set(_build "${COMPILER}" ${FLAGS} -DDFTRACER_TEST_NO_CLEANUP -Wall -Werror
  "${SOURCE}" -o "${WORK}/program" "${LIBRARY}" "-Wl,-rpath,${_libdir}" ${LINK})
execute_process(COMMAND ${_build}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  list(JOIN _build " " _shown)
  message(FATAL_ERROR "build failed (${_rc}): ${_shown}\n${_out}")
endif()

set(ENV{DFTRACER_ENABLE} 1)
set(ENV{DFTRACER_LOG_FILE} "${WORK}/traces/trace")
execute_process(COMMAND "${WORK}/program"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${WORK}/program exited with ${_rc}:\n${_out}")
endif()

execute_process(COMMAND "${CHECKER}" "${WORK}/traces"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _check ERROR_VARIABLE _check)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check: the trace is not valid:\n${_check}")
endif()

file(GLOB _traces "${WORK}/traces/*.pfw")
if(NOT _traces)
  message(FATAL_ERROR "the program wrote no trace under ${WORK}/traces")
endif()
set(_marks 0)
foreach(_trace IN LISTS _traces)
  file(STRINGS "${_trace}" _lines REGEX "\"name\":\"mark\"")
  foreach(_line IN LISTS _lines)
    math(EXPR _marks "${_marks} + 1")
    if(NOT _line MATCHES "\"level\":2[,}]")
      message(FATAL_ERROR "a span was left open (no END closed it): mark() "
        "ran inside it, not directly in main:\n${_line}\n"
        "trace: ${_trace}")
    endif()
  endforeach()
endforeach()
if(_marks EQUAL 0)
  message(FATAL_ERROR "no span of mark() in ${_traces}: the case must call "
    "mark() after each call in main")
endif()
message(STATUS "${_marks} spans of mark(), each directly in main")
