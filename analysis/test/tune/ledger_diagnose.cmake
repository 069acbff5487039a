# What the ledger knows, beside the diagnosis (issue 36; docs/diagnosis.md,
# "The ledger"):
#   cmake -DTUNE=<dftracer-tune> -DANALYZE=<dftracer-analyze>
#         -DPROGRAM=<hdf5_unaligned, built here> -DMPIEXEC=<mpiexec>
#         -DWORK=<dir> -P ledger_diagnose.cmake
# The scenario hdf5_unaligned traced once under mpiexec -n 2; dftracer-tune
# tries the finding's own `try` setting (--from-findings, one round: the
# trial is recorded whatever its verdict); then `dftracer-analyze
# --diagnose --ledger` on the first traces must show that trial on the
# finding, in JSON (`ledger`) and text (`ledger:`), and nothing without
# --ledger. Fails on a dftracer-analyze without --ledger.
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/first/traces ${WORK}/first/out)
set(_ledger ${WORK}/ledger.sqlite)

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "analysis.tune.ledger_diagnose: ${_m}")
endfunction()

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
    DFTRACER_LOG_FILE=${WORK}/first/traces/
    ${MPIEXEC} -n 2 ${PROGRAM} ${WORK}/first/out
  RESULT_VARIABLE _rc ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("the traced first run failed (${_rc}): ${_err}")
endif()

# A ledger that does not exist is an error, not an empty ledger made.
execute_process(COMMAND ${ANALYZE} --diagnose --ledger ${_ledger}
    ${WORK}/first/traces
  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
if(NOT _rc EQUAL 1 OR NOT _err MATCHES "cannot open the ledger"
   OR EXISTS ${_ledger})
  fail("a missing ledger: exit ${_rc}, '${_err}'")
endif()
# --ledger adds to the findings: not without them.
execute_process(COMMAND ${ANALYZE} --no-diagnose --ledger ${_ledger}
    ${WORK}/first/traces
  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
if(NOT _rc EQUAL 2)
  fail("--ledger with --no-diagnose: exit ${_rc}, expected 2")
endif()

execute_process(COMMAND ${TUNE} run --json --ledger ${_ledger}
    --work ${WORK}/runs --replicates 1 --from-findings ${WORK}/first/traces
    -- ${MPIEXEC} -n 2 ${PROGRAM} {run}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _j ERROR_VARIABLE _err)
file(WRITE ${WORK}/tune.json "${_j}")
if(NOT _rc EQUAL 0)
  fail("dftracer-tune exited ${_rc}: ${_err}")
endif()
string(JSON _setting GET "${_j}" trials 0 setting)
string(JSON _status GET "${_j}" trials 0 status)
if(NOT _setting MATCHES "^DFTRACER_TUNE=hdf5\\.alignment=")
  fail("--from-findings tried '${_setting}'")
endif()

execute_process(COMMAND ${ANALYZE} --diagnose --json --ledger ${_ledger}
    ${WORK}/first/traces
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _d ERROR_VARIABLE _err)
file(WRITE ${WORK}/diagnose.json "${_d}")
if(NOT _rc EQUAL 0)
  fail("dftracer-analyze --diagnose --json --ledger exited ${_rc}: ${_err}")
endif()
string(JSON _n LENGTH "${_d}" findings)
set(_found "")
math(EXPR _last "${_n} - 1")
foreach(_i RANGE ${_last})
  string(JSON _kind GET "${_d}" findings ${_i} kind)
  if(_kind STREQUAL "hdf5_unaligned")
    string(JSON _l ERROR_VARIABLE _e LENGTH "${_d}" findings ${_i} ledger)
    if(_e OR NOT _l EQUAL 1)
      fail("hdf5_unaligned's ledger: ${_l} ${_e}\n${_d}")
    endif()
    string(JSON _ls GET "${_d}" findings ${_i} ledger 0 setting)
    string(JSON _lst GET "${_d}" findings ${_i} ledger 0 status)
    if(NOT _ls STREQUAL _setting OR NOT _lst STREQUAL _status)
      fail("the finding's ledger says '${_ls}: ${_lst}', the trial was "
           "'${_setting}: ${_status}'")
    endif()
    set(_found 1)
  endif()
endforeach()
if(NOT _found)
  fail("no hdf5_unaligned finding in the first traces:\n${_d}")
endif()
message("ok   JSON: hdf5_unaligned's ledger has ${_ls}: ${_lst}")

execute_process(COMMAND ${ANALYZE} --diagnose --ledger ${_ledger}
    ${WORK}/first/traces
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _t)
string(REGEX MATCH "\n   ledger: hdf5\\.alignment=[^\n]* tried [0-9-]+ \\(#1\\), 2 ranks, [^\n]*: [^\n]*${_status}" _line "${_t}")
if(NOT _rc EQUAL 0 OR NOT _line)
  fail("text: no ledger line for the trial (${_status}):\n${_t}")
endif()
message("ok   text:${_line}")

execute_process(COMMAND ${ANALYZE} --diagnose --json ${WORK}/first/traces
  OUTPUT_VARIABLE _d)
if(_d MATCHES "\"ledger\"")
  fail("a \"ledger\" without --ledger")
endif()
