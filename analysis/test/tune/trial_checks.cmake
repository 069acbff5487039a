# check_trial(JSON INDEX LABEL CHECK...): each CHECK "key=>regex" must match
# trial INDEX of dftracer-tune --json's output JSON; fail() (the including
# script's) says which did not. Shared by scenario.cmake and
# scenario_mpiio.cmake.
function(check_trial json index label)
  foreach(_check ${ARGN})
    string(FIND "${_check}" "=>" _at)
    string(SUBSTRING "${_check}" 0 ${_at} _key)
    math(EXPR _at "${_at} + 2")
    string(SUBSTRING "${_check}" ${_at} -1 _re)
    string(JSON _v ERROR_VARIABLE _err GET "${json}" trials ${index} ${_key})
    if(_err OR NOT _v MATCHES "${_re}")
      fail("${label}: ${_key} is '${_v}', expected to match '${_re}'")
    endif()
    message("ok   ${label}: ${_key}: ${_v}")
  endforeach()
endfunction()
