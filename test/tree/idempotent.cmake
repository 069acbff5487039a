# tree.inplace.idempotent: a second run over the tree annotated by
# tree.inplace.annotate changes nothing.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_snapshot(_before ${TREE_PROJECT})
tree_sources(_files ${TREE_BROKEN})

# Every file that annotated (the broken one cannot parse): nothing to do.
tree_annotate(check -p ${TREE_BUILD} --root ${TREE_ROOT} --check -j 2 ${_files})
tree_expect_rc(check 0)
if(NOT check_OUT STREQUAL "")
  tree_fail("--check on the annotated tree would change:\n${check_OUT}")
endif()

# The whole database: only the broken file makes it fail.
tree_annotate(check_all -p ${TREE_BUILD} --root ${TREE_ROOT} --check -j 2)
tree_expect_rc(check_all 1)
if(NOT check_all_OUT STREQUAL "")
  tree_fail("--check over the database would change:\n${check_all_OUT}")
endif()

# -i again writes nothing.
tree_annotate(again -p ${TREE_BUILD} --root ${TREE_ROOT} -i -j 2 ${_files})
tree_expect_rc(again 0)
tree_snapshot(_after ${TREE_PROJECT})
tree_expect_same_snapshot("${_before}" "${_after}" "a second -i run")

# Why nothing was done, for a function of the shared header.
tree_annotate(explain -p ${TREE_BUILD} --root ${TREE_ROOT} --explain tree_clamp
  ${_files})
# (with the built-in rule that decided, issue 21)
if(NOT explain_OUT MATCHES "^include/tree/common\\.h:[0-9]+: tree_clamp: skipped: already annotated \\(built-in rule: its body already expands the rule set's annotated_markers \\(docs/rules\\.md §9\\)\\)\n$")
  tree_fail("--explain tree_clamp on the annotated tree printed:\n${explain_OUT}")
endif()
