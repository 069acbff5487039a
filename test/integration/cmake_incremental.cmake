# integration.cmake.incremental: a build with nothing changed annotates
# nothing; touching one source re-annotates that source only; touching the
# header every target shares recompiles the copies without annotating.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK)

int_build(_b "${WORK}/build")
int_expect_success(_b "rebuilding cmake_project")
int_expect_list("${_b_ANNOTATED}" "" "annotated by a build with nothing changed")

file(TOUCH "${WORK}/src/apps/writer.c")
int_build(_b "${WORK}/build")
int_expect_success(_b "building after touching apps/writer.c")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}" "apps/writer.c" "annotated after touching apps/writer.c")
int_expect_match("${_b_OUT}" "writer\\.c\\.o" "writer.c recompiled")
int_expect_no_match("${_b_OUT}" "(iokit|reader)\\.c\\.o" "other sources recompiled")

file(TOUCH "${WORK}/src/include/iokit.h")
int_build(_b "${WORK}/build")
int_expect_success(_b "building after touching include/iokit.h")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}" "" "annotated after touching the shared header")
foreach(_object iokit writer reader)
  int_expect_match("${_b_OUT}" "${_object}\\.c\\.o" "${_object}.c recompiled after the header changed")
endforeach()
