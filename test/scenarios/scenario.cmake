# One diagnosis scenario (CMakeLists.txt beside this file).
#   -DNAME= -DSRC= -DMPICC= -DCFLAGS=a|b -DLIBS=a|b -DMPIEXEC= -DNP=
#   -DPREFLAGS= -DANALYZE= -DKIND= -DFUNCTION= -DFORCE=force|"" -DWORK=
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" CFLAGS "${CFLAGS}")
string(REPLACE "|" ";" LIBS "${LIBS}")
function(fail)
  message(FATAL_ERROR "scenario ${NAME}: ${ARGN}")
endfunction()

# Build and run the problem and the twin, traced.
foreach(_v problem twin)
  set(_w ${WORK}/${_v})
  file(REMOVE_RECURSE ${_w})
  file(MAKE_DIRECTORY ${_w}/out ${_w}/traces)
  set(_def)
  if(_v STREQUAL "twin")
    set(_def -DFIXED)
  endif()
  execute_process(COMMAND ${MPICC} ${CFLAGS} ${_def} ${SRC} -o ${_w}/${NAME}
                          ${LIBS}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    fail("${_v}: build failed: ${_err}")
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
            DFTRACER_LOG_FILE=${_w}/traces/${NAME} --unset=DFTRACER_DATA_DIR
            ${MPIEXEC} -n ${NP} ${PREFLAGS} ${_w}/${NAME} ${_w}/out
    WORKING_DIRECTORY ${_w}/out
    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    fail("${_v}: run failed (${_rc}): ${_err}")
  endif()
endforeach()

# kinds(OUT json): the kinds of the findings in a --diagnose --json report,
# and FIRST_FUNCTION_<kind> the first site's function of each.
function(findings out json)
  string(JSON _n LENGTH "${json}" findings)
  set(_kinds)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _k GET "${json}" findings ${_i} kind)
      list(APPEND _kinds ${_k})
      string(JSON _ns LENGTH "${json}" findings ${_i} sites)
      set(_fn "")
      if(_ns GREATER 0)
        string(JSON _fn GET "${json}" findings ${_i} sites 0 function)
      endif()
      set(FIRST_FUNCTION_${_k} "${_fn}" PARENT_SCOPE)
    endforeach()
  endif()
  set(${out} "${_kinds}" PARENT_SCOPE)
endfunction()

foreach(_v problem twin)
  execute_process(COMMAND ${ANALYZE} --diagnose --json ${WORK}/${_v}/traces
    OUTPUT_VARIABLE _json_${_v} ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    fail("dftracer-analyze --diagnose on the ${_v} failed (${_rc}): ${_err}")
  endif()
  file(WRITE ${WORK}/${_v}.json "${_json_${_v}}")
endforeach()
execute_process(COMMAND ${ANALYZE} --diagnose ${WORK}/problem/traces
  OUTPUT_FILE ${WORK}/problem.txt)

findings(_problem "${_json_problem}")
if(NOT KIND IN_LIST _problem)
  fail("no ${KIND} finding in the problem (found: ${_problem}); see "
       "${WORK}/problem.json")
endif()
if(NOT FIRST_FUNCTION_${KIND} STREQUAL FUNCTION)
  fail("the ${KIND} finding names ${FIRST_FUNCTION_${KIND}} first, not "
       "${FUNCTION}; see ${WORK}/problem.json")
endif()
findings(_twin "${_json_twin}")
if(KIND IN_LIST _twin)
  fail("the fixed twin still has a ${KIND} finding; see ${WORK}/twin.json")
endif()
if(_twin)
  fail("the fixed twin is clean but has findings: ${_twin}; see "
       "${WORK}/twin.json")
endif()

set(_force)
if(FORCE)
  set(_force --force)
endif()
execute_process(COMMAND ${ANALYZE} --json ${_force}
                        --compare ${WORK}/problem/traces ${WORK}/twin/traces
  OUTPUT_VARIABLE _cmp ERROR_VARIABLE _err RESULT_VARIABLE _rc)
file(WRITE ${WORK}/compare.json "${_cmp}")
if(NOT _rc EQUAL 0)
  fail("--compare failed (${_rc}): ${_err}; see ${WORK}/compare.json")
endif()
string(JSON _n LENGTH "${_cmp}" compare findings)
set(_status "")
if(_n GREATER 0)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _k GET "${_cmp}" compare findings ${_i} kind)
    string(JSON _fn GET "${_cmp}" compare findings ${_i} function)
    if(_k STREQUAL KIND AND _fn STREQUAL FUNCTION)
      string(JSON _status GET "${_cmp}" compare findings ${_i} status)
    endif()
  endforeach()
endif()
if(NOT _status STREQUAL "fixed")
  fail("--compare says '${_status}' for ${KIND} (${FUNCTION}), not fixed; "
       "see ${WORK}/compare.json")
endif()
message(STATUS "${NAME}: ${KIND} found in ${FUNCTION}, none in the twin, "
               "--compare: fixed")
