# tree.jobs: -j 2 gives byte for byte what -j 1 gives: the annotated tree
# (-o), the --diff, the --report and the summary line.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
foreach(_j 1 2)
  tree_annotate(j${_j} -p ${TREE_BUILD} --root ${TREE_ROOT} -j ${_j}
    -o ${WORK}/out${_j} --report ${WORK}/report${_j}.json)
  tree_expect_rc(j${_j} 1)
  tree_annotate(diff${_j} -p ${TREE_BUILD} --root ${TREE_ROOT} -j ${_j} --diff)
  tree_expect_rc(diff${_j} 1)
  string(REGEX MATCH "annotate: [0-9]+ files[^\n]*" _summary${_j} "${j${_j}_ERR}")
endforeach()

tree_snapshot(_out1 ${WORK}/out1)
tree_snapshot(_out2 ${WORK}/out2)
if(NOT _out1)
  tree_fail("-j 1 wrote nothing under ${WORK}/out1")
endif()
tree_expect_same_snapshot("${_out1}" "${_out2}" "-o with -j 2 against -j 1")
tree_expect_annotated(DIR ${WORK}/out1)

foreach(_pair "report1.json;report2.json" "diff1.stdout;diff2.stdout")
  list(GET _pair 0 _a)
  list(GET _pair 1 _b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
    ${WORK}/${_a} ${WORK}/${_b} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    tree_fail("${WORK}/${_a} and ${_b} differ")
  endif()
endforeach()
if(NOT _summary1 STREQUAL _summary2 OR _summary1 STREQUAL "")
  tree_fail("summary lines differ:\n${_summary1}\n${_summary2}")
endif()
