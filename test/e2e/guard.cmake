# The overhead guard on the IOR-style kernel (issue 8): annotated with the
# default rule set, the report lists the small leaf segment_base as skipped
# by the guard and the traced run records fewer events than the same kernel
# annotated with --guard=0, whose trace does hold segment_base's spans.
#
#   cmake -DANNOTATE=... -DCHECKER=... -DSRC=ior_driver.c -DFLAGS=a|b
#         -DMPICC=... -DMPIEXEC=a|b -DCFLAGS=a|b -DLIBS=a|b -DWORK=dir
#         -DRUNARGS=a|b -P guard.cmake
cmake_minimum_required(VERSION 3.20)
foreach(_list FLAGS MPIEXEC CFLAGS LIBS RUNARGS)
  string(REPLACE "|" ";" ${_list} "${${_list}}")
endforeach()
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

set(_events "")
foreach(_variant guarded unguarded)
  set(_dir "${WORK}/${_variant}")
  file(MAKE_DIRECTORY "${_dir}/out" "${_dir}/traces")
  set(_extra "")
  if(_variant STREQUAL "unguarded")
    set(_extra --guard=0)
  endif()
  execute_process(
    COMMAND "${ANNOTATE}" ${_extra} --report "${_dir}/report.json" "${SRC}" -- ${FLAGS}
    OUTPUT_FILE "${_dir}/ior_driver.c" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "annotate (${_variant}) failed:\n${_err}")
  endif()
  file(READ "${_dir}/report.json" _report)
  string(JSON _nfun LENGTH "${_report}" files 0 functions)
  set(_reason "annotated")
  math(EXPR _last "${_nfun} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _name GET "${_report}" files 0 functions ${_i} name)
    if(_name STREQUAL "segment_base")
      string(JSON _reason ERROR_VARIABLE _none GET "${_report}" files 0 functions ${_i} reason)
      if(_none)
        set(_reason "annotated")
      endif()
    endif()
  endforeach()
  set(_want "overhead guard")
  if(_variant STREQUAL "unguarded")
    set(_want "annotated")
  endif()
  if(NOT _reason STREQUAL _want)
    message(FATAL_ERROR "${_variant}: segment_base is '${_reason}' in the report, expected '${_want}'")
  endif()

  execute_process(COMMAND "${MPICC}" ${CFLAGS} "${_dir}/ior_driver.c" -o "${_dir}/ior_driver" ${LIBS}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "build (${_variant}) failed:\n${_err}")
  endif()
  string(REPLACE "{OUT}" "${_dir}/out" _args "${RUNARGS}")
  execute_process(COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
      "DFTRACER_LOG_FILE=${_dir}/traces/trace"
      ${MPIEXEC} "${_dir}/ior_driver" ${_args}
    WORKING_DIRECTORY "${_dir}/out" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "run (${_variant}) failed:\n${_err}")
  endif()
  execute_process(COMMAND "${CHECKER}" --json "${_dir}/traces"
    OUTPUT_VARIABLE _json RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "${_variant} traces are not valid:\n${_json}")
  endif()
  string(JSON _n GET "${_json}" events)
  set(_events_${_variant} ${_n})
  message(STATUS "${_variant}: ${_n} events, segment_base ${_reason}")
endforeach()

if(NOT _events_guarded LESS _events_unguarded)
  message(FATAL_ERROR "the guard did not reduce the events: "
    "${_events_guarded} with it, ${_events_unguarded} without")
endif()
