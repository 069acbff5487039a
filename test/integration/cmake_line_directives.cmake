# integration.cmake.line_directives: the compiler's error in an annotated
# copy names the original file and line (broken/broken.c:14), not the copy.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR C_COMPILER)
int_regex_escape(_work "${WORK}")

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cmake_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build" -DDEMO_BROKEN=ON
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_success(_c "configuring cmake_project with DEMO_BROKEN")
int_build(_b "${WORK}/build" broken)
int_expect_failure(_b "building the broken target")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}" "broken/broken.c" "annotated")
# The copy was annotated above line 14 (so the lines had to be kept).
file(READ "${WORK}/build/broken/annotate/broken/broken.c" _copy)
int_expect_match("${_copy}" "DFTRACER_C_FUNCTION_START" "the annotated copy")
int_expect_match("${_b_OUT}"
  "${_work}/src/broken/broken\\.c:14:[0-9]+: error: unused variable"
  "the error at the original file and line")
int_expect_no_match("${_b_OUT}" "annotate/broken/broken\\.c:[0-9]+" "the error names the copy")
