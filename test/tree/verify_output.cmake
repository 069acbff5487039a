# tree.verify_output: `annotate -o OUT --verify` over the whole database. The
# sources are not touched; OUT holds the annotated files, except
# legacy_tool.c, which fails --verify and is written as it was; the broken
# file fails and is copied as it is, so that OUT is complete; exit 1.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
tree_snapshot(_before ${TREE_PROJECT})
set(_out ${WORK}/annotated)
tree_annotate(verify -p ${TREE_BUILD} --root ${TREE_ROOT} -o ${_out} --verify -j 2)
tree_expect_rc(verify 1)
tree_snapshot(_after ${TREE_PROJECT})
tree_expect_same_snapshot("${_before}" "${_after}" "-o --verify")

tree_expect_pristine(src/${TREE_UNVERIFIABLE} ${_out}/${TREE_UNVERIFIABLE})
tree_expect_pristine(src/${TREE_BROKEN} ${_out}/${TREE_BROKEN})
foreach(_named ${TREE_UNVERIFIABLE} ${TREE_BROKEN})
  string(FIND "${verify_ERR}" "${TREE_ROOT}/${_named}: error:" _at)
  if(_at EQUAL -1)
    tree_fail("stderr does not name ${_named}:\n${verify_ERR}")
  endif()
endforeach()
if(NOT verify_ERR MATCHES "mix(ed|ing) declarations and code")
  tree_fail("stderr does not carry the compiler's message:\n${verify_ERR}")
endif()
tree_expect_annotated(DIR ${_out} EXCEPT ${TREE_UNVERIFIABLE} include/tree/common.h)

# Nothing is mirrored from outside --root.
file(GLOB_RECURSE _outside ${_out}/*crc32*)
if(_outside)
  tree_fail("files from outside --root written under -o: ${_outside}")
endif()
