# integration.lang.target: lang_project (issue 38) built with annotate_target()
# under cmake_minimum_required(VERSION 2.8.12), with mpicc and mpicxx. Every
# source is annotated in the language CMake compiles it in (shapes.c and
# stats.c, LANGUAGE CXX, as C++ by mpicxx; plain.c as C), the narrowing of
# narrow.cpp is parsed again with -Wno-c++11-narrowing and said once, the
# OBJECT library and the generated table.c are annotated, and the traced run
# under mpiexec -n 2 has the spans of every source. With broken.c (a GCC
# nested function) the target's summary names it with its first error and
# the build goes on; with -DANNOTATE_STRICT=ON the build fails, naming it.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR MPICC MPICXX MPIEXEC
  CHECKER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(lang_project "${WORK}/src")
set(_common "-DCMAKE_C_COMPILER=${MPICC}" "-DCMAKE_CXX_COMPILER=${MPICXX}"
  "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_configure(_c "${WORK}/src" "${WORK}/build" ${_common})
int_expect_success(_c "configuring lang_project (cmake_minimum_required 2.8.12)")
int_build(_b "${WORK}/build")
message(STATUS "${_b_OUT}")
int_expect_success(_b "building lang_project with annotate_target")
int_expect_list("${_b_ANNOTATED}"
  "shapes.c;stats.c;main.cpp;plain.c;narrow.cpp;${WORK}/build/table.c"
  "the sources annotated")
int_expect_match("${_b_OUT}" "Annotating CXX source shapes\\.c" "shapes.c's language")
int_expect_match("${_b_OUT}" "Annotating CXX source stats\\.c" "stats.c's language")
int_expect_match("${_b_OUT}" "Annotating C source plain\\.c" "plain.c's language")
int_expect_match("${_b_OUT}"
  "annotate_target\\(shapes\\): 1 file, 1 changed, 0 failed;"
  "the OBJECT library's summary")
int_expect_match("${_b_OUT}"
  "annotate_target\\(langmix\\): 5 files, 5 changed, 0 failed;"
  "the program's summary")
int_expect_no_match("${_b_OUT}" "not annotated" "building lang_project")
# The narrowing: one line naming the file and the flag.
string(REPLACE ";" "," _text "${_b_OUT}") # a ';' would split the list
string(REGEX MATCHALL "[^\n]*Clang rejects what GCC accepts[^\n]*" _lenient "${_text}")
list(LENGTH _lenient _n)
if(NOT _n EQUAL 1)
  int_fail("expected one line about narrow.cpp's narrowing, got ${_n}:\n${_b_OUT}")
endif()
int_expect_match("${_lenient}" "narrow\\.cpp:6:18: [^\n]*-Wno-c\\+\\+11-narrowing"
  "the narrowing line")
# Each copy in its language: the C++ guard in the .c files of LANGUAGE CXX,
# START and END in the C ones.
foreach(_pair "shapes/shapes.c|DFTRACER_CPP_FUNCTION"
              "langmix/stats.c|DFTRACER_CPP_FUNCTION"
              "langmix/plain.c|DFTRACER_C_FUNCTION_START"
              "langmix/_bin/table.c|DFTRACER_C_FUNCTION_START"
              "langmix/narrow.cpp|DFTRACER_CPP_FUNCTION")
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _copy)
  list(GET _pair 1 _marker)
  file(READ "${WORK}/build/annotate/${_copy}" _text)
  int_expect_match("${_text}" "${_marker}" "the annotated copy ${_copy}")
endforeach()

int_mpirun(_r "${WORK}/traces" "${WORK}/build/langmix")
int_expect_match("${_r_OUT}" "langmix: 24 2\\.50" "langmix's output")
int_check_traces("${WORK}/traces" "${WORK}/src/langmix.counts.json")

# A source Clang cannot parse: compiled as it is; the summary says why.
int_configure(_c "${WORK}/src" "${WORK}/build-broken" ${_common} -DLANGMIX_BROKEN=ON)
int_expect_success(_c "configuring lang_project with broken.c")
int_build(_b "${WORK}/build-broken")
int_expect_success(_b "building lang_project with broken.c")
int_expect_match("${_b_OUT}"
  "annotate_target\\(langmix\\): 6 files, 5 changed, 1 failed;[^\n]*\nannotate_target\\(langmix\\):   not annotated: broken\\.c: first error at [^\n]*broken\\.c:3:20: function definition is not allowed here"
  "the summary naming broken.c and its first error")
# -DANNOTATE_STRICT=ON: the same build fails, naming the file.
int_configure(_c "${WORK}/src" "${WORK}/build-broken" -DANNOTATE_STRICT=ON)
int_expect_success(_c "configuring with ANNOTATE_STRICT=ON")
int_build(_b "${WORK}/build-broken")
int_expect_failure(_b "building with broken.c and ANNOTATE_STRICT=ON")
int_expect_match("${_b_OUT}"
  "annotate_target\\(langmix\\): error: [^\n]*/broken\\.c: not annotated \\(first error at "
  "the ANNOTATE_STRICT error")
