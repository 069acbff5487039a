# One diagnosis scenario (CMakeLists.txt beside this file).
#   -DNAME= -DSRC= -DMPICC= -DCFLAGS=a|b -DLIBS=a|b -DMPIEXEC= -DNP=
#   -DPREFLAGS= -DANALYZE= -DKIND= -DFUNCTION= -DFORCE=force|"" -DWORK=
#   -DADVICE= -DCACHE_CHECK= -DRULES= (below)
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" CFLAGS "${CFLAGS}")
string(REPLACE "|" ";" LIBS "${LIBS}")
function(fail)
  string(JOIN "" _message ${ARGN})
  message(FATAL_ERROR "scenario ${NAME}: ${_message}")
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
# and FIRST_FUNCTION_<kind> the first site's function of each kind's first
# finding.
function(findings out json)
  string(JSON _n LENGTH "${json}" findings)
  set(_kinds)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _k GET "${json}" findings ${_i} kind)
      if(_k IN_LIST _kinds)
        # A kind's first finding (the most seconds recoverable) is the one
        # judged: rank_imbalance's phase findings follow the job's.
        continue()
      endif()
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

# The advice that depends on what the trace recorded (-DADVICE=check&...):
#   fs:TYPE,TYPE:TEXT  when the finding's first file is on one of the TYPEs
#                      (its FS record), an advice contains TEXT ({fs_type}
#                      replaced); on any other file system none does.
#   notfs:TYPE,...:TEXT the same, for a file on none of the TYPEs.
#   hint:NAME          an advice names NAME=VALUE, the value of the MPI-IO
#                      hint that the MPIIO_HINTS records of that file hold.
function(finding_index out json kind)
  string(JSON _n LENGTH "${json}" findings)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _k GET "${json}" findings ${_i} kind)
    if(_k STREQUAL kind)
      set(${out} ${_i} PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()
function(advice_containing out json index text)
  set(_hit FALSE)
  string(JSON _n LENGTH "${json}" findings ${index} advice)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_a RANGE ${_last})
      string(JSON _t GET "${json}" findings ${index} advice ${_a})
      string(FIND "${_t}" "${text}" _at)
      if(_at GREATER -1)
        set(_hit TRUE)
      endif()
    endforeach()
  endif()
  set(${out} ${_hit} PARENT_SCOPE)
endfunction()
if(ADVICE)
  finding_index(_fi "${_json_problem}" ${KIND})
  string(JSON _file GET "${_json_problem}" findings ${_fi} files 0 path)
  string(JSON _fs GET "${_json_problem}" findings ${_fi} files 0 fs_type)
  string(REPLACE "&" ";" _checks "${ADVICE}")
  foreach(_c ${_checks})
    string(REGEX MATCH "^([a-z]+):([^:]*):?(.*)$" _m "${_c}")
    set(_what ${CMAKE_MATCH_1})
    if(_what STREQUAL "fs" OR _what STREQUAL "notfs")
      string(REPLACE "," ";" _types "${CMAKE_MATCH_2}")
      string(REPLACE "{fs_type}" "${_fs}" _text "${CMAKE_MATCH_3}")
      advice_containing(_has "${_json_problem}" ${_fi} "${_text}")
      if(_what STREQUAL "notfs")
        set(_in FALSE)
        if(NOT _fs IN_LIST _types)
          set(_in TRUE)
        endif()
      elseif(_fs IN_LIST _types)
        set(_in TRUE)
      else()
        set(_in FALSE)
      endif()
      if(_in AND NOT _has)
        fail("${_file} is on ${_fs}, but no ${KIND} advice says "
             "'${_text}'; see ${WORK}/problem.json")
      elseif(NOT _in AND _has)
        fail("${_file} is on ${_fs}, yet a ${KIND} advice says '${_text}' "
             "(meant for ${CMAKE_MATCH_2}); see ${WORK}/problem.json")
      endif()
    elseif(_what STREQUAL "hint")
      set(_hint ${CMAKE_MATCH_2})
      if(NOT DEFINED _report)
        execute_process(COMMAND ${ANALYZE} --json ${WORK}/problem/traces
          OUTPUT_VARIABLE _report RESULT_VARIABLE _rc)
        file(WRITE ${WORK}/problem_report.json "${_report}")
      endif()
      string(JSON _nf LENGTH "${_report}" files_top by_time)
      set(_value "")
      math(EXPR _last "${_nf} - 1")
      foreach(_i RANGE ${_last})
        string(JSON _p GET "${_report}" files_top by_time ${_i} path)
        if(_p STREQUAL _file)
          # One value: the string; several: an object value -> opens.
          string(JSON _type ERROR_VARIABLE _e TYPE "${_report}"
                 files_top by_time ${_i} mpiio hints ${_hint})
          if(_type STREQUAL "OBJECT")
            string(JSON _value MEMBER "${_report}"
                   files_top by_time ${_i} mpiio hints ${_hint} 0)
          elseif(_type STREQUAL "STRING")
            string(JSON _value GET "${_report}"
                   files_top by_time ${_i} mpiio hints ${_hint})
          endif()
        endif()
      endforeach()
      if(_value STREQUAL "" OR _value MATCHES "NOTFOUND")
        fail("no ${_hint} hint recorded for ${_file}; see "
             "${WORK}/problem_report.json")
      endif()
      advice_containing(_has "${_json_problem}" ${_fi} "${_hint}=${_value}")
      if(NOT _has)
        fail("the trace recorded ${_hint}=${_value} on ${_file}, but no "
             "${KIND} advice names it; see ${WORK}/problem.json")
      endif()
    else()
      fail("unknown advice check '${_c}'")
    endif()
  endforeach()
endif()

# -DCACHE_CHECK=1 (a twin that reads back what it wrote, fewer bytes than
# cache_bound's min_bytes): with that minimum lowered to 1 B, cache_bound
# must fire on the twin's real traces, from their NODE records' memory.
if(CACHE_CHECK)
  file(READ ${RULES} _rules)
  string(JSON _rules SET "${_rules}" rules cache_bound min_bytes 1)
  file(WRITE ${WORK}/cache_rules.json "${_rules}")
  execute_process(COMMAND ${ANALYZE} --diagnose --json
                          --diagnosis-rules ${WORK}/cache_rules.json
                          ${WORK}/twin/traces
    OUTPUT_VARIABLE _cache ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  file(WRITE ${WORK}/twin_cache.json "${_cache}")
  if(NOT _rc EQUAL 0)
    fail("--diagnosis-rules ${WORK}/cache_rules.json failed (${_rc}): ${_err}")
  endif()
  findings(_cache_kinds "${_cache}")
  if(NOT "cache_bound" IN_LIST _cache_kinds)
    fail("the twin reads back what it wrote, but with cache_bound's "
         "min_bytes at 1 there is no cache_bound finding (found: "
         "${_cache_kinds}); see ${WORK}/twin_cache.json")
  endif()
  finding_index(_ci "${_cache}" cache_bound)
  string(JSON _proof GET "${_cache}" findings ${_ci} evidence 0 name)
  if(NOT _proof STREQUAL "data_over_node_memory")
    fail("cache_bound's evidence is '${_proof}', not the node's memory; "
         "see ${WORK}/twin_cache.json")
  endif()
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
