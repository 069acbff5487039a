# Regenerates test/expected/kernels/NAME.c and NAME.counts.json:
# annotates every kernel, builds and runs it with tracing on, and takes the
# per-function call counts from dftracer-check --json. Run it through
# `ninja e2e-update-goldens`, then review `git diff test/expected/kernels`:
# the counts must be what the kernel's code says, not just what it did.
#   -DANNOTATE= -DCHECKER= -DEXPECTED= -DWORK= -DSRC= -DFLAGS= -DMPICC=
#   -DMPIEXEC= -DCFLAGS= -DLIBS= [-DONLY=name|name]
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
include(${CMAKE_CURRENT_LIST_DIR}/counts.cmake)
e2e_require(ANNOTATE CHECKER EXPECTED WORK SRC MPICC MPIEXEC)
e2e_split(FLAGS)
e2e_split(MPIEXEC)
e2e_split(CFLAGS)
e2e_split(LIBS)
e2e_split(ONLY)
file(MAKE_DIRECTORY ${EXPECTED})

foreach(_name ${E2E_KERNEL_NAMES})
  set(_work ${WORK}/${_name})
  set(_annotated ${_work}/annotated/${_name}.c)
  e2e_annotate(${ANNOTATE} ${SRC}/${_name}.c ${_annotated} "${FLAGS}" ${_name})
  if(NOT ONLY OR _name IN_LIST ONLY)
    file(COPY_FILE ${_annotated} ${EXPECTED}/${_name}.c)
  endif()
  e2e_compile(${MPICC} ${_annotated} ${_work}/annotated/${_name} "${CFLAGS}" "${LIBS}")
  e2e_run_kernel(${_name} ${_work} ${WORK} ${SRC} "${MPIEXEC}" annotated
                 ${_work}/traces/${_name})
  e2e_traces(_traces ${_work}/traces/${_name})
  execute_process(COMMAND ${CHECKER} --json ${_traces}
    OUTPUT_VARIABLE _report ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "dftracer-check failed on ${_name}'s traces:\n${_err}")
  endif()
  e2e_counts_from_report(_counts "${_report}")
  if(NOT ONLY OR _name IN_LIST ONLY)
    file(WRITE ${EXPECTED}/${_name}.counts.json "${_counts}")
    message(STATUS "${_name}: wrote ${_name}.c and ${_name}.counts.json")
  endif()
endforeach()
