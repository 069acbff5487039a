# integration.h5bench_like.build: h5bench_project configured against this
# build (build-tree package) and built. Each annotated target says what
# annotate did in one line; the benchmark links libhdf5 before the runtime
# on its own link line, yet its NEEDED list names libdftracer_core first
# (the runtime target's link options), so HDF5's calls reach the wrappers.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR C_COMPILER
  HDF5_INCLUDE_DIR HDF5_LIBRARY READELF)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(h5bench_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build"
  "-DCMAKE_C_COMPILER=${C_COMPILER}" "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}"
  "-DHDF5_INCLUDE_DIR=${HDF5_INCLUDE_DIR}" "-DHDF5_LIBRARY=${HDF5_LIBRARY}")
int_expect_success(_c "configuring h5bench_project")
int_build(_b "${WORK}/build")
int_expect_success(_b "building h5bench_project")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}" "util.c;h5write.c" "sources annotate ran on")

# One line per target: the helper's two functions (the one-liner is not
# skipped by the default guard: it calls rand()).
foreach(_target h5util h5write)
  string(REGEX MATCHALL "annotate_target\\(${_target}\\): [0-9]" _lines "${_b_OUT}")
  list(LENGTH _lines _n)
  if(NOT _n EQUAL 1)
    int_fail("expected one summary line for ${_target}, got ${_n}:\n${_b_OUT}")
  endif()
endforeach()
int_expect_match("${_b_OUT}"
  "annotate_target\\(h5util\\): 1 file, 1 changed, 0 failed; 2 functions annotated, 0 skipped"
  "the helper library's summary")
int_expect_match("${_b_OUT}"
  "annotate_target\\(h5write\\): 1 file, 1 changed, 0 failed; [0-9]+ functions annotated, [0-9]+ skipped"
  "the benchmark's summary")

# The link line names libhdf5 first; NEEDED names the runtime first.
int_run(_e COMMAND "${READELF}" -d "${WORK}/build/h5write")
int_expect_success(_e "readelf -d h5write")
int_matches(_needed "\\(NEEDED\\)[^[]*\\[([^]]*)\\]" "${_e_OUT}")
set(_rt -1)
set(_h5 -1)
list(FIND _needed "libdftracer_core.so.0" _rt)
foreach(_lib IN LISTS _needed)
  if(_lib MATCHES "^libhdf5")
    list(FIND _needed "${_lib}" _h5)
    break()
  endif()
endforeach()
if(_rt EQUAL -1 OR _h5 EQUAL -1 OR NOT _rt LESS _h5)
  int_fail("h5write's NEEDED must name libdftracer_core before libhdf5: ${_needed}")
endif()
message(STATUS "h5write NEEDED: ${_needed}")
