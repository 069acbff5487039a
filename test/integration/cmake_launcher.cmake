# integration.cmake.launcher: a CMake project that knows nothing of annotate
# is traced with annotate-cc as its compiler and linker launcher
# (-DCMAKE_C_COMPILER_LAUNCHER=annotate-cc -DCMAKE_C_LINKER_LAUNCHER=annotate-cc).
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_CC GENERATOR C_COMPILER MPIEXEC CHECKER NM)
if(CMAKE_VERSION VERSION_LESS 3.21)
  message("INTEGRATION-SKIPPED: CMAKE_C_LINKER_LAUNCHER needs CMake 3.21")
  return()
endif()

file(REMOVE_RECURSE "${WORK}")
int_copy_project(outside_project "${WORK}/src")
file(WRITE "${WORK}/src/CMakeLists.txt" [[
cmake_minimum_required(VERSION 3.21)
project(plain C)
find_package(MPI REQUIRED COMPONENTS C)
add_executable(ranks ranks.c)
target_include_directories(ranks PRIVATE include)
target_link_libraries(ranks PRIVATE MPI::MPI_C)
]])
int_configure(_c "${WORK}/src" "${WORK}/build" "-DCMAKE_C_COMPILER=${C_COMPILER}"
  "-DCMAKE_C_COMPILER_LAUNCHER=${ANNOTATE_CC}" "-DCMAKE_C_LINKER_LAUNCHER=${ANNOTATE_CC}")
int_expect_success(_c "configuring with annotate-cc as the launcher")
set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0") # ranks_square is a one-statement leaf
int_build(_b "${WORK}/build")
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_success(_b "building with annotate-cc as the launcher")
int_expect_no_match("${_b_OUT}" "warning" "building with annotate-cc as the launcher")
int_traced_object("${WORK}/build/CMakeFiles/ranks.dir/ranks.c.o" yes)
int_mpirun(_r "${WORK}/traces" "${WORK}/build/ranks")
int_expect_match("${_r_OUT}" "sum of squares 5" "ranks' output")
int_check_traces("${WORK}/traces" "${WORK}/src/counts.json")
