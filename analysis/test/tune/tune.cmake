# dftracer-tune on a real program (issue 36; docs/tuning.md):
#   cmake -DTUNE=<dftracer-tune> -DANALYZE=<dftracer-analyze>
#         -DWRITER=<tune_writer> -DPRELOAD=<libdftracer_preload.so>
#         -DWORK=<dir> -P tune.cmake
# tune_writer sleeps 1 ms after each write: 200 writes of 16 KiB take at
# least 200 ms, one write of 3.2 MiB does not, so `--try-args '-s 3276800'`
# is faster beyond any noise of the machine (the verdict's own statistics
# decide, no timing threshold here). TUNE_WRITER_CRASH makes it raise
# SIGSEGV. Each case below fails on a tree without dftracer-tune's verdicts.
cmake_minimum_required(VERSION 3.20) # IN_LIST
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(_ledger ${WORK}/ledger.sqlite)
set(_cmd -- ${WRITER} -o {run} -s 16384 -t 3276800 -d 1000)

function(fail)
  string(JOIN "" _m ${ARGN})
  message(FATAL_ERROR "analysis.tune.loop: ${_m}")
endfunction()

# tune(<out var> <case> ARGS...): dftracer-tune run --json, exit 0.
function(tune out case)
  execute_process(COMMAND ${TUNE} run --json --ledger ${_ledger}
      --preload ${PRELOAD} --work ${WORK}/${case} ${ARGN}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  file(WRITE ${WORK}/${case}.json "${_out}")
  file(WRITE ${WORK}/${case}.stderr "${_err}")
  if(NOT _rc EQUAL 0)
    fail("${case}: dftracer-tune exited ${_rc}: ${_err}")
  endif()
  set(${out} "${_out}" PARENT_SCOPE)
  set(${out}_err "${_err}" PARENT_SCOPE)
endfunction()

# trial(<json> <index> <key>...): a field of trials[index].
function(trial out json index)
  string(JSON _v ERROR_VARIABLE _e GET "${json}" trials ${index} ${ARGN})
  if(_e)
    fail("no trials[${index}].${ARGN}: ${_e}\n${json}")
  endif()
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()

function(expect what got want)
  if(NOT "${got}" STREQUAL "${want}")
    fail("${what}: '${got}', expected '${want}'")
  endif()
  message("ok   ${what}: ${got}")
endfunction()

# 1. A much bigger transfer is faster (4 replicates: the smallest p is
#    2/70 = 0.029); the crashing candidate is a failed trial with signal 11.
tune(_j effect --name tune_writer --replicates 4 --metric wall
  --try-args "-s 3276800" --try-env TUNE_WRITER_CRASH=1 ${_cmd})
trial(_s "${_j}" 0 status)
trial(_why "${_j}" 0 why)
expect("bigger transfer (why: ${_why})" "${_s}" "faster")
trial(_s "${_j}" 1 status)
expect("crashing candidate" "${_s}" "failed")
trial(_sig "${_j}" 1 failures 0 signal)
expect("crashing candidate's signal" "${_sig}" "11")
trial(_k "${_j}" 1 failures 0 kind)
expect("crashing candidate's failure" "${_k}" "signal")
trial(_dir "${_j}" 1 failures 0 run_dir)
foreach(_f stdout stderr command environment status)
  if(NOT EXISTS ${_dir}/${_f})
    fail("the failed run's ${_f} is not kept in ${_dir}")
  endif()
endforeach()

# The rounds are rotated: round 1 runs the baseline first, round 2 the
# first candidate first (the crashing one no longer runs).
file(READ ${WORK}/effect/baseline/run1/sequence _b1)
file(READ ${WORK}/effect/try1/run1/sequence _t1)
file(READ ${WORK}/effect/baseline/run2/sequence _b2)
file(READ ${WORK}/effect/try1/run2/sequence _t2)
if(NOT _b1 LESS _t1 OR NOT _t2 LESS _b2)
  fail("rounds not rotated: round 1 baseline ${_b1} try1 ${_t1}, "
       "round 2 baseline ${_b2} try1 ${_t2}")
endif()
message("ok   rounds rotated")
foreach(_args "run;--try;x" "run;--replicates;0;--try;x;--;true" "bogus")
  execute_process(COMMAND ${TUNE} ${_args} RESULT_VARIABLE _rc
    OUTPUT_QUIET ERROR_QUIET)
  expect("usage error: dftracer-tune ${_args}" "${_rc}" "2")
endforeach()

# A run past --timeout is a failed trial too ("timeout"): 200 pauses of
# 5 s cannot end within 3 s, while the baseline's 200 of 1 ms do.
tune(_j timeout --name tune_writer_timeout --replicates 1 --timeout 3
  --try-args "-d 5000000" ${_cmd})
trial(_s "${_j}" 0 status)
expect("candidate past --timeout" "${_s}" "failed")
trial(_k "${_j}" 0 failures 0 kind)
expect("its failure" "${_k}" "timeout")

# A --work that already holds runs is refused (usage error, exit 2): its
# old traces would be analysed with the new ones.
execute_process(COMMAND ${TUNE} run --ledger ${_ledger} --preload ${PRELOAD}
    --work ${WORK}/timeout --replicates 1 --try-env X=1 ${_cmd}
  RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
if(NOT _rc EQUAL 2 OR NOT _err MATCHES "is not empty: give a new --work")
  fail("a used --work was not refused (exit ${_rc}): ${_err}")
endif()
message("ok   a used --work refused")

# 2. The same verdict from dftracer-analyze --compare over the run
#    directories (4 baseline replicates against 4 changed ones).
set(_base)
set(_changed)
foreach(_r 1 2 3 4)
  list(APPEND _base --compare ${WORK}/effect/baseline/run${_r}/traces)
  list(APPEND _changed ${WORK}/effect/try1/run${_r}/traces)
endforeach()
execute_process(COMMAND ${ANALYZE} --json --metric wall ${_base} --replicates
    ${_changed} RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("dftracer-analyze --compare exited ${_rc}: ${_err}")
endif()
string(JSON _s GET "${_out}" compare verdict status)
expect("--compare verdict over the replicates" "${_s}" "faster")
string(JSON _n GET "${_out}" compare verdict baseline n)
expect("--compare baseline replicates" "${_n}" "4")
string(JSON _f GET "${_out}" compare verdict changed n)
expect("--compare changed replicates" "${_f}" "4")

# 3. Run again: the crashing setting is skipped, the ledger entry printed.
tune(_j again --name tune_writer --replicates 1 --metric wall
  --try-env TUNE_WRITER_CRASH=1 --try-args "-s 3276800" ${_cmd})
if(NOT _j_err MATCHES "skipping #1 \\(env TUNE_WRITER_CRASH=1\\): the ledger has #[0-9]+ [^\n]*failed \\(signal 11")
  fail("the crashing setting was not skipped with its ledger entry: ${_j_err}")
endif()
message("ok   crashing setting skipped on the next run")
string(JSON _n LENGTH "${_j}" trials)
expect("trials of the second run (the skipped one is not one)" "${_n}" "1")

# 4. One run a side, then three: the design cannot decide, and says why.
trial(_s "${_j}" 0 status)
expect("1 against 1" "${_s}" "cannot decide")
trial(_why "${_j}" 0 why)
if(NOT _why MATCHES "1 run against 1 run: the smallest p any result can give is 1,")
  fail("1 against 1 does not say why: ${_why}")
endif()
tune(_j three --name tune_writer --replicates 3 --metric wall
  --try-args "-s 3276800" ${_cmd})
trial(_s "${_j}" 0 status)
expect("3 against 3" "${_s}" "cannot decide")
trial(_why "${_j}" 0 why)
if(NOT _why MATCHES "3 runs against 3 runs: the smallest p any result can give is 0.1,")
  fail("3 against 3 does not say why: ${_why}")
endif()

# 5. Two identical configurations (a variable the program ignores): no
#    detectable change. A test at 0.05 calls identical configurations
#    different in about 3% of 4-against-4 trials by design (any split of
#    8 independent runs into two sides is as likely, 2 of the 70 are
#    separated), and more often on a machine whose load drifts from one run
#    to the next (neighbouring runs share it); so a detectable change is
#    re-run, up to three trials in all, and three in a row fail. The re-runs
#    pass --retry: the ledger now says the setting was slower, and without
#    it the setting would be skipped (no trial at all).
foreach(_try 1 2 3)
  set(_retry)
  if(_try GREATER 1)
    set(_retry --retry)
  endif()
  tune(_j same${_try} --name tune_writer --replicates 4 --metric wall
    ${_retry} --try-env TUNE_WRITER_IGNORED=1 ${_cmd})
  trial(_s "${_j}" 0 status)
  if(_s STREQUAL "no detectable change")
    break()
  endif()
  message("note identical configurations gave '${_s}' (chance at 0.05); again")
endforeach()
expect("identical configurations" "${_s}" "no detectable change")

# 6. Two runners on one ledger at once (execute_process runs its commands
#    together, as a pipeline: the first one's output goes to a file, not
#    into the second): both trials are written, neither fails on the lock.
execute_process(
  COMMAND sh -c "exec \"$@\" > ${WORK}/together1.out" sh ${TUNE} run --ledger ${_ledger} --preload ${PRELOAD}
    --work ${WORK}/together1 --name together --replicates 2
    --try-args "-s 32768" ${_cmd}
  COMMAND ${TUNE} run --ledger ${_ledger} --preload ${PRELOAD}
    --work ${WORK}/together2 --name together --replicates 2
    --try-args "-s 65536" ${_cmd}
  RESULTS_VARIABLE _rcs OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rcs STREQUAL "0;0")
  fail("two runners on one ledger: exit ${_rcs}: ${_err}")
endif()
execute_process(COMMAND ${TUNE} ledger --ledger ${_ledger} --app together
  --json OUTPUT_VARIABLE _out)
string(JSON _n LENGTH "${_out}" trials)
expect("trials of two runners at once" "${_n}" "2")

# 7. The ledger: every trial, as JSON and as markdown.
execute_process(COMMAND ${TUNE} ledger --ledger ${_ledger} --app tune_writer
  --json RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("ledger --json exited ${_rc}: ${_err}")
endif()
string(JSON _n LENGTH "${_out}" trials)
if(_n LESS 5)
  fail("the ledger holds ${_n} trials, expected 5 or more:\n${_out}")
endif()
execute_process(COMMAND ${TUNE} ledger --ledger ${_ledger} --markdown
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out)
if(NOT _out MATCHES "result: failed, signal 11 in round 1"
   OR NOT _out MATCHES "env TUNE_WRITER_CRASH=1: failed")
  fail("the markdown ledger lacks the failed trial:\n${_out}")
endif()
message("ok   ledger: ${_n} trials, markdown with the failure")

# 8. DFTRACER_TUNE candidates on an HDF5 program (when built): whether
#    each took effect, from the runtime's tuning records; and what changed,
#    from dftracer-analyze --compare (compare.changes).
if(H5)
  tune(_j h5 --name tune_h5 --replicates 1 --try "hdf5.alignment=4096,4096"
    --try "hdf5.bogus=1" -- ${H5} -o {run})
  trial(_t "${_j}" 0 took_effect)
  expect("hdf5.alignment took effect" "${_t}" "yes: applied")
  trial(_t "${_j}" 1 took_effect)
  if(NOT _t MATCHES "^no: invalid \\(hdf5.bogus=1: unknown key")
    fail("an unknown key did not say it took no effect: '${_t}'")
  endif()
  message("ok   unknown key: ${_t}")
  execute_process(COMMAND ${ANALYZE} --json --compare
      ${WORK}/h5/baseline/run1/traces ${WORK}/h5/try1/run1/traces
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    fail("dftracer-analyze --compare (h5) exited ${_rc}: ${_err}")
  endif()
  string(JSON _n LENGTH "${_out}" compare changes)
  set(_found)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _scope GET "${_out}" compare changes ${_i} scope)
    string(JSON _key GET "${_out}" compare changes ${_i} key)
    string(JSON _after GET "${_out}" compare changes ${_i} after)
    list(APPEND _found "${_scope} ${_key}=${_after}")
  endforeach()
  foreach(_want "tuning DFTRACER_TUNE hdf5.alignment on data.h5=4096,4096: applied"
                "env DFTRACER_TUNE=hdf5.alignment=4096,4096"
                "file data.h5 hdf5 alignment=4096")
    if(NOT _want IN_LIST _found)
      fail("compare.changes lacks '${_want}': ${_found}")
    endif()
  endforeach()
  string(JSON _line GET "${_out}" compare changed)
  message("ok   ${_line}")
else()
  message("note tune_h5 not built (MPICH's HDF5 not found): no DFTRACER_TUNE case")
endif()

# 9. A ledger of a newer schema is refused (when sqlite3 is here to make one).
find_program(_sqlite3 sqlite3)
if(_sqlite3)
  execute_process(COMMAND ${_sqlite3} ${WORK}/newer.sqlite
    "PRAGMA user_version = 99;")
  execute_process(COMMAND ${TUNE} ledger --ledger ${WORK}/newer.sqlite
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 1 OR NOT _err MATCHES "schema is version 99, newer than")
    fail("a newer ledger was not refused (exit ${_rc}): ${_err}")
  endif()
  message("ok   newer ledger refused")
else()
  message("note sqlite3 not found: the newer-schema check is not run")
endif()
