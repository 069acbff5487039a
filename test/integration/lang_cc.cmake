# integration.lang.cc: lang_project traced with annotate-cc as CMake's
# compiler and linker launcher, mpicc and mpicxx the compilers: the `.c`
# files of LANGUAGE CXX are compiled by mpicxx with no -x (policy CMP0119 is
# OLD under cmake_minimum_required(VERSION 2.8.12)), so annotate-cc must
# parse them as C++ because of the driver; every object is traced, the
# narrowing said once, the traced run has the spans of every source.
# ANNOTATE_EXTRA_ARGS=-Wno-c++11-narrowing silences that line; broken.c gets
# one warning with its first error, and ANNOTATE_STRICT=ON fails the build.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_CC GENERATOR MPICC MPICXX MPIEXEC CHECKER NM)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(lang_project "${WORK}/src")
set(_common "-DCMAKE_C_COMPILER=${MPICC}" "-DCMAKE_CXX_COMPILER=${MPICXX}"
  -DLANGMIX_ANNOTATE=OFF
  "-DCMAKE_C_COMPILER_LAUNCHER=${ANNOTATE_CC}"
  "-DCMAKE_CXX_COMPILER_LAUNCHER=${ANNOTATE_CC}"
  "-DCMAKE_CXX_LINKER_LAUNCHER=${ANNOTATE_CC}")
int_configure(_c "${WORK}/src" "${WORK}/build" ${_common})
int_expect_success(_c "configuring lang_project with annotate-cc")
set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0")
int_build(_b "${WORK}/build")
message(STATUS "${_b_OUT}")
int_expect_success(_b "building lang_project with annotate-cc")
int_expect_no_match("${_b_OUT}" "annotate-cc: warning" "building with annotate-cc")
string(REGEX MATCHALL "annotate-cc: [^\n]*: 1 file, 1 changed, 0 failed" _sums "${_b_OUT}")
list(LENGTH _sums _n)
if(NOT _n EQUAL 6)
  int_fail("expected 6 sources annotated, got ${_n}:\n${_b_OUT}")
endif()
string(REPLACE ";" "," _text "${_b_OUT}") # a ';' would split the list
string(REGEX MATCHALL "annotate-cc: [^\n]*Clang rejects what GCC accepts[^\n]*" _lenient "${_text}")
list(LENGTH _lenient _n)
if(NOT _n EQUAL 1)
  int_fail("expected one line about narrow.cpp's narrowing, got ${_n}:\n${_b_OUT}")
endif()
foreach(_o shapes.dir/shapes.c.o langmix.dir/main.cpp.o langmix.dir/stats.c.o
           langmix.dir/plain.c.o langmix.dir/narrow.cpp.o langmix.dir/table.c.o)
  int_traced_object("${WORK}/build/CMakeFiles/${_o}" yes)
endforeach()
int_mpirun(_r "${WORK}/traces" "${WORK}/build/langmix")
int_expect_match("${_r_OUT}" "langmix: 24 2\\.50" "langmix's output")
int_check_traces("${WORK}/traces" "${WORK}/src/langmix.counts.json")

# ANNOTATE_EXTRA_ARGS reaches annotate's parse: no second try, no line.
file(TOUCH "${WORK}/src/narrow.cpp")
set(ENV{ANNOTATE_EXTRA_ARGS} "-Wno-c++11-narrowing")
int_build(_b "${WORK}/build")
unset(ENV{ANNOTATE_EXTRA_ARGS})
int_expect_success(_b "rebuilding narrow.cpp with ANNOTATE_EXTRA_ARGS")
int_expect_match("${_b_OUT}" "narrow\\.cpp\\.o: 1 file, 1 changed, 0 failed" "narrow.cpp annotated")
int_expect_no_match("${_b_OUT}" "Clang rejects what GCC" "ANNOTATE_EXTRA_ARGS=-Wno-c++11-narrowing")

# broken.c: one warning with the first error; ANNOTATE_STRICT=ON fails.
int_configure(_c "${WORK}/src" "${WORK}/build-broken" ${_common} -DLANGMIX_BROKEN=ON)
int_expect_success(_c "configuring lang_project with broken.c")
int_build(_b "${WORK}/build-broken")
int_expect_success(_b "building lang_project with broken.c")
int_expect_one_warning("${_b_OUT}"
  "broken\\.c: not annotated \\(first error at [^\n]*broken\\.c:3:20: function definition is not allowed here"
  "broken.c")
file(TOUCH "${WORK}/src/broken.c")
set(ENV{ANNOTATE_STRICT} ON)
int_build(_b "${WORK}/build-broken")
unset(ENV{ANNOTATE_STRICT})
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_failure(_b "building broken.c with ANNOTATE_STRICT=ON")
int_expect_match("${_b_OUT}" "annotate-cc: error: [^\n]*broken\\.c: not annotated"
  "the ANNOTATE_STRICT error")
