# Fails when LIBRARY needs the C++ runtime: C programs must link
# libdftracer_core with nothing but -lpthread/-lz (SPEC 5.2).
#   cmake -DOBJDUMP=<objdump> -DLIBRARY=<libdftracer_core.so> -P no_cxx_runtime.cmake
execute_process(COMMAND ${OBJDUMP} -p ${LIBRARY}
  OUTPUT_VARIABLE _out RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -p ${LIBRARY} failed")
endif()
string(REGEX MATCHALL "NEEDED +[^\n]+" _needed "${_out}")
message("${_needed}")
if(NOT _needed MATCHES "libc\\.so")
  message(FATAL_ERROR "no NEEDED entries found: is ${LIBRARY} a shared library?")
endif()
if(_needed MATCHES "libstdc\\+\\+|libc\\+\\+")
  message(FATAL_ERROR "${LIBRARY} depends on the C++ runtime: ${_needed}")
endif()
