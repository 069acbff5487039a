# integration.build_modes.target: build_modes_project (C, C++, a .c of
# LANGUAGE CXX, a generated source, an OBJECT library, precompiled headers,
# a unity build) with annotate_target and CMAKE_EXPORT_COMPILE_COMMANDS=ON.
# Every source is annotated (a source that relies on the PCH too); the
# unity build is turned off for the annotated target, said once at
# configure time; for each source, the language and flags annotate parsed
# it with (<copy>.args) are those of its copy's entry in
# compile_commands.json; the traced run has spans from every source. Then
# modes_core alone, with Clang as the compiler (its own .pch).
include(${CMAKE_CURRENT_LIST_DIR}/build_modes_common.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR MPICC MPICXX MPIEXEC
  CHECKER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(build_modes_project "${WORK}/src")
set(_build "${WORK}/build")
int_configure(_c "${WORK}/src" "${_build}" "-DCMAKE_C_COMPILER=${MPICC}"
  "-DCMAKE_CXX_COMPILER=${MPICXX}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}"
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
int_expect_success(_c "configuring build_modes_project")
string(REGEX MATCHALL "UNITY_BUILD turned off" _unity "${_c_OUT}")
list(LENGTH _unity _n)
if(NOT _n EQUAL 1)
  int_fail("expected one line about modes_core's unity build, got ${_n}:\n${_c_OUT}")
endif()
int_expect_match("${_c_OUT}"
  "annotate_target\\(modes_core\\): UNITY_BUILD turned off for this target"
  "the unity build's line")
int_build(_b "${_build}")
message(STATUS "${_b_OUT}")
int_expect_success(_b "building build_modes_project with annotate_target")
int_expect_no_match("${_b_OUT}" "not annotated" "building build_modes_project")
int_expect_match("${_b_OUT}" "annotate_target\\(modes_core\\): 4 files, 4 changed, 0 failed;"
  "modes_core's summary")
int_expect_match("${_b_OUT}" "annotate_target\\(modes\\): 4 files, 4 changed, 0 failed;"
  "modes's summary")

bm_compare_target("${_build}" "${WORK}" "${BM_SOURCES}")

int_mpirun(_r "${WORK}/traces" "${_build}/modes")
int_expect_match("${_r_OUT}" "modes: 133" "modes's output")
int_check_traces("${WORK}/traces" "${WORK}/src/modes.counts.json")

# With Clang as the compiler, CMake writes cmake_pch.h.pch (this Clang's,
# which annotate's may not read) and compiles with -Xclang -include-pch:
# annotate parses with the header all the same.
if(BM_CLANG AND BM_CLANGXX)
  bm_clang_core(target "${WORK}/build-clang" "${WORK}"
    "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
  bm_compare_target("${WORK}/build-clang" "${WORK}" "${BM_CORE_SOURCES}")
else()
  message(STATUS "clang not found: modes_core with Clang's PCH is not tried")
endif()
