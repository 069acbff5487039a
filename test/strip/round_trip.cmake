# strip(annotate(x)) == x, byte for byte, for every golden input and sample
# kernel under one set of options (test/strip/CMakeLists.txt registers one
# test per set; a case's own NAME.args, --variant included, come first).
# For each test/inputs/NAME.c|.cpp and test/inputs/kernels*/NAME.c|.cpp:
#
#   annotate x [NAME's options] [OPTIONS] -- FLAGS        > annotated
#   annotate annotated --strip [same options] -- FLAGS    > stripped
#   stripped == x
#
# With CRLF, x is the input with every line ending in \r\n, and the
# annotated file must have no bare \n: what annotate inserts follows the
# file's line endings (docs/rules.md §1).
#
# and, with CHECK_CLEAN, strip(x) == x (a file without annotations keeps
# every byte) and strip(stripped) == stripped (idempotent); annotating the
# stripped file then gives the first annotation, since it is x again. The
# inputs in ANNOTATED (already_annotated, ...) carry annotations of their
# own: there stripped == strip(x) instead.
#
#   -DANNOTATE= -DINPUTS=test/inputs -DFLAGS_C= -DFLAGS_CXX= (files, one flag
#   a line) -DWORK=dir [-DOPTIONS=a;b] [-DEXTRA_FLAGS=-I...] [-DCRLF=ON]
#   [-DCHECK_CLEAN=ON] [-DLANGUAGES=C;CXX] [-DSKIP=name;...] [-DANNOTATED=...]
cmake_minimum_required(VERSION 3.20)

foreach(_var ANNOTATE INPUTS FLAGS_C FLAGS_CXX WORK)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "round_trip.cmake: -D${_var}= is required")
  endif()
endforeach()
if(NOT DEFINED LANGUAGES)
  set(LANGUAGES C CXX)
endif()

include(${CMAKE_CURRENT_LIST_DIR}/../golden/ReadLines.cmake)

read_lines("${FLAGS_C}" _flags_C)
read_lines("${FLAGS_CXX}" _flags_CXX)

set(_cases "")
if("C" IN_LIST LANGUAGES)
  file(GLOB _c "${INPUTS}/*.c" "${INPUTS}/kernels/*.c")
  list(APPEND _cases ${_c})
endif()
if("CXX" IN_LIST LANGUAGES)
  file(GLOB _cxx "${INPUTS}/*.cpp" "${INPUTS}/kernels_cxx/*.cpp")
  list(APPEND _cases ${_cxx})
endif()
list(SORT _cases)

file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/input" "${WORK}/annotated" "${WORK}/stripped"
     "${WORK}/again")
set(_report "")
set(_failed 0)
set(_count 0)

# Records a failed round trip (a message may hold ';', so not a list).
function(fail message)
  set(_report "${_report}${message}\n" PARENT_SCOPE)
  math(EXPR _n "${_failed} + 1")
  set(_failed ${_n} PARENT_SCOPE)
endfunction()

# Records a failure unless files A and B hold the same bytes; the message
# shows the diff.
function(expect_same a b what)
  execute_process(COMMAND "${CMAKE_COMMAND}" -E compare_files "${a}" "${b}"
    RESULT_VARIABLE _same)
  if(NOT _same EQUAL 0)
    execute_process(COMMAND diff -u "${a}" "${b}" OUTPUT_VARIABLE _diff)
    fail("${_file}: ${what}:\n${_diff}")
    set(_report "${_report}" PARENT_SCOPE)
    set(_failed ${_failed} PARENT_SCOPE)
  endif()
endfunction()

# annotate IN [options] -- flags > OUT, from the folder of the case's
# options file (relative paths in it are relative to it). Sets RC.
function(run_annotate in out)
  execute_process(COMMAND "${ANNOTATE}" "${in}" ${ARGN}
    WORKING_DIRECTORY "${_case_dir}"
    OUTPUT_FILE "${out}" ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  set(RC "${_rc}" PARENT_SCOPE)
  set(STDERR "${_err}" PARENT_SCOPE)
endfunction()

foreach(_case IN LISTS _cases)
  get_filename_component(_name "${_case}" NAME_WE)
  get_filename_component(_file "${_case}" NAME)
  get_filename_component(_case_dir "${_case}" DIRECTORY)
  if(_name IN_LIST SKIP)
    message(STATUS "${_file}: skipped with these options")
    continue()
  endif()
  if(_file MATCHES "\\.c$")
    read_lines("${_case_dir}/${_name}.args" _options)
    set(_flags ${_flags_C})
  else()
    read_lines("${_case}.args" _options)
    read_lines("${_case}.flags" _extra)
    set(_flags ${_flags_CXX} ${_extra})
  endif()
  list(APPEND _options ${OPTIONS})
  list(APPEND _flags ${EXTRA_FLAGS})
  # The case's own quoted includes (exit_macro_entry_scope_cfg.inc) stay
  # beside the case, not beside its copies.
  list(APPEND _flags "-iquote${_case_dir}")

  set(_in "${WORK}/input/${_file}")
  if(CRLF)
    # file(READ) reads \r\n as \n: inputs with CRLF or mixed line endings
    # become all CRLF too.
    file(READ "${_case}" _text)
    string(REPLACE "\n" "\r\n" _text "${_text}")
    file(WRITE "${_in}" "${_text}")
  else()
    execute_process(COMMAND "${CMAKE_COMMAND}" -E copy "${_case}" "${_in}")
  endif()
  set(_annotated "${WORK}/annotated/${_file}")
  set(_stripped "${WORK}/stripped/${_file}")
  math(EXPR _count "${_count} + 1")

  run_annotate("${_in}" "${_annotated}" ${_options} -- ${_flags})
  if(NOT RC EQUAL 0)
    fail("${_file}: annotate exited ${RC}: ${STDERR}")
    continue()
  endif()
  if(CRLF)
    # file(READ) as text turns \r\n into \n: look at the bytes, one " XX"
    # each, so that " 0d 0a" is a CRLF and " 0a" left is a bare LF.
    file(READ "${_annotated}" _hex HEX)
    string(REGEX REPLACE "(..)" " \\1" _bytes "${_hex}")
    string(REPLACE " 0d 0a" "" _bytes "${_bytes}")
    string(FIND "${_bytes}" " 0a" _bare)
    if(NOT _bare EQUAL -1)
      execute_process(COMMAND grep -n -v "\r$" "${_annotated}"
        COMMAND cut -d: -f1 COMMAND head -n 5 OUTPUT_VARIABLE _lines)
      string(REPLACE "\n" " " _lines "${_lines}")
      fail("${_file}: lines ending in a bare LF in the annotated file: ${_lines}...")
      continue()
    endif()
  endif()
  run_annotate("${_annotated}" "${_stripped}" --strip ${_options} -- ${_flags})
  if(NOT RC EQUAL 0)
    fail("${_file}: annotate --strip exited ${RC}: ${STDERR}")
    continue()
  endif()

  set(_expected "${_in}")
  if(_name IN_LIST ANNOTATED OR CHECK_CLEAN)
    set(_clean "${WORK}/again/${_file}")
    run_annotate("${_in}" "${_clean}" --strip ${_options} -- ${_flags})
    if(_name IN_LIST ANNOTATED)
      set(_expected "${_clean}")
    else()
      expect_same("${_in}" "${_clean}"
        "stripping the input (no annotations) changed it")
    endif()
  endif()
  expect_same("${_expected}" "${_stripped}" "strip(annotate(x)) differs from x")
  if(CHECK_CLEAN)
    set(_twice "${WORK}/again/twice.${_file}")
    run_annotate("${_stripped}" "${_twice}" --strip ${_options} -- ${_flags})
    expect_same("${_stripped}" "${_twice}" "strip is not idempotent")
  endif()
endforeach()

if(_failed)
  message(FATAL_ERROR "${_failed} of ${_count} round trips failed (${OPTIONS}):\n${_report}")
endif()
message(STATUS "${_count} round trips, byte for byte")
