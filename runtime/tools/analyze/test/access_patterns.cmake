# Ranks sharing a file in a known access pattern (dftracer_trace_gen
# access): the report's access figures, file-system type, rank figures,
# MPI-IO hints and view and HDF5 dataset must be the generator's, which
# computes them with byte maps, not the analyzer's interval sets. The
# report must also be the same with -j 1 and -j 3 (merge order).
#   cmake -DGEN=... -DANALYZE=... -DWORK=<dir> -DFLAGS=<access flags>
#         [-DLITERAL=<key=value;...>] -P access_patterns.cmake
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
# Figures stated by hand for the pattern (the definitions, not a model).
file(READ ${WORK}/actual-1.json _json)
foreach(_pair ${LITERAL})
  string(REPLACE "=" ";" _kv "${_pair}")
  list(GET _kv 0 _key)
  list(GET _kv 1 _want)
  string(JSON _got ERROR_VARIABLE _e GET "${_json}" files_all 0 access ${_key})
  if(NOT _got STREQUAL _want)
    analysis_fail("access.${_key}: expected ${_want}, got ${_got} ${_e}")
  endif()
endforeach()
# The text report shows the file system and the access table.
analysis_run(_out _rc ${ANALYZE} ${_dir})
if(NOT _out MATCHES "Access patterns")
  analysis_fail("the text report has no access table:\n${_out}")
endif()
