# read_lines(PATH OUT): the lines of PATH, stripped, blank ones skipped, as a
# list (none when PATH is empty or missing). Options files (NAME.args) and
# flag files hold one item a line.
function(read_lines path out)
  set(_lines "")
  if(NOT "${path}" STREQUAL "" AND EXISTS "${path}")
    file(STRINGS "${path}" _raw)
    foreach(_line IN LISTS _raw)
      string(STRIP "${_line}" _line)
      if(NOT _line STREQUAL "")
        list(APPEND _lines "${_line}")
      endif()
    endforeach()
  endif()
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()
