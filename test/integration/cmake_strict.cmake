# integration.cmake.strict: with STRICT, the file annotate cannot parse stops
# the build, and the message names the target, the file and the reason.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR C_COMPILER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cmake_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build" -DDEMO_STRICT=ON
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_success(_c "configuring cmake_project with DEMO_STRICT")
int_build(_b "${WORK}/build" reader)
int_expect_failure(_b "building the reader with STRICT")
message(STATUS "${_b_OUT}")
int_expect_match("${_b_OUT}"
  "annotate_target\\(reader\\): error: [^\n]*/apps/legacy_sum\\.c: not annotated \\([^)]+\\)"
  "the STRICT error")
int_expect_match("${_b_OUT}" "drop STRICT" "the STRICT error says what to do")
if(EXISTS "${WORK}/build/apps/annotate/reader/legacy_sum.c")
  int_fail("a failed STRICT annotation left a copy behind")
endif()
