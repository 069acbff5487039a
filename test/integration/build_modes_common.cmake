# Shared by build_modes_target.cmake and build_modes_cc.cmake: compares,
# source by source, the arguments annotate parsed each source with (the
# `.args` file annotate_target writes beside each copy, or annotate-cc
# under ANNOTATE_CC_KEEP) with the compile command CMake recorded for it in
# compile_commands.json: the language, the definitions, the include
# directories, the standard and the forced includes (the precompiled
# header) must be the same.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)

# The sources of build_modes_project and the language each is compiled in.
set(BM_SOURCES objlib.c core_a.c core_b.c sub/core_sub.c core_cxx.cpp
  pch_user.c ascxx.c main.cpp gen.c)
set(BM_LANG_objlib.c c)
set(BM_LANG_core_a.c c)
set(BM_LANG_core_b.c c)
set(BM_LANG_sub/core_sub.c c)
set(BM_LANG_core_cxx.cpp c++)
set(BM_LANG_pch_user.c c)
set(BM_LANG_ascxx.c c++) # LANGUAGE CXX
set(BM_LANG_main.cpp c++)
set(BM_LANG_gen.c c)

# bm_flags(<prefix> <argument>...): what of a command changes how a source
# parses: <prefix>_LANG (-x), _DEFS (-D, -U), _DIRS (-I, -isystem),
# _QUOTE (-iquote), _STD (-std=), _INCLUDE (-include, and Clang's -Xclang
# -include -Xclang <header>).
function(bm_flags prefix)
  foreach(_k LANG DEFS DIRS QUOTE STD INCLUDE)
    set(_${_k} "")
  endforeach()
  set(_args ${ARGN})
  list(LENGTH _args _n)
  set(_i 0)
  while(_i LESS _n)
    list(GET _args ${_i} _a)
    math(EXPR _j "${_i} + 1")
    set(_v "")
    if(_j LESS _n)
      list(GET _args ${_j} _v)
    endif()
    math(EXPR _k "${_i} + 3")
    if(_a STREQUAL "-Xclang" AND _v STREQUAL "-include" AND _k LESS _n)
      # CMake's PCH with Clang: -Xclang -include -Xclang <header>.
      list(GET _args ${_k} _v)
      set(_opt include)
      set(_i ${_k})
    elseif(_a STREQUAL "-Xclang")
      set(_opt "")
      set(_i ${_j})
    elseif(_a MATCHES "^-(x|D|U|I|isystem|iquote|include)$")
      set(_opt "${CMAKE_MATCH_1}")
      set(_i ${_j})
    elseif(_a MATCHES "^-(D|U|I|isystem|iquote)(.+)$")
      set(_opt "${CMAKE_MATCH_1}")
      set(_v "${CMAKE_MATCH_2}")
    elseif(_a MATCHES "^-std=(.*)$")
      set(_opt std)
      set(_v "${CMAKE_MATCH_1}")
    else()
      set(_opt "")
    endif()
    string(REGEX REPLACE "(.)/+$" "\\1" _v "${_v}")
    if(_opt STREQUAL "x")
      set(_LANG "${_v}")
    elseif(_opt MATCHES "^(D|U)$")
      list(APPEND _DEFS "-${_opt}${_v}")
    elseif(_opt MATCHES "^(I|isystem)$")
      list(APPEND _DIRS "${_v}")
    elseif(_opt STREQUAL "iquote")
      list(APPEND _QUOTE "${_v}")
    elseif(_opt STREQUAL "std")
      set(_STD "${_v}")
    elseif(_opt STREQUAL "include")
      list(APPEND _INCLUDE "${_v}")
    endif()
    math(EXPR _i "${_i} + 1")
  endwhile()
  foreach(_k DEFS DIRS QUOTE)
    list(REMOVE_DUPLICATES _${_k})
    list(SORT _${_k})
  endforeach()
  foreach(_k LANG DEFS DIRS QUOTE STD INCLUDE)
    set(${prefix}_${_k} "${_${_k}}" PARENT_SCOPE)
  endforeach()
endfunction()

# bm_command_language(<out> <argument>...): the language a compile command
# compiles its source in: its -x, else its driver's (a C++ driver compiles
# a .c as C++), else the source's extension.
function(bm_command_language out)
  set(_args ${ARGN})
  bm_flags(_f ${_args})
  if(_f_LANG)
    set(${out} "${_f_LANG}" PARENT_SCOPE)
    return()
  endif()
  list(GET _args 0 _driver)
  get_filename_component(_driver "${_driver}" NAME)
  list(GET _args -1 _file)
  if(_driver MATCHES "(\\+\\+|cxx|CC)(-[0-9.]+)?$" OR _file MATCHES "\\.(cpp|cc|cxx|C)$")
    set(${out} c++ PARENT_SCOPE)
  else()
    set(${out} c PARENT_SCOPE)
  endif()
endfunction()

# bm_read_database(<build dir>): BM_CC_<md5 of file> is the command of each
# entry of <build>/compile_commands.json, BM_CC_FILES their files.
macro(bm_read_database build)
  file(READ "${build}/compile_commands.json" _json)
  string(JSON _count LENGTH "${_json}")
  set(BM_CC_FILES "")
  math(EXPR _last "${_count} - 1")
  foreach(_e RANGE ${_last})
    string(JSON _file GET "${_json}" ${_e} file)
    string(JSON _command GET "${_json}" ${_e} command)
    string(MD5 _key "${_file}")
    set(BM_CC_${_key} "${_command}")
    list(APPEND BM_CC_FILES "${_file}")
  endforeach()
endmacro()

# bm_compare(<name> <original> <args file> <compiled file>): the arguments
# annotate parsed <original> with (one a line in <args file>) against the
# compile_commands.json entry of <compiled file> (the annotated copy, the
# source itself, or the unity source including it). Appends what differs to
# BM_ERRORS in the caller; BM_COMPARED counts the sources compared.
function(bm_compare name original args_file compiled)
  string(MD5 _key "${compiled}")
  if(NOT DEFINED BM_CC_${_key})
    set(BM_ERRORS "${BM_ERRORS}\n${name}: no compile_commands.json entry for ${compiled}" PARENT_SCOPE)
    return()
  endif()
  separate_arguments(_command UNIX_COMMAND "${BM_CC_${_key}}")
  file(STRINGS "${args_file}" _annotate)
  bm_flags(_a ${_annotate})
  bm_flags(_c ${_command})
  bm_command_language(_c_LANG ${_command})
  # The copy compiles with -iquote <directory of the original> (annotate
  # parses the original there): not a difference.
  get_filename_component(_dir "${original}" DIRECTORY)
  list(REMOVE_ITEM _c_QUOTE "${_dir}")
  set(_errors "")
  list(JOIN _annotate " " _annotate_shown)
  foreach(_k LANG DEFS DIRS QUOTE STD INCLUDE)
    if(NOT "${_a_${_k}}" STREQUAL "${_c_${_k}}")
      list(JOIN _a_${_k} " " _a_shown)
      list(JOIN _c_${_k} " " _c_shown)
      string(APPEND _errors "\n${name}: ${_k} differs: annotate got '${_a_shown}', "
        "the compiler '${_c_shown}'\n  annotate: ${_annotate_shown}\n  compile:  "
        "${BM_CC_${_key}}")
    endif()
  endforeach()
  if(NOT "${_a_LANG}" STREQUAL "${BM_LANG_${name}}")
    string(APPEND _errors "\n${name}: parsed as '${_a_LANG}', compiled as ${BM_LANG_${name}}")
  endif()
  math(EXPR _n "${BM_COMPARED} + 1")
  set(BM_COMPARED ${_n} PARENT_SCOPE)
  set(BM_ERRORS "${BM_ERRORS}${_errors}" PARENT_SCOPE)
  if(NOT _errors)
    list(JOIN _a_DEFS " " _defs)
    message(STATUS "${name}: ${_a_LANG}, -std=${_a_STD}, ${_defs}, -include '${_a_INCLUDE}': as compiled")
  endif()
endfunction()

# bm_name(<out> <original> <work>): the source's name in BM_SOURCES.
function(bm_name out original work)
  file(RELATIVE_PATH _rel "${work}/src" "${original}")
  if(_rel MATCHES "^\\.\\./")
    get_filename_component(_rel "${original}" NAME) # the generated gen.c
  endif()
  set(${out} "${_rel}" PARENT_SCOPE)
endfunction()

# bm_expect_all_compared(<names> <expected>): every source expected was
# compared, without a difference.
function(bm_expect_all_compared names expected)
  set(_names ${names})
  list(SORT _names)
  set(_expected ${expected})
  list(SORT _expected)
  if(NOT "${_names}" STREQUAL "${_expected}")
    int_fail("sources compared: ${_names}\nexpected: ${_expected}")
  endif()
  if(BM_ERRORS)
    int_fail("annotate did not parse as the build compiles:${BM_ERRORS}")
  endif()
endfunction()

# bm_compare_target(<build> <work> <expected sources>): annotate_target's
# <copy>.args against the copies' compile_commands.json entries; an
# annotated target has no unity source.
function(bm_compare_target build work expected)
  bm_read_database("${build}")
  foreach(_file IN LISTS BM_CC_FILES)
    if(_file MATCHES "/Unity/")
      int_fail("a unity source in compile_commands.json of an annotated target: ${_file}")
    endif()
  endforeach()
  set(BM_ERRORS "")
  set(BM_COMPARED 0)
  set(_names)
  file(GLOB_RECURSE _args_files "${build}/annotate/*.args")
  foreach(_args IN LISTS _args_files)
    string(REGEX REPLACE "\\.args$" "" _copy "${_args}")
    file(STRINGS "${_copy}" _first LIMIT_COUNT 1)
    if(NOT _first MATCHES "^#line 1 \"(.*)\"$")
      int_fail("${_copy}: no #line 1 naming its original: ${_first}")
    endif()
    set(_original "${CMAKE_MATCH_1}")
    bm_name(_name "${_original}" "${work}")
    list(APPEND _names "${_name}")
    bm_compare("${_name}" "${_original}" "${_args}" "${_copy}")
  endforeach()
  bm_expect_all_compared("${_names}" "${expected}")
  message(STATUS "${BM_COMPARED} sources: annotate parsed each as compile_commands.json compiles it")
endfunction()

# bm_compare_cc(<build> <keep> <work> <expected sources> <unity sources>):
# annotate-cc's <keep>/<source>.args against the compile_commands.json
# entry that compiles the source: its own, or the unity source's that
# includes it; <unity sources>: how many unity sources there must be.
function(bm_compare_cc build keep work expected unity_count)
  bm_read_database("${build}")
  set(_unity_files "")
  foreach(_file IN LISTS BM_CC_FILES)
    if(_file MATCHES "/Unity/unity_[^/]*$")
      list(APPEND _unity_files "${_file}")
      file(STRINGS "${_file}" _lines REGEX "^#include \"")
      foreach(_line IN LISTS _lines)
        if(_line MATCHES "^#include \"(.*)\"$")
          string(MD5 _key "${CMAKE_MATCH_1}")
          set(_unity_of_${_key} "${_file}")
        endif()
      endforeach()
    endif()
  endforeach()
  list(LENGTH _unity_files _n)
  if(NOT _n EQUAL unity_count)
    int_fail("expected ${unity_count} unity sources in compile_commands.json, got: ${_unity_files}")
  endif()
  set(BM_ERRORS "")
  set(BM_COMPARED 0)
  set(_names)
  file(GLOB_RECURSE _args_files "${keep}/*.args")
  string(LENGTH "${keep}" _len)
  foreach(_args IN LISTS _args_files)
    string(REGEX REPLACE "\\.args$" "" _original "${_args}")
    string(SUBSTRING "${_original}" ${_len} -1 _original)
    bm_name(_name "${_original}" "${work}")
    list(APPEND _names "${_name}")
    string(MD5 _key "${_original}")
    set(_compiled "${_original}")
    if(DEFINED _unity_of_${_key})
      set(_compiled "${_unity_of_${_key}}")
    endif()
    bm_compare("${_name}" "${_original}" "${_args}" "${_compiled}")
  endforeach()
  bm_expect_all_compared("${_names}" "${expected}")
  message(STATUS "${BM_COMPARED} sources: annotate parsed each as compile_commands.json compiles it")
endfunction()

# The sources of modes_core (the Clang part).
set(BM_CORE_SOURCES core_a.c core_b.c sub/core_sub.c core_cxx.cpp)
find_program(BM_CLANG NAMES clang)
find_program(BM_CLANGXX NAMES clang++)

# bm_clang_core(<mode> <build> <work> [cache args...]): modes_core alone
# (a PCH and a unity build, no MPI) built with Clang as the compiler, which
# writes a .pch beside cmake_pch.h and passes -Xclang -include-pch: annotate
# (another Clang) must parse with the header, not that PCH; mode target or
# cc. Sets BM_CLANG_OUT (the build's output); fails on a build error or a
# source not annotated.
function(bm_clang_core mode build work)
  int_configure(_c "${work}/src" "${build}" -DCMAKE_C_COMPILER=${BM_CLANG}
    -DCMAKE_CXX_COMPILER=${BM_CLANGXX} -DCMAKE_EXPORT_COMPILE_COMMANDS=ON ${ARGN})
  int_expect_success(_c "configuring build_modes_project with Clang")
  int_build(_b "${build}" modes_core)
  int_expect_success(_b "building modes_core with Clang (${mode})")
  int_expect_no_match("${_b_OUT}" "not annotated|annotate-cc: warning"
    "building modes_core with Clang (${mode})")
  file(GLOB _pch "${build}/CMakeFiles/modes_core.dir/cmake_pch.h*.pch")
  if(NOT _pch)
    int_fail("no Clang PCH written for modes_core:\n${_b_OUT}")
  endif()
  # Again with the PCH there (annotate_target annotates before the first
  # PCH is compiled).
  file(TOUCH "${work}/src/core_a.c")
  int_build(_again "${build}" modes_core)
  int_expect_success(_again "rebuilding core_a.c with Clang (${mode})")
  int_expect_no_match("${_again_OUT}" "not annotated|annotate-cc: warning"
    "rebuilding core_a.c with Clang's PCH there (${mode})")
  int_expect_match("${_again_OUT}"
    "Annotating C source core_a\\.c|unity_0_c\\.c\\.o: 3 files, 3 changed, 0 failed"
    "core_a.c annotated again (${mode})")
  set(BM_CLANG_OUT "${_b_OUT}" PARENT_SCOPE)
endfunction()
