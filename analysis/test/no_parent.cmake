# Spans without level/p_idx (upstream DFTracer's dev branch) are placed by
# time on their thread: the text report's function table is the one of the
# same set written with p_idx. A set sorted by start time is reported
# (unnested_span) and flagged in the table, never silently attributed.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)

# functions_of(<out-var> <dir>): the text report's function table.
function(functions_of out dir)
  analysis_run(_text _rc ${ANALYZE} --top 1000 ${dir})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze ${dir} failed (${_rc}): ${_text}")
  endif()
  if(NOT _text MATCHES "\nFunctions by I/O time[^\n]*\n(.*)\n\n")
    analysis_fail("no function table in the report of ${dir}:\n${_text}")
  endif()
  string(REGEX REPLACE "\n\n.*" "" _table "${CMAKE_MATCH_1}")
  set(${out} "${_table}" PARENT_SCOPE)
endfunction()

foreach(_gz "" "--gzip")
  set(_flags --files 2 --spans 3000 --threads 3 --seed 21 ${_gz})
  analysis_generate(${WORK}/with${_gz} ${_flags})
  analysis_generate(${WORK}/without${_gz} ${_flags} --no-parent all)
  functions_of(_with ${WORK}/with${_gz})
  functions_of(_without ${WORK}/without${_gz})
  if(NOT _with STREQUAL _without)
    analysis_fail("${_gz}: without p_idx, the function table differs:\n"
                  "with p_idx:\n${_with}\nwithout:\n${_without}")
  endif()
  if(_without MATCHES "could not be placed")
    analysis_fail("${_gz}: spans left unplaced:\n${_without}")
  endif()
endforeach()

# Sorted by start: every other figure holds, the order is reported.
set(_dir ${WORK}/sorted)
analysis_generate(${_dir} --files 2 --spans 2000 --threads 2 --no-parent all
  --start-order --expected ${WORK}/sorted-expected.json)
execute_process(COMMAND ${ANALYZE} --json ${_dir}
  OUTPUT_FILE ${WORK}/sorted.json RESULT_VARIABLE _rc)
file(READ ${WORK}/sorted.json _json)
string(JSON _order GET "${_json}" issues counts unnested_span)
string(JSON _unplaced GET "${_json}" unattributed_spans)
if(NOT _rc EQUAL 0 OR _order LESS 1 OR _unplaced LESS 1)
  analysis_fail("sorted by start: expected unnested_span issues and "
                "unplaced spans, got ${_order} and ${_unplaced}")
endif()
file(READ ${WORK}/sorted-expected.json _want)
string(JSON _layers GET "${_want}" layers)
file(WRITE ${WORK}/sorted-layers.json "{\"layers\": ${_layers}}")
analysis_run(_out _rc ${GEN} compare ${WORK}/sorted-layers.json
  ${WORK}/sorted.json)
if(NOT _rc EQUAL 0)
  analysis_fail("sorted by start: the layers differ: ${_out}")
endif()
functions_of(_sorted ${_dir})
if(NOT _sorted MATCHES "could not be placed")
  analysis_fail("sorted by start: the function table is not flagged:\n${_sorted}")
endif()
analysis_run(_text _rc ${ANALYZE} ${_dir})
if(NOT _text MATCHES "trace-0000-app.pfw:[0-9]+: unnested_span: span ")
  analysis_fail("sorted by start: no unnested_span issue with file:line:\n${_text}")
endif()
message("without p_idx: the same function table, plain and gzip; "
        "sorted by start: ${_order} unnested_span issues")
