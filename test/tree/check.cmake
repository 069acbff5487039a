# tree.check: --check and --diff on a fresh tree write nothing; --check
# names each file that would change (the shared header once) and exits 1.
# A file named twice on the command line (`a.c ./a.c`) is one file.
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

list(GET _expected 0 _first)
string(REGEX REPLACE ": would be annotated$" "" _first "${_first}")
tree_annotate(twice -p ${TREE_BUILD} --root ${TREE_ROOT} --check
  ${TREE_ROOT}/${_first} ${TREE_ROOT}/./${_first})
tree_expect_rc(twice 1)
if(NOT twice_ERR MATCHES "annotate: 1 file,")
  tree_fail("${_first} given twice was not taken as one file:\n${twice_ERR}")
endif()

tree_snapshot(_after ${TREE_PROJECT})
tree_expect_same_snapshot("${_before}" "${_after}" "--check and --diff")
