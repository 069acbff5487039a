# tree.verify.annotate: `annotate -i --verify` compiles each changed unit with
# its own compile command; legacy_tool.c, whose annotated main breaks its
# -Werror=declaration-after-statement, is restored and reported, exit 1.
# The broken file is left out so that the exit code is --verify's alone.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_sources(_files ${TREE_BROKEN})
tree_annotate(verify -p ${TREE_BUILD} --root ${TREE_ROOT} -i --verify -j 2
  --report ${WORK}/report.json ${_files})
tree_expect_rc(verify 1)

tree_expect_pristine(src/${TREE_UNVERIFIABLE} ${TREE_ROOT}/${TREE_UNVERIFIABLE})
string(FIND "${verify_ERR}" "${TREE_ROOT}/${TREE_UNVERIFIABLE}: error:" _at)
if(_at EQUAL -1)
  tree_fail("stderr does not name ${TREE_UNVERIFIABLE}:\n${verify_ERR}")
endif()
# The compiler's own message (GCC: "ISO C90 forbids mixed declarations and
# code"; Clang: "mixing declarations and code is incompatible ...").
if(NOT verify_ERR MATCHES "mix(ed|ing) declarations and code")
  tree_fail("stderr does not carry the compiler's message:\n${verify_ERR}")
endif()

# The other units compiled: they stay annotated. (The shared header is
# checked by tree.verify.header_kept.)
tree_expect_annotated(EXCEPT ${TREE_UNVERIFIABLE} include/tree/common.h)

file(READ ${WORK}/report.json _report)
string(JSON _n LENGTH "${_report}" files)
math(EXPR _last "${_n} - 1")
foreach(_i RANGE ${_last})
  string(JSON _path GET "${_report}" files ${_i} path)
  string(JSON _status GET "${_report}" files ${_i} status)
  if(_path STREQUAL "${TREE_ROOT}/${TREE_UNVERIFIABLE}")
    set(_found ${_status})
  elseif(NOT _status STREQUAL "changed")
    tree_fail("report: ${_path} is '${_status}', expected changed")
  endif()
endforeach()
if(NOT _found STREQUAL "failed")
  tree_fail("report: ${TREE_UNVERIFIABLE} is '${_found}', expected failed")
endif()
