# The workflow of docs/rules.md §13 on a copy of a file annotated with one
# rule set: strip it in place with that rule set, annotate it in place with
# another; the result must be what annotating the original with the other
# rule set gives, and the file must have passed through its original.
#   -DANNOTATE= -DORIGINAL=inputs/NAME.c -DANNOTATED=expected/FROM/NAME.c
#   -DFROM=caliper -DTO=dftracer -DFLAGS=a;b -DWORK=dir
cmake_minimum_required(VERSION 3.20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
get_filename_component(_name ${ORIGINAL} NAME)
set(_file ${WORK}/${_name})
file(COPY_FILE ${ANNOTATED} ${_file})

function(run)
  execute_process(COMMAND ${ANNOTATE} ${ARGN} RESULT_VARIABLE _rc
    OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "annotate ${ARGN} exited ${_rc}:\n${_err}")
  endif()
  set(OUT "${_out}" PARENT_SCOPE)
endfunction()

run(${_file} -i --strip --rules=${FROM} -- ${FLAGS})
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${ORIGINAL} ${_file}
  RESULT_VARIABLE _same)
if(NOT _same EQUAL 0)
  message(FATAL_ERROR "--strip --rules=${FROM} did not give ${ORIGINAL} back: ${_file}")
endif()
run(${_file} -i --rules=${TO} -- ${FLAGS})
run(${ORIGINAL} --rules=${TO} -- ${FLAGS})
file(READ ${_file} _switched)
if(NOT _switched STREQUAL OUT)
  file(WRITE ${WORK}/expected.c "${OUT}")
  message(FATAL_ERROR "${FROM} -> ${TO}: ${_file} differs from ${WORK}/expected.c")
endif()
