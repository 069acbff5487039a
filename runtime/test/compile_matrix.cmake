# Compiles every_macro.c and every_macro.cpp with -Wall -Wextra -Werror under
# every GCC and Clang found, in each C and C++ dialect annotated code uses.
# The macros must never cost a user a warning (SPEC 5.1).
#
#   cmake -DSOURCE_DIR=<runtime/test> -DINCLUDE_DIR=<runtime/include>
#         -P compile_matrix.cmake
cmake_minimum_required(VERSION 3.20)

set(_c_compilers gcc gcc-12 clang clang-14 clang-15 clang-16 clang-17 clang-18 clang-19)
set(_cxx_compilers g++ g++-12 clang++ clang++-14 clang++-15 clang++-16 clang++-17
  clang++-18 clang++-19)
set(_c_stds gnu89 c99 gnu11 c17)
set(_cxx_stds c++11 c++14 c++17 c++20)
set(_flags -Wall -Wextra -Werror -O2 -I${INCLUDE_DIR} -c -o /dev/null)

# Same binary under two names (clang -> clang-14) is compiled once.
function(find_unique out)
  set(_seen)
  set(_found)
  foreach(_name IN LISTS ARGN)
    find_program(_path_${_name} ${_name})
    if(_path_${_name})
      file(REAL_PATH "${_path_${_name}}" _real)
      if(NOT _real IN_LIST _seen)
        list(APPEND _seen "${_real}")
        list(APPEND _found "${_path_${_name}}")
      endif()
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

find_unique(_cc ${_c_compilers})
find_unique(_cxx ${_cxx_compilers})
if(NOT _cc OR NOT _cxx)
  message(FATAL_ERROR "no C or C++ compiler found among: ${_c_compilers} ${_cxx_compilers}")
endif()

set(_failures 0)
set(_runs 0)
macro(try_compile_one compiler std source)
  execute_process(COMMAND ${compiler} -std=${std} ${_flags} ${source}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err OUTPUT_VARIABLE _out)
  math(EXPR _runs "${_runs} + 1")
  if(NOT _rc EQUAL 0)
    math(EXPR _failures "${_failures} + 1")
    message("FAIL: ${compiler} -std=${std} ${source}\n${_err}")
  else()
    message("ok:   ${compiler} -std=${std} ${source}")
  endif()
endmacro()

foreach(_compiler IN LISTS _cc)
  foreach(_std IN LISTS _c_stds)
    try_compile_one(${_compiler} ${_std} ${SOURCE_DIR}/every_macro.c)
  endforeach()
endforeach()
foreach(_compiler IN LISTS _cxx)
  foreach(_std IN LISTS _cxx_stds)
    try_compile_one(${_compiler} ${_std} ${SOURCE_DIR}/every_macro.cpp)
  endforeach()
endforeach()
if(_failures GREATER 0)
  message(FATAL_ERROR "${_failures} of ${_runs} compilations failed")
endif()
