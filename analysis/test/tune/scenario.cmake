# A diagnosis scenario through dftracer-tune (issue 36; docs/tuning.md):
#   cmake -DTUNE=<dftracer-tune> -DPROGRAM=<hdf5_unaligned, built here>
#         -DMPIEXEC=<mpiexec> -DWORK=<dir> -P scenario.cmake
# hdf5_unaligned (test/inputs/scenarios) writes HDF5 datasets that start
# off the file system's blocks. One traced run first; then
# `--from-findings` on its traces must propose the advice's setting
# (hdf5.alignment=B,B, B the block size its FS record gave) targeting the
# finding, the runtime must apply it (took effect, from its tuning
# records), the finding must be fixed, and 4 rounds must be a design that
# decides (whatever the verdict: on a local disk alignment may not make the
# run faster, which is what "fixed" beside the verdict shows).
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/first/traces ${WORK}/first/out)

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "analysis.tune.scenario: ${_m}")
endfunction()

execute_process(
  COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
    DFTRACER_LOG_FILE=${WORK}/first/traces/
    ${MPIEXEC} -n 2 ${PROGRAM} ${WORK}/first/out
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("the traced first run failed (${_rc}): ${_err}")
endif()

execute_process(COMMAND ${TUNE} run --json --ledger ${WORK}/ledger.sqlite
    --work ${WORK}/runs --replicates 4 --from-findings ${WORK}/first/traces
    -- ${MPIEXEC} -n 2 ${PROGRAM} {run}
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _j ERROR_VARIABLE _err)
file(WRITE ${WORK}/tune.json "${_j}")
if(NOT _rc EQUAL 0)
  fail("dftracer-tune exited ${_rc}: ${_err}")
endif()
string(JSON _n LENGTH "${_j}" trials)
set(_i -1)
math(EXPR _last "${_n} - 1")
foreach(_k RANGE ${_last})
  string(JSON _setting GET "${_j}" trials ${_k} setting)
  if(_setting MATCHES "^DFTRACER_TUNE=hdf5\\.alignment=")
    set(_i ${_k})
  endif()
endforeach()
if(_i LESS 0)
  fail("--from-findings proposed no hdf5.alignment setting: ${_j}")
endif()
string(JSON _setting GET "${_j}" trials ${_i} setting)
include(${CMAKE_CURRENT_LIST_DIR}/trial_checks.cmake)
check_trial("${_j}" ${_i} "${_setting}"
  "targeted=>^hdf5_unaligned \\(write_fields\\)"
  "fixed=>hdf5_unaligned \\(write_fields\\)"
  "took_effect=>^yes: applied$"
  "status=>^(faster|slower|no detectable change)$"
  "change=>hdf5 alignment 1 -> [0-9]+")
