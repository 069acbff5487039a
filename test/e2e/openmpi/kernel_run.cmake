# e2e.openmpi.NAME.run: the kernel built with mpicc.openmpi (build.cmake),
# original then annotated with tracing on, under mpirun.openmpi (E2E.cmake's
# e2e_run_kernel, as with MPICH). With -DPLAIN (the original built without
# the runtime), -DPRELOAD (the runtime) and -DPRELOAD_ONE_ABI (built for
# MPICH's ABI only), PLAIN also runs preloaded with each, tracing off and
# on respectively: stdout and every
# output file must equal the plain run's, the first silent, the second
# saying once per rank that the MPIIO layer is not traced.
#   -DMPIEXEC=a|b -DNAME= -DWORK= -DE2E= -DSRC=
#   [-DPLAIN= -DPRELOAD= -DPRELOAD_ONE_ABI=]
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../E2E.cmake)
e2e_require(MPIEXEC NAME WORK E2E SRC)
e2e_split(MPIEXEC)
e2e_run_kernel(${NAME} ${WORK} ${E2E} ${SRC} "${MPIEXEC}" original)
e2e_run_kernel(${NAME} ${WORK} ${E2E} ${SRC} "${MPIEXEC}" annotated
               ${WORK}/traces/${NAME})
e2e_traces(_traces ${WORK}/traces/${NAME})
message(STATUS "${NAME}: both runs succeeded under Open MPI; traces: ${_traces}")
if(NOT PRELOAD)
  return()
endif()

# PLAIN preloaded, as the "annotated" variant of a work folder whose
# "original" is the plain run's copy, compared by e2e_compare_outputs.
foreach(_case disabled one_abi)
  set(_v ${WORK}/preload_${_case})
  file(REMOVE_RECURSE ${_v})
  file(MAKE_DIRECTORY ${_v}/annotated ${_v}/traces)
  file(COPY ${WORK}/original DESTINATION ${_v})
  file(COPY ${PLAIN} DESTINATION ${_v}/annotated)
  if(_case STREQUAL "disabled")
    set(_lib ${PRELOAD})
    set(_enable 0)
  else()
    set(_lib ${PRELOAD_ONE_ABI})
    set(_enable 1)
  endif()
  # e2e_run_kernel unsets DFTRACER_ENABLE and DFTRACER_LOG_FILE in its own
  # environment: mpirun sets them in the ranks' (-x).
  set(_mpiexec ${MPIEXEC} -x LD_PRELOAD=${_lib} -x DFTRACER_ENABLE=${_enable}
    -x DFTRACER_LOG_FILE=${_v}/traces/trace)
  e2e_run_kernel(${NAME} ${_v} ${E2E} ${SRC} "${_mpiexec}" annotated)
  e2e_compare_outputs(${_v})
  file(READ ${_v}/annotated/stderr.txt _err)
  file(GLOB _t ${_v}/traces/trace-*)
  list(LENGTH _t _n)
  if(_case STREQUAL "disabled")
    if(_n OR _err MATCHES "dftracer")
      message(FATAL_ERROR "preloaded with DFTRACER_ENABLE=0, ${NAME} left "
        "${_n} trace(s) and said:\n${_err}")
    endif()
  else()
    string(REGEX MATCHALL "dftracer: the MPIIO layer is not traced: the program runs Open MPI" _said "${_err}")
    list(LENGTH _said _ns)
    if(NOT _ns EQUAL 2 OR NOT _n EQUAL 2)
      message(FATAL_ERROR "preloaded with a runtime for MPICH's ABI only, "
        "${NAME} should run untraced at the MPI-IO layer, said once per "
        "rank (${_ns}), with a trace per rank (${_n}):\n${_err}")
    endif()
    foreach(_trace ${_t})
      file(READ ${_trace} _text)
      if(_text MATCHES "\"cat\":\"MPIIO\"" OR
         NOT _text MATCHES "\"name\":\"layer_bypassed\"[^\n]*\"layer\":\"MPIIO\"")
        message(FATAL_ERROR "${_trace}: MPI-IO events, or no layer_bypassed record of MPIIO")
      endif()
    endforeach()
  endif()
  message(STATUS "${NAME} preloaded (${_case}): same stdout and files as untraced")
endforeach()
