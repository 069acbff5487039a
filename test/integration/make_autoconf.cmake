# integration.make.autoconf: ./configure CC="annotate-cc mpicc" runs its
# probes through annotate-cc untouched (no annotate-cc line in config.log),
# records the wrapper as CC, and make then builds a traced program.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR MAKE MPICC ANNOTATE_CC MPIEXEC CHECKER)
if(NOT AUTOCONF)
  message("INTEGRATION-SKIPPED: autoconf not found")
  return()
endif()

file(REMOVE_RECURSE "${WORK}")
int_copy_project(make_project "${WORK}/src")
int_run(_a COMMAND "${AUTOCONF}" WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_a "autoconf")
set(ENV{ANNOTATE_CC_VERBOSE} 1)
int_run(_c COMMAND sh ./configure "CC=${ANNOTATE_CC} ${MPICC}" WORKING_DIRECTORY "${WORK}/src")
unset(ENV{ANNOTATE_CC_VERBOSE})
int_expect_success(_c "./configure CC=\"annotate-cc mpicc\"")
message(STATUS "${_c_OUT}")
file(READ "${WORK}/src/config.log" _log)
int_expect_match("${_log}" "conftest\\.c" "config.log")
int_expect_no_match("${_log}" "annotate-cc: [^\n]*" "a configure probe went through annotate")
file(READ "${WORK}/src/config.mk" _mk)
int_regex_escape(_cc_re "${ANNOTATE_CC} ${MPICC}")
int_expect_match("${_mk}" "CC = ${_cc_re}" "config.mk")
int_expect_match("${_mk}" "MKAPP_CONFIGURED=1" "config.mk")

int_make(_m "${WORK}/src")
int_expect_success(_m "make after ./configure")
message(STATUS "${_m_OUT}")
int_expect_list("${_m_ANNOTATED}"
  "src/main.c;src/compute.c;src/io.c;src/legacy.c" "sources annotate ran on")
int_expect_match("${_m_OUT}" "-DMKAPP_CONFIGURED=1" "configure's definitions reach the compiles")

file(MAKE_DIRECTORY "${WORK}/out")
int_mpirun(_r "${WORK}/traces" "${WORK}/src/app" "${WORK}/out")
int_check_traces("${WORK}/traces" "${CMAKE_CURRENT_LIST_DIR}/make_project/app.counts.json")
