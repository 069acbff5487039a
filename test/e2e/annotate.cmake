# e2e phase 1: annotate a kernel into the build tree, compare it with its
# golden file, and check that annotating the result changes nothing.
#   -DANNOTATE= -DNAME= -DSRC= -DGOLDEN= -DOUT= -DFLAGS=a|b|c
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
e2e_require(ANNOTATE NAME SRC GOLDEN OUT)
e2e_split(FLAGS)

e2e_annotate(${ANNOTATE} ${SRC} ${OUT} "${FLAGS}" ${NAME})
if(NOT EXISTS ${GOLDEN})
  message(FATAL_ERROR "${GOLDEN} is missing: run `ninja e2e-update-goldens` and review it")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${GOLDEN} ${OUT}
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  execute_process(COMMAND diff -u ${GOLDEN} ${OUT} OUTPUT_VARIABLE _diff)
  message(FATAL_ERROR "annotated ${NAME}.c differs from its golden file:\n${_diff}")
endif()

e2e_annotate(${ANNOTATE} ${OUT} ${OUT}.again.c "${FLAGS}" ${NAME})
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT} ${OUT}.again.c
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  execute_process(COMMAND diff -u ${OUT} ${OUT}.again.c OUTPUT_VARIABLE _diff)
  message(FATAL_ERROR "annotating annotated ${NAME}.c changed it:\n${_diff}")
endif()
file(REMOVE ${OUT}.again.c)
message(STATUS "${NAME}: matches ${GOLDEN}, and re-annotating changes nothing")
