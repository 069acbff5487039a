# Every diagnosis scenario's pair through dftracer-tune (issue 36;
# docs/tuning.md, "Checked by"): the problem (test/inputs/scenarios/NAME.c)
# as the baseline and the same binary with `--fixed` (its twin) as the one
# candidate, 4 replicates each, interleaved. For each pair:
#   - the candidate is said as the argv change and took effect (in argv);
#   - it fixed the scenario's finding, named with its function;
#   - 4 against 4 decides: faster, slower or no detectable change (whether
#     a fix is faster on one node is the machine's business, which is why
#     "fixed" stands beside the verdict).
#   cmake -DTUNE=<dftracer-tune> -DMPIEXEC=<mpiexec> -DBIN_DIR=<dir of
#         tune_pair_NAME> "-DPAIRS=NAME:RANKS:KIND:FUNCTION;..." -DWORK=<dir>
#         -P scenario_pairs.cmake
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "analysis.tune.scenario_pairs: ${_m}")
endfunction()
include(${CMAKE_CURRENT_LIST_DIR}/trial_checks.cmake)

set(_summary)
foreach(_pair ${PAIRS})
  string(REPLACE ":" ";" _f "${_pair}")
  list(GET _f 0 _name)
  list(GET _f 1 _np)
  list(GET _f 2 _kind)
  list(GET _f 3 _function)
  execute_process(COMMAND ${TUNE} run --json --name ${_name}
      --ledger ${WORK}/ledger.sqlite --work ${WORK}/${_name}
      --replicates 4 --try-args --fixed
      -- ${MPIEXEC} -n ${_np} ${BIN_DIR}/tune_pair_${_name} {run}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _j ERROR_VARIABLE _err)
  file(WRITE ${WORK}/${_name}.json "${_j}")
  if(NOT _rc EQUAL 0)
    fail("${_name}: dftracer-tune exited ${_rc}: ${_err}")
  endif()
  string(JSON _n LENGTH "${_j}" trials)
  if(NOT _n EQUAL 1)
    fail("${_name}: expected one trial, got ${_n}: ${_j}")
  endif()
  check_trial("${_j}" 0 "${_name} --fixed"
    "setting=>--fixed"
    "took_effect=>^yes: in argv$"
    "change=>--fixed"
    "fixed=>${_kind} \\(${_function}\\)"
    "status=>^(faster|slower|no detectable change)$")
  string(JSON _s GET "${_j}" trials 0 status)
  string(JSON _c GET "${_j}" trials 0 change)
  list(APPEND _summary "${_name}: ${_kind} fixed, ${_s} (${_c})")
endforeach()
string(JOIN "\n  " _summary ${_summary})
message("scenario pairs through dftracer-tune:\n  ${_summary}")
