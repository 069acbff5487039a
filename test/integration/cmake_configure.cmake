# integration.cmake.configure: a fresh copy of cmake_project configured
# against this build through the build-tree package
# (-Dannotate_DIR=<annotate build directory>); annotate_target(... OPTIONS
# --strip) refused.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR C_COMPILER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cmake_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build"
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_success(_c "configuring cmake_project")
message(STATUS "cmake_project configured in ${WORK}/build")

# annotate_target never changes a target's sources (it compiles annotated
# copies): OPTIONS --strip is refused at configure time, saying why.
file(MAKE_DIRECTORY "${WORK}/strip_refused")
file(WRITE "${WORK}/strip_refused/main.c" "int main(void) { return 0; }\n")
file(WRITE "${WORK}/strip_refused/CMakeLists.txt" [=[
cmake_minimum_required(VERSION 3.20)
project(strip_refused C)
find_package(annotate REQUIRED)
add_executable(app main.c)
annotate_target(app OPTIONS --strip)
]=])
int_configure(_s "${WORK}/strip_refused" "${WORK}/strip_refused/build"
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_failure(_s "annotate_target(app OPTIONS --strip)")
int_expect_match("${_s_OUT}" "OPTIONS --strip: annotate_target never changes the"
  "the annotate_target --strip error")
