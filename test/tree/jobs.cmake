# tree.jobs: -j in every form make, ninja, ctest and run-clang-tidy users
# type (-j2, -j 2, -j=2, and -j0 for the number of cores) is accepted and
# gives byte for byte what -j 1 gives: the annotated tree (-o), the --diff,
# the --report and the summary line. A value that is not a number is a usage
# error (exit 2).
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
set(_forms "-j,1" "-j2" "-j,2" "-j=2" "-j0")
set(_n 0)
foreach(_form IN LISTS _forms)
  # A form with a space is two arguments, written "-j,2" here.
  string(REPLACE "," ";" _args "${_form}")
  tree_annotate(j${_n} -p ${TREE_BUILD} --root ${TREE_ROOT} ${_args}
    -o ${WORK}/out${_n} --report ${WORK}/report${_n}.json)
  tree_expect_rc(j${_n} 1)
  tree_annotate(diff${_n} -p ${TREE_BUILD} --root ${TREE_ROOT} ${_args} --diff)
  tree_expect_rc(diff${_n} 1)
  string(REGEX MATCH "annotate: [0-9]+ files[^\n]*" _summary${_n} "${j${_n}_ERR}")
  math(EXPR _n "${_n} + 1")
endforeach()

tree_snapshot(_out0 ${WORK}/out0)
if(NOT _out0)
  tree_fail("-j 1 wrote nothing under ${WORK}/out0")
endif()
tree_expect_annotated(DIR ${WORK}/out0)
math(EXPR _last "${_n} - 1")
foreach(_i RANGE 1 ${_last})
  list(GET _forms ${_i} _form)
  string(REPLACE "," " " _form "${_form}")
  tree_snapshot(_out ${WORK}/out${_i})
  tree_expect_same_snapshot("${_out0}" "${_out}" "-o with ${_form} against -j 1")
  foreach(_file report%.json diff%.stdout)
    string(REPLACE "%" "0" _a "${_file}")
    string(REPLACE "%" "${_i}" _b "${_file}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
      ${WORK}/${_a} ${WORK}/${_b} RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      tree_fail("${WORK}/${_a} (-j 1) and ${_b} (${_form}) differ")
    endif()
  endforeach()
  if(NOT _summary0 STREQUAL _summary${_i} OR _summary0 STREQUAL "")
    tree_fail("summary lines differ (-j 1, ${_form}):\n${_summary0}\n${_summary${_i}}")
  endif()
endforeach()

foreach(_bad "-jx" "-j=-1")
  tree_annotate(bad -p ${TREE_BUILD} --root ${TREE_ROOT} ${_bad} --check)
  tree_expect_rc(bad 2)
  if(NOT bad_ERR MATCHES "for the -j option")
    tree_fail("${_bad}: no message about -j:\n${bad_ERR}")
  endif()
endforeach()
