# Ranks sharing a file in a known access pattern (dftracer_trace_gen
# access): the report's access figures, file-system type, rank figures,
# MPI-IO hints and view and HDF5 dataset must be the generator's, which
# computes them with byte maps, not the analyzer's interval sets. The
# report must also be the same with -j 1 and -j 3 (merge order).
#   cmake -DGEN=... -DANALYZE=... -DWORK=<dir> -DFLAGS=<access flags>
#         [-DLITERAL=<key=value;...>] [-DFN_LITERAL=<function.key=value;...>]
#         -P access_patterns.cmake
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_dir ${WORK}/traces)
file(REMOVE_RECURSE ${_dir})
file(MAKE_DIRECTORY ${_dir})
analysis_run(_out _rc ${GEN} access --dir ${_dir} ${FLAGS}
  --expected ${WORK}/expected.json)
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer_trace_gen access ${FLAGS} failed: ${_out}")
endif()
foreach(_j 1 3)
  execute_process(COMMAND ${ANALYZE} -j ${_j} --json --all-files ${_dir}
    OUTPUT_FILE ${WORK}/actual-${_j}.json ERROR_VARIABLE _err
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze --json failed (${_rc}): ${_err}")
  endif()
endforeach()
analysis_same(${WORK}/actual-1.json ${WORK}/actual-3.json "-j 1 against -j 3")
analysis_run(_out _rc ${GEN} compare ${WORK}/expected.json ${WORK}/actual-1.json)
message("${_out}")
if(NOT _rc EQUAL 0)
  analysis_fail("the access figures differ from the generator's")
endif()
# Figures stated by hand for the pattern (the definitions, not a model);
# "absent": the key must not be there.
file(READ ${WORK}/actual-1.json _json)
function(expect_value _what _want)
  string(JSON _got ERROR_VARIABLE _e GET "${_json}" ${ARGN})
  if(_want STREQUAL "absent")
    if(NOT _e)
      analysis_fail("${_what}: expected no such key, got ${_got}")
    endif()
  elseif(NOT _got STREQUAL _want)
    analysis_fail("${_what}: expected ${_want}, got ${_got} ${_e}")
  endif()
endfunction()
foreach(_pair ${LITERAL})
  string(REGEX MATCH "^([^=]*)=(.*)$" _m "${_pair}")
  expect_value("access.${CMAKE_MATCH_1}" "${CMAKE_MATCH_2}"
    files_all 0 access ${CMAKE_MATCH_1})
endforeach()
# Per function: the function record by name, then its access object.
string(JSON _fns LENGTH "${_json}" functions)
foreach(_pair ${FN_LITERAL})
  string(REGEX MATCH "^([^.]*)\\.([^=]*)=(.*)$" _m "${_pair}")
  set(_fn "${CMAKE_MATCH_1}")
  set(_key "${CMAKE_MATCH_2}")
  set(_want "${CMAKE_MATCH_3}")
  set(_at -1)
  math(EXPR _last "${_fns} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _n GET "${_json}" functions ${_i} name)
    if(_n STREQUAL _fn)
      set(_at ${_i})
    endif()
  endforeach()
  if(_at LESS 0)
    analysis_fail("no function record named ${_fn}")
  endif()
  if(_key STREQUAL "access")
    expect_value("${_fn}.access" "${_want}" functions ${_at} access)
  else()
    expect_value("${_fn}.access.${_key}" "${_want}"
      functions ${_at} access ${_key})
  endif()
endforeach()
# The text report shows the file system and the access table.
analysis_run(_out _rc ${ANALYZE} ${_dir})
if(NOT _out MATCHES "Access patterns")
  analysis_fail("the text report has no access table:\n${_out}")
endif()
# With functions: their access table in the text and HTML reports, a row
# per function with data calls, and its memory alignment column.
if(FN_LITERAL)
  if(NOT _out MATCHES "Access patterns of the top functions[^\n]*\n[^\n]*mem_not_aligned[^\n]*\n(  [^\n]*\n)*  write_particles +0 +0 +0 +48 +45 +45 ")
    analysis_fail("the text report has no per-function access row for "
      "write_particles (48 writes, 45 seq, 45 consec):\n${_out}")
  endif()
  analysis_run(_out _rc ${ANALYZE} ${_dir} --html ${WORK}/report.html)
  file(READ ${WORK}/report.html _html)
  if(NOT _html MATCHES "id=\"function-access-table\".*<td>write_particles</td><td>0 \\(0, 0\\)</td><td>48 \\(45, 45\\)</td>")
    analysis_fail("the HTML report has no per-function access row for "
      "write_particles")
  endif()
endif()
