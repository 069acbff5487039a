# e2e_cxx phase 1: annotate a C++ kernel into the build tree, compare it with
# its golden file, and check that annotating the result changes nothing.
#   -DANNOTATE= -DNAME= -DSRC= -DGOLDEN= -DOUT= -DFLAGS=a|b|c
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/E2E.cmake)
e2e_require(ANNOTATE NAME SRC GOLDEN OUT)
e2e_split(FLAGS)
get_filename_component(_file ${OUT} NAME)

e2e_annotate(${ANNOTATE} ${SRC} ${OUT} "${FLAGS}" ${NAME})
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "${GOLDEN} is missing: run `ninja e2e-cxx-update-goldens` and review it")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GOLDEN} ${OUT}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  execute_process(COMMAND diff -u ${GOLDEN} ${OUT} OUTPUT_VARIABLE _diff)
  message(FATAL_ERROR "annotated ${_file} differs from its golden file:\n${_diff}")
endif()

# The copy keeps the .cpp extension: the language comes from it.
set(_again ${OUT}.again.cpp)
e2e_annotate(${ANNOTATE} ${OUT} ${_again} "${FLAGS}" ${NAME})
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${_again}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  execute_process(COMMAND diff -u ${OUT} ${_again} OUTPUT_VARIABLE _diff)
  message(FATAL_ERROR "annotating annotated ${_file} changed it:\n${_diff}")
endif()
file(REMOVE ${_again})
message(STATUS "${NAME}: matches ${GOLDEN}, and re-annotating changes nothing")
