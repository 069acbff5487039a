# tree.verify.idempotent: after tree.verify.annotate, a second run changes
# nothing but the restored file (which would be annotated, and fail, again).
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_sources(_files ${TREE_BROKEN} ${TREE_UNVERIFIABLE})
tree_annotate(check -p ${TREE_BUILD} --root ${TREE_ROOT} --check -j 2 ${_files})
tree_expect_rc(check 0)
if(NOT check_OUT STREQUAL "")
  tree_fail("--check after --verify would change:\n${check_OUT}")
endif()
