# dftracer_trace_gen --total-spans: the same events over few or many files
# (bench/analysis's sets, issue 41). Each set holds the total within one
# file's excess (a file ends on a whole phase), where --spans TOTAL/FILES
# put ~10 more spans in every file; and the analyzer reports what the
# generator counted.
#   cmake -DGEN=<dftracer_trace_gen> -DANALYZE=<dftracer-analyze>
#         -DWORK=<dir> -P total_spans.cmake
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_total 6000)
foreach(_files 4 40)
  set(_dir ${WORK}/f${_files})
  analysis_generate(${_dir} --files ${_files} --total-spans ${_total}
    --seed 13 --compute 4 --real-shape --expected ${WORK}/expected${_files}.json)
  file(READ ${WORK}/expected${_files}.json _expected)
  string(JSON _spans GET "${_expected}" spans)
  math(EXPR _off "${_spans} - ${_total}")
  if(_off LESS -64 OR _off GREATER 64)
    analysis_fail("${_files} files: ${_spans} spans, not ${_total} within 64")
  endif()
  execute_process(COMMAND ${ANALYZE} --json ${_dir}
    OUTPUT_FILE ${WORK}/actual${_files}.json ERROR_VARIABLE _err
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze --json failed (${_rc}): ${_err}")
  endif()
  analysis_run(_out _rc ${GEN} compare ${WORK}/expected${_files}.json
    ${WORK}/actual${_files}.json)
  if(NOT _rc EQUAL 0)
    analysis_fail("${_files} files: the report differs from the generator's "
                  "totals: ${_out}")
  endif()
  message("${_files} files: ${_spans} spans (asked ${_total})")
endforeach()
