# Proves that the e2e check catches a broken annotation: passes only when
# dftracer-check FAILS, for the reason the case introduces.
#
#   CASE=untraced_function  the golden annotated mpiio_shared.c with START and
#                           every END of write_phase() deleted (as if the
#                           annotator had skipped it): its count drops to 0.
#   CASE=wrong_counts       the golden kernel unchanged, but the expected
#                           count of main raised by one.
#
#   -DCASE= -DCHECKER= -DMPICC= -DMPIEXEC= -DCFLAGS= -DLIBS= -DGOLDEN= -DCOUNTS= -DWORK=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
e2e_require(CASE CHECKER MPICC MPIEXEC GOLDEN COUNTS WORK)
e2e_split(MPIEXEC)
e2e_split(CFLAGS)
e2e_split(LIBS)
set(_name mpiio_shared)
set(_counts ${COUNTS})
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/annotated)
file(READ ${GOLDEN} _src)

if(CASE STREQUAL "untraced_function")
  set(_function write_phase)
  string(FIND "${_src}" "static int ${_function}(" _begin)
  if(_begin LESS 0)
    message(FATAL_ERROR "${GOLDEN} has no definition of ${_function}")
  endif()
  string(SUBSTRING "${_src}" ${_begin} -1 _rest)
  string(FIND "${_rest}" "\n}\n" _len)
  string(SUBSTRING "${_rest}" 0 ${_len} _body)
  string(SUBSTRING "${_src}" 0 ${_begin} _head)
  string(SUBSTRING "${_rest}" ${_len} -1 _tail)
  string(REGEX REPLACE "[ \t]*DFTRACER_C_FUNCTION_(START|END)\\(\\);[ \t]*\n?"
         "" _stripped "${_body}")
  if(_stripped STREQUAL _body)
    message(FATAL_ERROR "${_function} in ${GOLDEN} has no START/END to remove")
  endif()
  set(_src "${_head}${_stripped}${_tail}")
  set(_expect_in_output ${_function})
elseif(CASE STREQUAL "wrong_counts")
  file(READ ${COUNTS} _json)
  include(${CMAKE_CURRENT_LIST_DIR}/counts.cmake)
  e2e_counts_get(_n "${_json}" main)
  math(EXPR _n "${_n} + 1")
  e2e_counts_set(_json "${_json}" main ${_n})
  set(_counts ${WORK}/wrong.counts.json)
  file(WRITE ${_counts} "${_json}")
  set(_expect_in_output main)
else()
  message(FATAL_ERROR "unknown CASE ${CASE}")
endif()

file(WRITE ${WORK}/annotated/${_name}.c "${_src}")
e2e_compile(${MPICC} ${WORK}/annotated/${_name}.c ${WORK}/annotated/${_name}
            "${CFLAGS}" "${LIBS}")
e2e_run_kernel(${_name} ${WORK} ${WORK} ${CMAKE_CURRENT_LIST_DIR} "${MPIEXEC}"
               annotated ${WORK}/traces/${_name})
e2e_check_traces(${CHECKER} ${WORK}/traces/${_name} 2 ${_counts} _rc _out)
if(_rc EQUAL 0)
  message(FATAL_ERROR "dftracer-check accepted the broken case ${CASE}:\n${_out}")
endif()
if(NOT _out MATCHES "${_expect_in_output}")
  message(FATAL_ERROR "dftracer-check failed (${_rc}) but without naming "
                      "${_expect_in_output}:\n${_out}")
endif()
message(STATUS "dftracer-check rejected ${CASE} as it should (${_rc}):\n${_out}")
