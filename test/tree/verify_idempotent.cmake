# tree.verify.idempotent: after tree.verify.annotate, a second run changes
# nothing but the restored file (which would be annotated, and fail, again).
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_sources(_files ${TREE_BROKEN} ${TREE_UNVERIFIABLE})
tree_annotate(check -p ${TREE_BUILD} --root ${TREE_ROOT} --check -j 2 ${_files})
if(NOT check_RC EQUAL 0 OR NOT check_OUT STREQUAL "")
  # A header restored with the unit that failed --verify is annotated by the
  # second run: see tree.verify.header_kept.
  tree_fail("--check after --verify exited with ${check_RC} and would change:\n"
            "${check_OUT}\n${check_ERR}")
endif()
