# Regenerates test/expected/kernels_cxx/NAME.cpp and NAME.counts.json:
# annotates every C++ kernel, builds and runs it with tracing on, and takes
# the per-function call counts from dftracer-check --json. Run it through
# `ninja e2e-cxx-update-goldens`, then review `git diff test/expected/kernels_cxx`:
# the counts must be what the kernel's code says, not just what it did.
#   -DANNOTATE= -DCHECKER= -DEXPECTED= -DWORK= -DSRC= -DFLAGS= -DMPICXX=
#   -DMPIEXEC= -DCFLAGS= -DLIBS=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/../e2e/counts.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)
e2e_require(ANNOTATE CHECKER EXPECTED WORK SRC MPICXX MPIEXEC)
e2e_split(FLAGS)
e2e_split(MPIEXEC)
e2e_split(CFLAGS)
e2e_split(LIBS)
file(MAKE_DIRECTORY ${EXPECTED})

foreach(_name ${E2E_CXX_KERNEL_NAMES})
  set(_work ${WORK}/${_name})
  set(_annotated ${_work}/annotated/${_name}.cpp)
  e2e_annotate(${ANNOTATE} ${SRC}/${_name}.cpp ${_annotated} "${FLAGS}" ${_name})
  file(COPY_FILE ${_annotated} ${EXPECTED}/${_name}.cpp)
  e2e_compile(${MPICXX} ${_annotated} ${_work}/annotated/${_name} "${CFLAGS}" "${LIBS}")
  e2e_run_kernel(${_name} ${_work} ${_work} ${CMAKE_CURRENT_LIST_DIR} "${MPIEXEC}"
                 annotated ${_work}/traces/${_name})
  e2e_traces(_traces ${_work}/traces/${_name})
  execute_process(COMMAND ${CHECKER} --json ${_traces}
    OUTPUT_VARIABLE _report ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "dftracer-check failed on ${_name}'s traces:\n${_err}")
  endif()
  e2e_counts_from_report(_counts "${_report}")
  file(WRITE ${EXPECTED}/${_name}.counts.json "${_counts}")
  message(STATUS "${_name}: wrote ${_name}.cpp and ${_name}.counts.json")
endforeach()
