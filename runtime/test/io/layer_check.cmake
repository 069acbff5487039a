# runtime.io_layer_*: does the program's HDF5 reach the runtime's wrappers?
#   cmake -DPROGRAM=<exe> -DWORK_DIR=<dir> -DREADELF=<readelf>
#         -DEXPECT=bypassed|reached -P layer_check.cmake
# Checks the executable's NEEDED order (readelf -d), then runs it traced:
#  - bypassed (linked -lhdf5 -ldftracer_core): libhdf5 comes first; stderr
#    has exactly one dftracer warning, for the HDF5 layer, naming libhdf5
#    and the fix; the trace has exactly one layer_bypassed record, in the
#    contract's shape (docs/trace-format.md), and no HDF5 event;
#  - reached: libdftracer_core comes first; no warning, no record, and the
#    HDF5 events are there.
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

execute_process(COMMAND ${READELF} -d ${PROGRAM}
  OUTPUT_VARIABLE _dyn RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  fail("readelf -d ${PROGRAM} failed")
endif()
string(REGEX MATCHALL "\\(NEEDED\\)[^\n]*\\[[^]\n]*\\]" _needed "${_dyn}")
set(_order)
foreach(_line IN LISTS _needed)
  string(REGEX REPLACE ".*\\[([^]]*)\\].*" "\\1" _lib "${_line}")
  list(APPEND _order ${_lib})
endforeach()
set(_rt -1)
set(_h5 -1)
set(_i 0)
foreach(_lib IN LISTS _order)
  if(_lib MATCHES "^libdftracer_core" AND _rt EQUAL -1)
    set(_rt ${_i})
  elseif(_lib MATCHES "^libhdf5" AND _h5 EQUAL -1)
    set(_h5 ${_i})
  endif()
  math(EXPR _i "${_i} + 1")
endforeach()
if(_rt EQUAL -1 OR _h5 EQUAL -1)
  fail("NEEDED of ${PROGRAM} lacks libdftracer_core or libhdf5: ${_order}")
endif()
if(EXPECT STREQUAL "bypassed" AND NOT _h5 LESS _rt)
  fail("expected libhdf5 before libdftracer_core in NEEDED: ${_order}")
elseif(EXPECT STREQUAL "reached" AND NOT _rt LESS _h5)
  fail("expected libdftracer_core before libhdf5 in NEEDED: ${_order}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/traces")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env --unset=LD_PRELOAD --unset=DFTRACER_DISABLE_IO
    --unset=DFTRACER_DISABLE_HDF5 DFTRACER_ENABLE=1 DFTRACER_DATA_DIR=data
    DFTRACER_LOG_FILE=${WORK_DIR}/traces/trace ${PROGRAM}
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("${PROGRAM} failed (${_rc}):\n${_out}\n${_err}")
endif()
file(GLOB _traces "${WORK_DIR}/traces/*.pfw")
list(LENGTH _traces _n)
if(NOT _n EQUAL 1)
  fail("expected one trace file, found ${_n}\nstderr:\n${_err}")
endif()
file(READ ${_traces} _trace)

string(REGEX MATCHALL "dftracer: " _warnings "${_err}")
list(LENGTH _warnings _nw)
string(REGEX MATCHALL "\"name\":\"layer_bypassed\"" _records "${_trace}")
list(LENGTH _records _nr)
set(_record [[\{"id":[0-9]+,"name":"layer_bypassed","cat":"dftracer","pid":[0-9]+,"tid":[0-9]+,"ph":"M","args":\{"layer":"HDF5","symbol":"H5Dwrite","library":"/[^"]*/libhdf5[^"]*\.so[^"]*","fix":"link -ldftracer_core before -lhdf5[^"]*, or LD_PRELOAD=libdftracer_preload\.so"\}\}]])
if(EXPECT STREQUAL "bypassed")
  if(NOT _nw EQUAL 1 OR NOT _err MATCHES
     "dftracer: the HDF5 layer is not traced: the program's H5Dwrite resolves to /[^\n]*libhdf5[^\n]*; fix: link -ldftracer_core before -lhdf5[^\n]*, or LD_PRELOAD=libdftracer_preload.so")
    fail("expected one warning for the HDF5 layer on stderr, got ${_nw}:\n${_err}")
  endif()
  if(NOT _nr EQUAL 1 OR NOT _trace MATCHES "${_record}")
    fail("expected one layer_bypassed record for HDF5, got ${_nr}:\n${_trace}")
  endif()
  if(_trace MATCHES "\"cat\":\"HDF5\"")
    fail("HDF5 events in a trace whose HDF5 layer is bypassed:\n${_trace}")
  endif()
else()
  if(NOT _nw EQUAL 0 OR NOT _nr EQUAL 0)
    fail("expected no warning and no layer_bypassed record:\n${_err}\n${_trace}")
  endif()
  if(NOT _trace MATCHES "\"name\":\"H5Dcreate1\",\"cat\":\"HDF5\"")
    fail("no HDF5 event in the trace:\n${_trace}")
  endif()
endif()
message(STATUS "NEEDED: ${_order}; ${_nw} warning(s), ${_nr} record(s)")
