# integration.make.incremental: make with nothing changed compiles nothing;
# touching one source re-annotates and recompiles only it; touching the
# shared header rebuilds the objects that include it, through the dependency
# files annotate-cc rewrote to name the originals.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK MAKE MPICC ANNOTATE_CC)

set(_cc "CC=${ANNOTATE_CC} ${MPICC}")
int_make(_m "${WORK}/src" "${_cc}")
int_expect_success(_m "make with nothing changed")
int_expect_list("${_m_ANNOTATED}" "" "annotated by make with nothing changed")

file(TOUCH "${WORK}/src/src/main.c")
int_make(_m "${WORK}/src" "${_cc}")
int_expect_success(_m "make after touching src/main.c")
message(STATUS "${_m_OUT}")
int_expect_list("${_m_ANNOTATED}" "src/main.c" "annotated after touching src/main.c")

file(TOUCH "${WORK}/src/src/settings.h")
int_make(_m "${WORK}/src" "${_cc}")
int_expect_success(_m "make after touching src/settings.h")
int_expect_list("${_m_ANNOTATED}" "src/main.c" "annotated after touching src/settings.h")

file(TOUCH "${WORK}/src/include/shared.h")
int_make(_m "${WORK}/src" "${_cc}")
int_expect_success(_m "make after touching include/shared.h")
message(STATUS "${_m_OUT}")
int_expect_list("${_m_ANNOTATED}" "src/main.c;src/compute.c;src/io.c;src/legacy.c"
  "annotated after touching include/shared.h")
