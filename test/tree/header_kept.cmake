# tree.verify.header_kept: after tree.verify.annotate, the shared header is
# still annotated. legacy_tool.c failed --verify because of its own main;
# every other unit compiled with the annotated common.h, and so does
# legacy_tool.c once its own file is restored. Restoring common.h as well
# would strip the tracing of its functions from the whole project because of
# one file that does not even define them.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

set(_header include/tree/common.h)
file(READ ${TREE_ROOT}/${_header} _text)
tree_count(_starts "${_text}" "${TREE_START}")
set(_entries ${TREE_ANNOTATED})
list(FILTER _entries INCLUDE REGEX "^${_header}=")
string(REGEX REPLACE ".*=" "" _expected "${_entries}")
if(NOT _starts EQUAL _expected)
  tree_fail("${_header}: ${_starts} START lines after --verify restored "
            "${TREE_UNVERIFIABLE}, expected ${_expected}: the header was "
            "restored with the unit that failed, although that unit compiles "
            "with the annotated header")
endif()
