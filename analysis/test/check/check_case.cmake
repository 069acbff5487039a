# Runs dftracer-check and checks its exit status and output.
#
#   cmake -DCHECKER=<exe> -DARGS=<;-list> -DEXPECT_EXIT=<n>
#         [-DEXPECT_OUTPUT=re;re] [-DREJECT_OUTPUT=re;re] -P check_case.cmake
#
# EXPECT_OUTPUT regexes must all match stdout+stderr; REJECT_OUTPUT none.
cmake_minimum_required(VERSION 3.20)
execute_process(COMMAND ${CHECKER} ${ARGS}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
set(_all "${_out}${_err}")
message("${_all}")
if(NOT _rc EQUAL EXPECT_EXIT)
  message(FATAL_ERROR "dftracer-check ${ARGS}: exit ${_rc}, expected ${EXPECT_EXIT}")
endif()
foreach(_re IN LISTS EXPECT_OUTPUT)
  if(NOT _all MATCHES "${_re}")
    message(FATAL_ERROR "output does not match '${_re}'")
  endif()
endforeach()
foreach(_re IN LISTS REJECT_OUTPUT)
  if(_all MATCHES "${_re}")
    message(FATAL_ERROR "output matches '${_re}' but must not")
  endif()
endforeach()
