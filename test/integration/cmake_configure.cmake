# integration.cmake.configure: a fresh copy of cmake_project configured
# against this build through the build-tree package
# (-Dannotate_DIR=<annotate build directory>).
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR C_COMPILER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cmake_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build"
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_success(_c "configuring cmake_project")
message(STATUS "cmake_project configured in ${WORK}/build")
