# integration.install: `cmake --install` of this build into a temporary
# prefix installs the tool, the wrapper, the runtime, the rule sets, both
# CMake packages and the docs; the prefix is then moved (it must be
# relocatable) and outside_project is built against it, once with
# find_package(annotate) + annotate_target(), once with the installed
# annotate-cc; both programs run under mpiexec -n 2 and trace.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR GENERATOR MPICC MPIEXEC NM)

file(REMOVE_RECURSE "${WORK}")
set(_staging "${WORK}/staging")
set(_prefix "${WORK}/moved prefix")
int_run(_i COMMAND "${CMAKE_COMMAND}" --install "${ANNOTATE_BUILD_DIR}" --prefix "${_staging}")
int_expect_success(_i "cmake --install ${ANNOTATE_BUILD_DIR} --prefix ${_staging}")

foreach(_file bin/annotate bin/annotate-cc bin/dftracer-check
              share/annotate/rules/dftracer.json share/annotate/annotate-cc.conf
              include/dftracer/dftracer.h
              share/doc/annotate/README.md share/doc/annotate/integration.md)
  if(NOT EXISTS "${_staging}/${_file}")
    int_fail("cmake --install did not install ${_file}")
  endif()
endforeach()
foreach(_pattern lib*/libdftracer_core.so lib*/libdftracer_core.a
                 lib*/cmake/annotate/annotateConfig.cmake
                 lib*/cmake/annotate/annotateConfigVersion.cmake
                 lib*/cmake/annotate/AnnotateTarget.cmake
                 lib*/cmake/annotate/AnnotateSource.cmake
                 lib*/cmake/dftracer/dftracer-config.cmake)
  file(GLOB _found "${_staging}/${_pattern}")
  if(NOT _found)
    int_fail("cmake --install did not install ${_pattern}")
  endif()
endforeach()
if(NOT IS_DIRECTORY "${_staging}/bin" OR EXISTS "${_staging}/bin/annotate-cc.conf")
  int_fail("the build tree's annotate-cc.conf was installed")
endif()

# Relocatable: nothing may point back at the staging directory.
file(RENAME "${_staging}" "${_prefix}")
int_run(_v COMMAND "${_prefix}/bin/annotate" --version)
int_expect_success(_v "the installed annotate --version")

# find_package(annotate) + annotate_target(), compiled by mpicc.
int_copy_project(outside_project "${WORK}/src")
int_configure(_c "${WORK}/src" "${WORK}/build"
  "-DCMAKE_PREFIX_PATH=${_prefix}" "-DCMAKE_C_COMPILER=${MPICC}")
int_expect_success(_c "configuring outside_project against ${_prefix}")
file(STRINGS "${WORK}/build/CMakeCache.txt" _dir REGEX "^annotate_DIR:")
int_regex_escape(_prefix_re "${_prefix}")
int_expect_match("${_dir}" "^annotate_DIR:PATH=${_prefix_re}/lib[^/]*/cmake/annotate$"
  "the package found")
int_build(_b "${WORK}/build")
int_expect_success(_b "building outside_project")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}" "ranks.c" "annotated")
int_expect_no_match("${_b_OUT}" "warning" "building outside_project")
int_run(_n COMMAND "${NM}" "${WORK}/build/ranks")
int_expect_match("${_n_OUT}" "T dftracer_span_begin" "ranks links the static runtime (RUNTIME static)")
int_mpirun(_r "${WORK}/traces/cmake" "${WORK}/build/ranks")
int_expect_match("${_r_OUT}" "sum of squares 5" "ranks' output")
int_check_traces("${WORK}/traces/cmake" "${WORK}/src/counts.json"
  CHECKER "${_prefix}/bin/dftracer-check")

# The installed annotate-cc: compile and link in one command.
set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0")
int_run(_a COMMAND "${_prefix}/bin/annotate-cc" "${MPICC}" -O2 -Iinclude -o ranks_cc ranks.c
  WORKING_DIRECTORY "${WORK}/src")
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_success(_a "the installed annotate-cc")
int_expect_no_match("${_a_OUT}" "warning" "the installed annotate-cc")
int_mpirun(_r "${WORK}/traces/cc" "${WORK}/src/ranks_cc")
int_expect_match("${_r_OUT}" "sum of squares 5" "ranks_cc's output")
int_check_traces("${WORK}/traces/cc" "${WORK}/src/counts.json"
  CHECKER "${_prefix}/bin/dftracer-check")
