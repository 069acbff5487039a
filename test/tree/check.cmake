# tree.check: --check and --diff on a fresh tree write nothing; --check
# names each file that would change (the shared header once) and exits 1.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
tree_snapshot(_before ${TREE_PROJECT})
tree_annotate(check -p ${TREE_BUILD} --root ${TREE_ROOT} --check -j 2)
tree_expect_rc(check 1)
set(_expected)
foreach(_entry ${TREE_ANNOTATED})
  string(REGEX REPLACE "=.*" "" _path "${_entry}")
  list(APPEND _expected "${_path}: would be annotated")
endforeach()
string(REGEX REPLACE "\n$" "" _got "${check_OUT}")
string(REPLACE "\n" ";" _got "${_got}")
list(SORT _got)
list(SORT _expected)
if(NOT "${_got}" STREQUAL "${_expected}")
  tree_fail("--check printed:\n${check_OUT}\nexpected one line for each of "
            "${_expected}")
endif()

tree_annotate(diff -p ${TREE_BUILD} --root ${TREE_ROOT} --diff -j 2)
tree_expect_rc(diff 1)
foreach(_entry ${TREE_ANNOTATED})
  string(REGEX REPLACE "=.*" "" _path "${_entry}")
  tree_count(_headers "${diff_OUT}" "--- a/${_path}\n")
  if(NOT _headers EQUAL 1)
    tree_fail("--diff shows ${_path} ${_headers} times, expected once")
  endif()
endforeach()

tree_snapshot(_after ${TREE_PROJECT})
tree_expect_same_snapshot("${_before}" "${_after}" "--check and --diff")
