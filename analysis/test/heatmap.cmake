# The reports past the rank threshold (docs/analysis.md "At scale"): a
# generated real-shape set of 24 ranks with --summarize-ranks-above 8, so
# it stays small. The HTML timeline must be the rank x time heatmap (and
# the page small: its data is bounded by rows x columns x layers, not by
# ranks), the rank tables the top and bottom ranks and quantiles; with
# --all-ranks, and below the threshold, the per-rank reports come back.
# With CHROMIUM, the page goes through browser.cmake (draws, no console
# output, fits a narrow window, screenshot not blank) and the canvas must
# have drawn exactly the non-empty cells of the data, more than none.
#   -DGEN= -DANALYZE= -DWORK= [-DCHROMIUM= -DUNSHARE=]
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_ranks 24)
analysis_generate(${WORK}/traces --files ${_ranks} --spans 400 --real-shape
  --seed 41)
set(_args ${WORK}/traces --summarize-ranks-above 8)
# The JSON report alone (stdout), whatever stderr says.
function(json_of out)
  execute_process(COMMAND ${ANALYZE} ${ARGN} --json OUTPUT_VARIABLE _json
    RESULT_VARIABLE _rc ERROR_QUIET)
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze ${ARGN} --json failed (${_rc})")
  endif()
  set(${out} "${_json}" PARENT_SCOPE)
endfunction()

analysis_run(_out _rc ${ANALYZE} ${_args} --html ${WORK}/heat.html)
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze --html failed (${_rc}): ${_out}")
endif()
analysis_run(_out _rc ${ANALYZE} ${_args} --all-ranks
  --html ${WORK}/all.html)
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze --all-ranks --html failed (${_rc}): ${_out}")
endif()
file(READ ${WORK}/heat.html _heat)
file(READ ${WORK}/all.html _all)
foreach(_id "class=\"heatmap\"" "id=\"rank-table\"" "id=\"slowest-ranks\"")
  string(FIND "${_heat}" "${_id}" _at)
  if(_at EQUAL -1)
    analysis_fail("the summarized page has no ${_id}")
  endif()
  string(FIND "${_all}" "${_id}" _at)
  if(NOT _at EQUAL -1)
    analysis_fail("the --all-ranks page has ${_id}")
  endif()
endforeach()
# Size: the heatmap's data is at most 4 layers x 24 rows x 256 columns
# characters; the per-rank page holds up to 1000 spans per rank.
file(SIZE ${WORK}/heat.html _heat_size)
file(SIZE ${WORK}/all.html _all_size)
message("summarized page ${_heat_size} bytes, --all-ranks ${_all_size}")
if(_heat_size GREATER 300000)
  analysis_fail("the summarized page is ${_heat_size} bytes (> 300000)")
endif()
if(NOT _heat_size LESS _all_size)
  analysis_fail("the heatmap page (${_heat_size}) is not smaller than the "
    "per-rank page (${_all_size})")
endif()

# The heatmap's data: 24 rows of one rank, some cells with I/O.
string(REGEX MATCH "<script id=\"timeline-data\" type=\"application/json\">[^<]*"
  _data "${_heat}")
string(REGEX REPLACE "^<script[^>]*>" "" _data "${_data}")
string(JSON _rows LENGTH "${_data}" rows)
string(JSON _layers LENGTH "${_data}" layers)
string(JSON _cols GET "${_data}" io_count)
if(NOT _rows EQUAL ${_ranks} OR _layers LESS 1 OR _cols LESS 1)
  analysis_fail("heatmap data: ${_rows} rows, ${_layers} layers, ${_cols} "
    "columns")
endif()
set(_nonzero 0)
math(EXPR _last "${_layers} - 1")
foreach(_l RANGE ${_last})
  string(JSON _cells GET "${_data}" layers ${_l} cells)
  string(LENGTH "${_cells}" _n)
  math(EXPR _want "${_rows} * ${_cols}")
  if(NOT _n EQUAL _want)
    analysis_fail("layer ${_l}: ${_n} cells, not ${_rows} x ${_cols}")
  endif()
  string(REPLACE "0" "" _cells "${_cells}")
  string(LENGTH "${_cells}" _n)
  math(EXPR _nonzero "${_nonzero} + ${_n}")
endforeach()
if(_nonzero EQUAL 0)
  analysis_fail("the heatmap has no cell with I/O")
endif()

# JSON: quantiles, top and bottom instead of the list; --all-ranks: list.
json_of(_json ${_args})
string(JSON _q LENGTH "${_json}" ranks quantiles)
string(JSON _top LENGTH "${_json}" ranks top)
string(JSON _bottom LENGTH "${_json}" ranks bottom)
string(JSON _list ERROR_VARIABLE _err GET "${_json}" ranks list)
if(NOT _q EQUAL 8 OR NOT _top EQUAL 10 OR NOT _bottom EQUAL 10 OR NOT _err)
  analysis_fail("JSON ranks: ${_q} quantiles, ${_top} top, ${_bottom} "
    "bottom, list: ${_err}")
endif()
string(JSON _p50 GET "${_json}" ranks quantiles 3 quantile)
if(NOT _p50 STREQUAL "p50")
  analysis_fail("the fourth quantile is ${_p50}, not p50")
endif()
foreach(_flags "--all-ranks" "--summarize-ranks-above;${_ranks}")
  json_of(_json ${WORK}/traces ${_flags})
  string(JSON _list LENGTH "${_json}" ranks list)
  string(JSON _q ERROR_VARIABLE _err GET "${_json}" ranks quantiles)
  if(NOT _list EQUAL ${_ranks} OR NOT _err)
    analysis_fail("JSON with ${_flags}: ${_list} ranks listed, quantiles: "
      "${_err}")
  endif()
endforeach()

# Text: the fastest ranks and the quantiles past the threshold only.
analysis_run(_text _rc ${ANALYZE} ${_args})
if(NOT _text MATCHES "\nFastest 10 ranks\n" OR
   NOT _text MATCHES "quantiles \\(nearest rank\\): min ")
  analysis_fail("the text report does not summarize the ranks:\n${_text}")
endif()
analysis_run(_text _rc ${ANALYZE} ${WORK}/traces --summarize-ranks-above
  ${_ranks})
if(_text MATCHES "Fastest|quantiles")
  analysis_fail("the text report summarizes ${_ranks} ranks at a threshold "
    "of ${_ranks}")
endif()

if(NOT CHROMIUM)
  message("chromium not given: the browser checks are skipped")
  return()
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -DCHROMIUM=${CHROMIUM}
  -DUNSHARE=${UNSHARE} -DGEN=${GEN} -DHTML=${WORK}/heat.html
  -DPNG=${WORK}/heat.png -DWORK=${WORK}/browser
  -P ${CMAKE_CURRENT_LIST_DIR}/browser.cmake
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc EQUAL 0)
  analysis_fail("the browser check of the heatmap page failed")
endif()
file(READ ${WORK}/browser/dom.html _dom)
string(REGEX MATCH "<canvas id=\"timeline-canvas\" class=\"heatmap\"[^>]*>"
  _canvas "${_dom}")
string(REGEX MATCH "data-heat-cells=\"([0-9]+)\"" _m "${_canvas}")
if(NOT _m OR NOT CMAKE_MATCH_1 EQUAL _nonzero)
  analysis_fail("the canvas drew '${CMAKE_MATCH_1}' cells, the data has "
    "${_nonzero}: ${_canvas}")
endif()
message("heatmap drawn: ${_nonzero} cells")
file(REMOVE_RECURSE ${WORK}/traces)
