# tree.filter_file: `annotate --filter-file FILE` (the format of
# `dftracer-analyze --suggest-filter`): its rules apply after the rule set's
# and before the command line's, in file order, and --explain names the line
# that decided; a line that is not a rule is `FILE:LINE: reason`, exit 2,
# nothing written.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

file(REMOVE_RECURSE ${WORK})
file(WRITE ${TREE_ROOT}/hot.c [[
#include <stdio.h>
int uniform_random_number(int s) { printf("%d\n", s); return s * 7; }
int uniform_keep(int s) { printf("%d\n", s); return s + 1; }
int other(int s) { printf("%d\n", s); return s - 1; }
]])
file(WRITE ${TREE_ROOT}/vendor/lib.c [[
#include <stdio.h>
int vendored(int s) { printf("%d\n", s); return s; }
]])
file(WRITE ${WORK}/hot.filter [[
# from a trace: hot and short
exclude-function uniform_*

include-function uniform_keep
exclude-file vendor/*
]])
file(WRITE ${TREE_BUILD}/compile_commands.json "[
  {\"directory\": \"${TREE_ROOT}\", \"file\": \"hot.c\", \"command\": \"cc -c hot.c\"},
  {\"directory\": \"${TREE_ROOT}\", \"file\": \"vendor/lib.c\", \"command\": \"cc -c vendor/lib.c\"}
]\n")

function(_explain name expected)
  tree_annotate(explain_${name} -p ${TREE_BUILD} --root ${TREE_ROOT}
    --filter-file ${WORK}/hot.filter ${ARGN} --explain ${name})
  tree_expect_rc(explain_${name} 0)
  string(REGEX REPLACE "([][().*+?^$|\\])" "\\\\\\1" _re "${expected}")
  if(NOT explain_${name}_OUT MATCHES "${_re}\n$")
    tree_fail("--explain ${name} printed:\n${explain_${name}_OUT}\nexpected:\n${expected}")
  endif()
endfunction()

_explain(uniform_random_number
  "hot.c:2: uniform_random_number: skipped: filtered out (excluded by exclude 'uniform_*' (${WORK}/hot.filter:2))")
_explain(uniform_keep
  "hot.c:3: uniform_keep: annotated (included by include 'uniform_keep' (${WORK}/hot.filter:4))")
_explain(other "hot.c:4: other: annotated (selected by default)")
_explain(vendored
  "vendor/lib.c:2: vendored: skipped: filtered out (file vendor/lib.c excluded by exclude 'vendor/*' (${WORK}/hot.filter:5))")
# The command line's filters come after the file's: they win.
_explain(uniform_keep
  "hot.c:3: uniform_keep: skipped: filtered out (excluded by exclude 'uniform_keep' (--exclude-function))"
  --exclude-function uniform_keep)

# Errors: FILE:LINE: reason, exit 2, nothing written.
file(WRITE ${WORK}/bad.filter "# ok\nexclude-function f\nexclude-functions g\n")
file(READ ${TREE_ROOT}/hot.c _before)
tree_annotate(bad -p ${TREE_BUILD} --root ${TREE_ROOT} -i --filter-file ${WORK}/bad.filter)
tree_expect_rc(bad 2)
if(NOT bad_ERR STREQUAL "annotate: error: ${WORK}/bad.filter:3: unknown rule 'exclude-functions' (expected exclude-function, include-function, exclude-file or include-file)\n")
  tree_fail("bad filter file: printed\n${bad_ERR}")
endif()
file(WRITE ${WORK}/bad2.filter "include-file re:(\n")
tree_annotate(bad2 -p ${TREE_BUILD} --root ${TREE_ROOT} -i --filter-file ${WORK}/bad2.filter)
tree_expect_rc(bad2 2)
if(NOT bad2_ERR MATCHES "^annotate: error: ${WORK}/bad2\\.filter:1: ")
  tree_fail("bad pattern in a filter file: printed\n${bad2_ERR}")
endif()
tree_annotate(missing -p ${TREE_BUILD} --root ${TREE_ROOT} -i --filter-file ${WORK}/none.filter)
tree_expect_rc(missing 2)
file(READ ${TREE_ROOT}/hot.c _after)
if(NOT _before STREQUAL _after)
  tree_fail("a run with a bad filter file wrote hot.c")
endif()
