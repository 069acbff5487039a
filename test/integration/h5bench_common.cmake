# Helpers of the h5bench_like tests. Their traces can be hundreds of MB
# (2^20 spans per rank when nothing throttles them): lines are looked for
# with grep, not read into CMake.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
find_program(H5_GREP grep REQUIRED)

# h5_grep(<out> <file> <extended regex>): the first matching line, or "".
function(h5_grep out file regex)
  execute_process(COMMAND "${H5_GREP}" -m1 -E -e "${regex}" "${file}"
    OUTPUT_VARIABLE _line OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
  set(${out} "${_line}" PARENT_SCOPE)
endfunction()

# h5_count(<out> <file> <extended regex>): how many lines match.
function(h5_count out file regex)
  execute_process(COMMAND "${H5_GREP}" -c -E -e "${regex}" "${file}"
    OUTPUT_VARIABLE _n OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _n MATCHES "^[0-9]+$")
    set(_n 0)
  endif()
  set(${out} ${_n} PARENT_SCOPE)
endfunction()
