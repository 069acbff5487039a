# The independent_mpiio scenario's pair through dftracer-tune (issue 36;
# docs/tuning.md):
#   cmake -DTUNE=<dftracer-tune> -DPROGRAM=<independent_mpiio, built here>
#         -DMPIEXEC=<mpiexec> -DWORK=<dir> -P scenario_mpiio.cmake
# independent_mpiio (test/inputs/scenarios) writes a shared file with
# independent MPI_File_write_at; `--fixed` makes the same binary use the
# collective MPI_File_write_at_all. The candidate `--try-args '--fixed'`
# must be said as the argv change and the change of MPI-IO transfer modes
# (independent -> collective, measured), fix the baseline's
# independent_mpiio finding (write_shared), and 4 rounds must decide
# (faster, slower or no detectable change: on one node collective buffering
# need not be faster, which is why "fixed" stands beside the verdict).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "analysis.tune.scenario_mpiio: ${_m}")
endfunction()

execute_process(COMMAND ${TUNE} run --json --ledger ${WORK}/ledger.sqlite
    --work ${WORK}/runs --replicates 4 --try-args --fixed
    -- ${MPIEXEC} -n 2 ${PROGRAM} {run}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _j ERROR_VARIABLE _err)
file(WRITE ${WORK}/tune.json "${_j}")
if(NOT _rc EQUAL 0)
  fail("dftracer-tune exited ${_rc}: ${_err}")
endif()
string(JSON _n LENGTH "${_j}" trials)
if(NOT _n EQUAL 1)
  fail("expected one trial, got ${_n}: ${_j}")
endif()
include(${CMAKE_CURRENT_LIST_DIR}/trial_checks.cmake)
check_trial("${_j}" 0 "--fixed"
  "setting=>--fixed"
  "fixed=>independent_mpiio \\(write_shared\\)"
  "took_effect=>^yes: in argv$"
  "status=>^(faster|slower|no detectable change)$"
  "change=>--fixed"
  "change=>MPIIO transfers independent [0-9]+ -> collective [0-9]+")
