# Passes when a program fails: it exists, and running it (under LAUNCHER)
# exits non-zero. Its message is shown but not required: MPICH's launcher
# may drop a process's output when another rank calls MPI_Abort first.
#   -DLAUNCHER=mpiexec|-n|2 -DPROGRAM=path -DARGS=a|b
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" LAUNCHER "${LAUNCHER}")
string(REPLACE "|" ";" ARGS "${ARGS}")
if(NOT EXISTS "${PROGRAM}")
  message(FATAL_ERROR "${PROGRAM} does not exist: nothing to run")
endif()
execute_process(COMMAND ${LAUNCHER} ${PROGRAM} ${ARGS}
  OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
if(_rc EQUAL 0)
  message(FATAL_ERROR "expected a failure, but ${PROGRAM} exited 0:\n${_out}")
endif()
message(STATUS "${PROGRAM} failed as expected (exit ${_rc}):\n${_out}")
