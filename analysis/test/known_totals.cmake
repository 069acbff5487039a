# A generated trace set, analysed: every figure the generator computed from
# its own tree must be in the JSON report.
#   cmake -DGEN=<dftracer_trace_gen> -DANALYZE=<dftracer-analyze>
#         -DWORK=<dir> -DFLAGS=<generator flags> -P known_totals.cmake
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_dir ${WORK}/traces)
analysis_generate(${_dir} ${FLAGS} --expected ${WORK}/expected.json)
execute_process(COMMAND ${ANALYZE} --json ${_dir}
  OUTPUT_FILE ${WORK}/actual.json ERROR_VARIABLE _err RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze --json failed (${_rc}): ${_err}")
endif()
analysis_run(_out _rc ${GEN} compare ${WORK}/expected.json ${WORK}/actual.json)
message("${_out}")
if(NOT _rc EQUAL 0)
  analysis_fail("the report differs from the generator's totals")
endif()
