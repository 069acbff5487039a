# tree.explain: `annotate --explain NAME` says, for each definition of NAME,
# where it is and whether it would be annotated, and writes nothing.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()
tree_snapshot(_before ${TREE_PROJECT})
tree_sources(_files ${TREE_BROKEN})

# Line of the first line of FILE (under --root) matching REGEX.
function(line_matching out file regex)
  tree_line_number(_n ${TREE_ROOT}/${file} "${regex}")
  set(${out} ${_n} PARENT_SCOPE)
endfunction()

# NAME explained over the files (or the whole database with ALL): stdout must
# be exactly EXPECTED (lines in any order) and the exit code RC. An
# "annotated" line may name the rule that selected the function:
# "annotated (selected by default)".
function(expect_explain name rc)
  cmake_parse_arguments(_a "ALL" "" "EXPECTED" ${ARGN})
  if(_a_ALL)
    tree_annotate(explain_${name} -p ${TREE_BUILD} --root ${TREE_ROOT} --explain ${name})
  else()
    tree_annotate(explain_${name} -p ${TREE_BUILD} --root ${TREE_ROOT} --explain ${name} ${_files})
  endif()
  tree_expect_rc(explain_${name} ${rc})
  string(REGEX REPLACE "\n$" "" _out "${explain_${name}_OUT}")
  string(REGEX REPLACE "(: annotated) \\([^\n]*\\)(\n|$)" "\\1\\2" _out "${_out}")
  string(REPLACE "\n" ";" _got "${_out}")
  list(SORT _got)
  set(_want ${_a_EXPECTED})
  list(SORT _want)
  if(NOT "${_got}" STREQUAL "${_want}")
    string(REPLACE ";" "\n" _want "${_want}")
    tree_fail("--explain ${name} printed:\n${explain_${name}_OUT}\nexpected:\n${_want}")
  endif()
endfunction()

# A static function of the header included by every unit: one definition.
line_matching(_clamp include/tree/common.h "^static inline int tree_clamp\\(")
expect_explain(tree_clamp 0
  EXPECTED "include/tree/common.h:${_clamp}: tree_clamp: annotated")

# Written by a macro: skipped, and why, with the built-in rule.
line_matching(_getter include/tree/common.h "^TREE_STATS_GETTER\\(records\\)")
expect_explain(tree_stats_records 0
  EXPECTED "include/tree/common.h:${_getter}: tree_stats_records: skipped: macro expansion (built-in rule: its body is written by a macro, which annotate never edits (docs/rules.md §9))")

# A one-statement leaf: skipped by the overhead guard, which says why.
line_matching(_capacity util/buffer.c "^size_t buffer_capacity\\(")
tree_annotate(explain_capacity -p ${TREE_BUILD} --root ${TREE_ROOT} --explain buffer_capacity ${_files})
tree_expect_rc(explain_capacity 0)
if(NOT explain_capacity_OUT MATCHES "^util/buffer\\.c:${_capacity}: buffer_capacity: skipped: overhead guard[^\n]*\n$")
  tree_fail("--explain buffer_capacity printed:\n${explain_capacity_OUT}")
endif()

# Several definitions of one name, one per file.
line_matching(_main1 app/main.c "^int main\\(")
line_matching(_main2 util/buffer_selftest.c "^int main\\(")
line_matching(_main3 legacy/legacy_tool.c "^int main\\(")
expect_explain(main 0 EXPECTED
  "app/main.c:${_main1}: main: annotated"
  "util/buffer_selftest.c:${_main2}: main: annotated"
  "legacy/legacy_tool.c:${_main3}: main: annotated")

# A function of a file listed twice in the database: once.
line_matching(_flush util/buffer.c "^int buffer_flush\\(")
expect_explain(buffer_flush 0 EXPECTED "util/buffer.c:${_flush}: buffer_flush: annotated")

# Over the whole database the broken file fails: still answered, exit 1.
line_matching(_write io/writer.c "^int write_records\\(")
expect_explain(write_records 1 ALL EXPECTED "io/writer.c:${_write}: write_records: annotated")

# Outside --root (crc32.h) or unknown: no definition among the annotated files.
expect_explain(crc32_byte 1 EXPECTED "crc32_byte: no definition in the files annotated")

tree_snapshot(_after ${TREE_PROJECT})
tree_expect_same_snapshot("${_before}" "${_after}" "--explain")
