# integration.build_modes.cc: build_modes_project built through annotate-cc
# (CMake's compiler and linker launcher; mpicc and mpicxx the compilers) with
# CMAKE_EXPORT_COMPILE_COMMANDS=ON and its unity build on: the sources of
# each unity file are annotated and compiled in it (one translation unit,
# as the build has it), those relying on the precompiled header parse with
# the header. For each source, the language and flags annotate parsed it
# with (ANNOTATE_CC_KEEP's <source>.args) are those of the
# compile_commands.json entry that compiles it (its own, or its unity
# file's); the traced run has spans from every source. Then modes_core
# alone, with Clang as the compiler (its own .pch, -Xclang -include).
include(${CMAKE_CURRENT_LIST_DIR}/build_modes_common.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_CC GENERATOR MPICC MPICXX MPIEXEC CHECKER NM)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(build_modes_project "${WORK}/src")
set(_build "${WORK}/build")
set(_keep "${WORK}/keep")
int_configure(_c "${WORK}/src" "${_build}" "-DCMAKE_C_COMPILER=${MPICC}"
  "-DCMAKE_CXX_COMPILER=${MPICXX}" -DMODES_ANNOTATE=OFF
  "-DCMAKE_C_COMPILER_LAUNCHER=${ANNOTATE_CC}"
  "-DCMAKE_CXX_COMPILER_LAUNCHER=${ANNOTATE_CC}"
  "-DCMAKE_CXX_LINKER_LAUNCHER=${ANNOTATE_CC}"
  -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
int_expect_success(_c "configuring build_modes_project with annotate-cc")
set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0")
set(ENV{ANNOTATE_CC_KEEP} "${_keep}")
int_build(_b "${_build}")
unset(ENV{ANNOTATE_CC_OPTIONS})
unset(ENV{ANNOTATE_CC_KEEP})
message(STATUS "${_b_OUT}")
int_expect_success(_b "building build_modes_project with annotate-cc")
int_expect_no_match("${_b_OUT}" "annotate-cc: warning" "building with annotate-cc")
int_expect_match("${_b_OUT}"
  "annotate-cc: CMakeFiles/modes_core\\.dir/Unity/unity_0_c\\.c\\.o: 3 files, 3 changed, 0 failed;"
  "the C unity source's three sources annotated")
int_expect_match("${_b_OUT}"
  "annotate-cc: CMakeFiles/modes_core\\.dir/Unity/unity_0_cxx\\.cxx\\.o: 1 file, 1 changed, 0 failed;"
  "the C++ unity source's source annotated")
foreach(_o modes_core.dir/Unity/unity_0_c.c.o modes_core.dir/Unity/unity_0_cxx.cxx.o
           modes_objs.dir/objlib.c.o modes.dir/pch_user.c.o modes.dir/ascxx.c.o
           modes.dir/gen.c.o modes.dir/main.cpp.o)
  int_traced_object("${_build}/CMakeFiles/${_o}" yes)
endforeach()

# Each source: its own entry, or that of the unity source including it.
bm_compare_cc("${_build}" "${_keep}" "${WORK}" "${BM_SOURCES}" 2)

int_mpirun(_r "${WORK}/traces" "${_build}/modes")
int_expect_match("${_r_OUT}" "modes: 133" "modes's output")
int_check_traces("${WORK}/traces" "${WORK}/src/modes.counts.json")

# With Clang as the compiler, CMake writes cmake_pch.h.pch (this Clang's,
# which annotate's may not read) and compiles with -Xclang -include-pch
# -Xclang <pch> -Xclang -include -Xclang <header>: annotate parses with the
# header all the same.
if(BM_CLANG AND BM_CLANGXX)
  set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0")
  set(ENV{ANNOTATE_CC_KEEP} "${WORK}/keep-clang")
  bm_clang_core(cc "${WORK}/build-clang" "${WORK}" -DMODES_ANNOTATE=OFF
    "-DCMAKE_C_COMPILER_LAUNCHER=${ANNOTATE_CC}"
    "-DCMAKE_CXX_COMPILER_LAUNCHER=${ANNOTATE_CC}")
  unset(ENV{ANNOTATE_CC_OPTIONS})
  unset(ENV{ANNOTATE_CC_KEEP})
  int_expect_match("${BM_CLANG_OUT}"
    "unity_0_c\\.c\\.o: 3 files, 3 changed, 0 failed;" "modes_core's C unity source with Clang")
  bm_compare_cc("${WORK}/build-clang" "${WORK}/keep-clang" "${WORK}" "${BM_CORE_SOURCES}" 2)
else()
  message(STATUS "clang not found: modes_core with Clang's PCH is not tried")
endif()
