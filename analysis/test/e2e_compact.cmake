# An e2e kernel (already built and run by test/e2e) run again writing the
# compact format beside .pfw (DFTRACER_TEST_BOTH_FORMATS=1): each .pfc must
# convert to its .pfw byte for byte, dftracer-analyze must report the .pfc
# files exactly as the .pfw files, and a mix of both forms of the two ranks
# too; the report meets the kernel's expected attribution (as e2e.cmake).
#   -DANALYZE= -DCONVERTER= -DGEN= -DEXPECTED=<json> -DWORK=<dir>
#   -DE2E_DIR=<test/e2e sources> -DE2E=<e2e work> -DSRC=<kernel sources>
#   -DMPIEXEC=mpiexec|-n|2 -DNAME=<kernel>
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
include(${E2E_DIR}/E2E.cmake)
e2e_split(MPIEXEC)
set(_kernel_work ${E2E}/${NAME})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/compact)
configure_file(${_kernel_work}/annotated/${NAME} ${WORK}/compact/${NAME}
  COPYONLY)
e2e_run_kernel(${NAME} ${WORK} ${E2E} ${SRC}
  "env;DFTRACER_TRACE_FORMAT=compact;DFTRACER_TEST_BOTH_FORMATS=1;${MPIEXEC}"
  compact ${WORK}/traces/${NAME})
file(GLOB _pfc "${WORK}/traces/*.pfc")
file(GLOB _pfw "${WORK}/traces/*.pfw")
list(SORT _pfc)
list(SORT _pfw)
list(LENGTH _pfc _n)
list(LENGTH _pfw _m)
if(_n EQUAL 0 OR NOT _n EQUAL _m)
  analysis_fail("expected as many .pfc as .pfw files: ${_pfc} / ${_pfw}")
endif()
foreach(_c IN LISTS _pfc)
  string(REGEX REPLACE "\\.pfc$" ".pfw" _w "${_c}")
  analysis_run(_out _rc ${CONVERTER} -o ${_c}.converted ${_c})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-convert ${_c} failed: ${_out}")
  endif()
  analysis_same(${_c}.converted ${_w} "${_c} converted")
  file(REMOVE ${_c}.converted)
endforeach()

# report(OUT FILES...): dftracer-analyze --strict --json, file names
# replaced by their stem (the two forms differ there only).
function(report out)
  analysis_run(_json _rc ${ANALYZE} --strict --json -j 1 ${ARGN})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze --strict on ${ARGN} failed (${_rc}): ${_json}")
  endif()
  string(REGEX REPLACE "\\.pfc\"" ".pfw\"" _json "${_json}")
  set(${out} "${_json}" PARENT_SCOPE)
endfunction()
report(_from_pfw ${_pfw})
report(_from_pfc ${_pfc})
if(NOT _from_pfc STREQUAL _from_pfw)
  file(WRITE ${WORK}/from_pfw.json "${_from_pfw}")
  file(WRITE ${WORK}/from_pfc.json "${_from_pfc}")
  analysis_fail("the .pfc files are analysed differently from the .pfw: "
                "diff ${WORK}/from_pfw.json ${WORK}/from_pfc.json")
endif()
list(GET _pfc 0 _first)
list(REMOVE_AT _pfw 0)
report(_mixed ${_first} ${_pfw})
if(NOT _mixed STREQUAL _from_pfw)
  file(WRITE ${WORK}/mixed.json "${_mixed}")
  analysis_fail("a mix of .pfc and .pfw is analysed differently: "
                "diff ${WORK}/from_pfw.json ${WORK}/mixed.json")
endif()
file(WRITE ${WORK}/report.json "${_from_pfc}")
analysis_run(_out _rc ${GEN} compare ${EXPECTED} ${WORK}/report.json --partial)
message("${_out}")
if(NOT _rc EQUAL 0)
  analysis_fail("the kernel's I/O attribution from .pfc differs from ${EXPECTED}")
endif()
