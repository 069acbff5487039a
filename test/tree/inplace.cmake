# tree.inplace.annotate: `annotate -p BUILD --root src -i -j 2 --report` over
# the whole compile database, without --verify.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

# --verbose: a line per configuration as it starts (counted below).
tree_annotate(inplace -p ${TREE_BUILD} --root ${TREE_ROOT} -i -j 2
  --report ${WORK}/report.json --verbose)

# The broken file fails: exit 1, named on stderr, left byte for byte.
tree_expect_rc(inplace 1)
string(FIND "${inplace_ERR}" "${TREE_ROOT}/${TREE_BROKEN}: error:" _at)
if(_at EQUAL -1)
  tree_fail("stderr does not name ${TREE_BROKEN} as failed:\n${inplace_ERR}")
endif()
tree_expect_pristine(src/${TREE_BROKEN} ${TREE_ROOT}/${TREE_BROKEN})

# Every project file and the shared header annotated exactly once: without
# --verify, legacy_tool.c is annotated too (it is its build that fails).
tree_expect_annotated()

# Outside --root, and headers with nothing to annotate: untouched.
foreach(_f ${TREE_OUTSIDE})
  tree_expect_pristine(${_f} ${TREE_PROJECT}/${_f})
endforeach()
foreach(_f ${TREE_NOTHING_TO_DO})
  tree_expect_pristine(src/${_f} ${TREE_ROOT}/${_f})
endforeach()

# One unit per distinct file, planned once per compile command: buffer.c,
# listed twice with different -D, is planned under both.
string(REGEX MATCHALL "\\[[0-9]+/[0-9]+\\] [^\n]*" _progress "${inplace_ERR}")
list(LENGTH _progress _units)
if(NOT _units EQUAL TREE_CONFIGURATIONS)
  tree_fail("${_units} progress lines, expected ${TREE_CONFIGURATIONS}:\n${inplace_ERR}")
endif()
list(FILTER _progress INCLUDE REGEX "/util/buffer\\.c")
list(LENGTH _progress _buffer)
if(NOT _buffer EQUAL 2 OR NOT _progress MATCHES "buffer\\.c \\[compile command 2 of 2\\]")
  tree_fail("buffer.c planned ${_buffer} times, expected under both of its "
            "compile commands:\n${inplace_ERR}")
endif()

# ... so buffer_dump(), compiled only under the second, is annotated, and so
# is the return that only the second compiles.
file(READ ${TREE_ROOT}/util/buffer.c _buffer_c)
if(NOT _buffer_c MATCHES "void buffer_dump\\(const struct tree_buffer \\*b\\)\n{\n    DFTRACER_C_FUNCTION_START\\(\\);\n    fprintf")
  tree_fail("util/buffer.c: buffer_dump() was not annotated, so buffer.c was "
            "not planned with its second compile command:\n${_buffer_c}")
endif()
if(NOT _buffer_c MATCHES "if \\(sink == NULL\\) { /\\* annotate \\*/\n        DFTRACER_C_FUNCTION_END\\(\\);\n        return;")
  tree_fail("util/buffer.c: the return under '#if TREE_BUFFER_CAPACITY < 64' "
            "has no END:\n${_buffer_c}")
endif()
if(inplace_ERR MATCHES "not compiled here")
  tree_fail("a return was reported as compiled by no configuration:\n${inplace_ERR}")
endif()

string(CONCAT _summary "annotate: ${TREE_UNITS} files, [0-9]+ changed, 1 failed; "
  "${TREE_FUNCTIONS_ANNOTATED} functions annotated, "
  "${TREE_FUNCTIONS_SKIPPED} skipped \\(2 macro expansion, 1 overhead guard\\)")
if(NOT inplace_ERR MATCHES "${_summary}")
  tree_fail("summary line does not match '${_summary}':\n${inplace_ERR}")
endif()
