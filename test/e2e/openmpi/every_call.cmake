# e2e.openmpi.every_call.MODE: mpiio_every_call (built with mpicc.openmpi)
# under mpirun.openmpi -np 2 with a runtime preloaded.
#   traced        the full runtime, tracing on, DFTRACER_TUNE setting a hint:
#                 every call's event and args (mpiio_every_call.expect), an
#                 MPIIO_HINTS record per rank, the hint's `tuning` record
#   romio         the same with Open MPI's romio321 component, the
#                 non-blocking collectives replaced by blocking ones (its
#                 ufs driver crashes in them, runtime or not)
#   disabled      DFTRACER_ENABLE=0: nothing on stderr, no trace
#   untraced_abi  a runtime built for MPICH's ABI only, tracing on: the
#                 program runs as without it; one line per rank says the
#                 MPIIO layer is not traced, each trace has its
#                 layer_bypassed record and its rank (MPI_JOB), no MPI-IO
#                 event, POSIX still is
# Every mode: exit 0 and the program's own stdout (it checks every byte).
#   -DMODE= -DMPIRUN=a|b -DPROGRAM= -DWORK= -DPRELOAD= -DCHECKER= -DEXPECT=
cmake_minimum_required(VERSION 3.20)
foreach(_var MODE MPIRUN PROGRAM WORK PRELOAD CHECKER EXPECT)
  if("${${_var}}" STREQUAL "")
    message(FATAL_ERROR "-D${_var}= is required")
  endif()
endforeach()
string(REPLACE "|" ";" MPIRUN "${MPIRUN}")
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/data ${WORK}/traces)

set(_env --unset=DFTRACER_TUNE DFTRACER_LOG_FILE=${WORK}/traces/trace
  DFTRACER_DATA_DIR=${WORK}/data)
set(_mca)
set(_args)
set(_export -x LD_PRELOAD=${PRELOAD} -x DFTRACER_ENABLE -x DFTRACER_LOG_FILE
  -x DFTRACER_DATA_DIR)
if(MODE STREQUAL "disabled")
  list(APPEND _env DFTRACER_ENABLE=0)
else()
  list(APPEND _env DFTRACER_ENABLE=1)
endif()
if(MODE STREQUAL "traced" OR MODE STREQUAL "romio")
  list(APPEND _env DFTRACER_TUNE=mpiio.cb_buffer_size=2097152)
  list(APPEND _export -x DFTRACER_TUNE)
endif()
if(MODE STREQUAL "romio")
  set(_mca --mca io romio321)
  set(_args blocking-collectives)
  # The expectations with each i*_all call made blocking instead.
  file(STRINGS ${EXPECT} _lines)
  set(_spec "")
  foreach(_line ${_lines})
    if(_line MATCHES "^MPI_File_i(write|read)(_at)?_all ")
      continue()
    elseif(_line MATCHES "^MPI_File_(write|read)(_at)?_all MPIIO 2 ")
      string(REPLACE " MPIIO 2 " " MPIIO 4 " _line "${_line}")
      string(REGEX REPLACE " count=[0-9]+" "" _line "${_line}")
    endif()
    string(APPEND _spec "${_line}\n")
  endforeach()
  file(WRITE ${WORK}/romio.expect "${_spec}")
  set(EXPECT ${WORK}/romio.expect)
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${_env}
    ${MPIRUN} ${_mca} ${_export} ${PROGRAM} ${WORK}/data ${_args}
  WORKING_DIRECTORY ${WORK}
  OUTPUT_VARIABLE _out ERROR_VARIABLE _err RESULT_VARIABLE _rc)
message(STATUS "stdout:\n${_out}stderr:\n${_err}")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${PROGRAM} failed (${_rc}) in mode ${MODE}")
endif()
if(NOT _out STREQUAL "mpiio_every_call: 2 ranks, every MPI-IO call: verified\n")
  message(FATAL_ERROR "the program's output changed in mode ${MODE}")
endif()
file(GLOB _traces ${WORK}/traces/trace-*-app.pfw)
list(LENGTH _traces _n)

if(MODE STREQUAL "disabled")
  if(_n OR _err MATCHES "dftracer")
    message(FATAL_ERROR "DFTRACER_ENABLE=0 is not transparent: ${_n} "
      "trace(s), stderr:\n${_err}")
  endif()
  return()
endif()
if(NOT _n EQUAL 2)
  message(FATAL_ERROR "expected one trace per rank, found ${_n}")
endif()
set(_all "")
foreach(_t ${_traces})
  file(READ ${_t} _text)
  string(APPEND _all "${_text}")
endforeach()

if(MODE STREQUAL "untraced_abi")
  # (the line holds a ';': counted by a part without one)
  string(REGEX MATCHALL "dftracer: the MPIIO layer is not traced: the program runs Open MPI \\(" _said "${_err}")
  list(LENGTH _said _ns)
  if(NOT _ns EQUAL 2 OR NOT _err MATCHES "dftracer: the MPIIO layer is not traced: the program runs Open MPI \\([^)]*libmpi[^)]*\\) and this runtime's MPI-IO layer is built for MPICH's ABI only: its calls pass straight through; fix: configure the runtime with -DDFTRACER_MPI_OTHER_INCLUDE_DIRS=")
    message(FATAL_ERROR "expected the MPIIO layer said untraced once per rank, "
      "found ${_ns} times")
  endif()
  string(REGEX MATCHALL "\"name\":\"layer_bypassed\"[^\n]*\"layer\":\"MPIIO\",\"symbol\":\"MPI_File_open\",\"library\":\"[^\"]*libmpi[^\"]*\",\"fix\":\"configure the runtime with -DDFTRACER_MPI_OTHER_INCLUDE_DIRS" _records "${_all}")
  list(LENGTH _records _nr)
  if(NOT _nr EQUAL 2)
    message(FATAL_ERROR "expected one layer_bypassed record of MPIIO per trace, found ${_nr}")
  endif()
  # The calls passed through still tell the rank (an unannotated program).
  string(REGEX MATCHALL "\"name\":\"MPI_JOB\"[^\n]*\"args\":{\"rank\":[01],\"size\":2}" _jobs "${_all}")
  list(LENGTH _jobs _nj)
  if(NOT _nj EQUAL 2)
    message(FATAL_ERROR "expected an MPI_JOB record (rank, size 2) per trace, found ${_nj}")
  endif()
  file(WRITE ${WORK}/untraced.expect
    "* MPIIO 0\n* POSIX >=2 file=/data/every.bin\n")
  set(EXPECT ${WORK}/untraced.expect)
else()
  if(_err MATCHES "dftracer")
    message(FATAL_ERROR "the runtime complained:\n${_err}")
  endif()
  string(REGEX MATCHALL "\"name\":\"MPIIO_HINTS\"[^\n]*\"comm_size\":2,\"amode\":9,\"hints\":{[^}]*\"cb_buffer_size\":\"2097152\"" _hints "${_all}")
  string(REGEX MATCHALL "\"name\":\"tuning\"[^\n]*\"key\":\"mpiio.cb_buffer_size\"[^\n]*\"status\":\"applied\"" _tuned "${_all}")
  list(LENGTH _hints _nh)
  list(LENGTH _tuned _nt)
  if(NOT _nh EQUAL 2 OR NOT _nt EQUAL 2)
    message(FATAL_ERROR "expected an MPIIO_HINTS record with the tuned "
      "cb_buffer_size and an applied tuning record per rank: ${_nh}, ${_nt}")
  endif()
  string(REGEX MATCH "\"name\":\"MPIIO_HINTS\"[^\n]*" _one "${_all}")
  message(STATUS "hints reported (${MODE}): ${_one}")
endif()
execute_process(COMMAND ${CHECKER} --expect ${EXPECT} ${_traces}
  OUTPUT_VARIABLE _cout ERROR_VARIABLE _cout RESULT_VARIABLE _crc)
if(NOT _crc EQUAL 0)
  message(FATAL_ERROR "the trace differs from ${EXPECT}:\n${_cout}")
endif()
message(STATUS "${MODE}: ${_cout}")
