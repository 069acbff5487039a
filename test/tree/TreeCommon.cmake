# Helpers shared by the whole-tree test scripts (cmake -P). Every script gets
#   ANNOTATE         the annotate executable
#   PROJECT          test/tree/project (the pristine sources)
#   WORK             this chain's directory: WORK/project (a copy of PROJECT;
#                    its src/ is --root) and WORK/build (its build directory)
#   GENERATOR, MAKE_PROGRAM, C_COMPILER   for configuring the copy
# and, where a script needs them, RUNTIME_INCLUDE, RUNTIME_LIBRARY, CHECKER.

cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/expected.cmake)

set(TREE_PROJECT ${WORK}/project)
set(TREE_ROOT ${WORK}/project/src)
set(TREE_BUILD ${WORK}/build)
# What is counted: statements at the start of a line (comments that mention
# the macros do not count).
set(TREE_START "\n[ \t]*DFTRACER_C_FUNCTION_START\\(\\);")
set(TREE_INIT "\n[ \t]*DFTRACER_C_INIT\\(NULL, NULL, NULL\\);")
set(TREE_INCLUDE "\n#include <dftracer/dftracer\\.h>")

function(tree_fail)
  # ARGVn, not ARGN: a ';' in a message is text, not a list separator.
  set(_message)
  math(EXPR _last "${ARGC} - 1")
  foreach(_i RANGE ${_last})
    string(APPEND _message "${ARGV${_i}}")
  endforeach()
  message(FATAL_ERROR "tree: ${_message}")
endfunction()

# A fresh copy of the project in WORK/project, configured into WORK/build:
# this writes WORK/build/compile_commands.json.
function(tree_configure)
  tree_copy()
  tree_cmake(configure -S ${TREE_PROJECT} -B ${TREE_BUILD} ${ARGN})
endfunction()

# Only the fresh copy.
function(tree_copy)
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK})
  file(COPY ${PROJECT}/ DESTINATION ${TREE_PROJECT})
endfunction()

# Runs `cmake ARGS...` (configure with the chain's generator and compiler
# when STEP is "configure"), failing with its output when it fails.
function(tree_cmake step)
  set(_args ${ARGN})
  if(step STREQUAL "configure")
    list(APPEND _args -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER})
    if(MAKE_PROGRAM)
      list(APPEND _args -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
    endif()
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} ${_args}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  file(WRITE ${WORK}/cmake-${step}.log "${_out}")
  if(NOT _rc EQUAL 0)
    tree_fail("cmake ${step} failed (${_rc}):\n${_out}")
  endif()
endfunction()

# Runs annotate with ARGS in the project directory. Sets NAME_RC, NAME_OUT and
# NAME_ERR in the caller, and keeps them in WORK/NAME.{stdout,stderr} for a
# failing test's post-mortem.
function(tree_annotate name)
  string(REPLACE ";" " " _shown "${ARGN}")
  message(STATUS "annotate ${_shown}")
  execute_process(COMMAND ${ANNOTATE} ${ARGN}
    WORKING_DIRECTORY ${TREE_PROJECT}
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  file(WRITE ${WORK}/${name}.stdout "${_out}")
  file(WRITE ${WORK}/${name}.stderr "${_err}")
  set(${name}_RC "${_rc}" PARENT_SCOPE)
  set(${name}_OUT "${_out}" PARENT_SCOPE)
  set(${name}_ERR "${_err}" PARENT_SCOPE)
endfunction()

function(tree_expect_rc name expected)
  if(NOT "${${name}_RC}" STREQUAL "${expected}")
    tree_fail("annotate (${name}) exited with ${${name}_RC}, expected "
              "${expected}\nstdout:\n${${name}_OUT}\nstderr:\n${${name}_ERR}")
  endif()
endfunction()

# Absolute paths of the project's .c files under --root (those annotated and
# the broken one), without the ones given (relative to --root).
function(tree_sources out)
  set(_files)
  foreach(_entry ${TREE_ANNOTATED} ${TREE_BROKEN})
    string(REGEX REPLACE "=.*" "" _path "${_entry}")
    if(_path MATCHES "\\.c$" AND NOT _path IN_LIST ARGN)
      list(APPEND _files ${TREE_ROOT}/${_path})
    endif()
  endforeach()
  set(${out} ${_files} PARENT_SCOPE)
endfunction()

# Number of matches of REGEX in TEXT. (A ';' in a match would split the
# list of matches: both sides spell it differently first.)
function(tree_count out text regex)
  string(REPLACE ";" "<semicolon>" _text "\n${text}")
  string(REPLACE ";" "<semicolon>" _regex "${regex}")
  string(REGEX MATCHALL "${_regex}" _matches "${_text}")
  list(LENGTH _matches _count)
  set(${out} ${_count} PARENT_SCOPE)
endfunction()

# Text of line NUMBER (from 1) of FILE. (file(STRINGS) drops empty lines.)
function(tree_line_text out file number)
  file(READ ${file} _text)
  set(_n 1)
  while(_n LESS number)
    string(FIND "${_text}" "\n" _nl)
    if(_nl EQUAL -1)
      tree_fail("${file} has fewer than ${number} lines")
    endif()
    math(EXPR _nl "${_nl} + 1")
    string(SUBSTRING "${_text}" ${_nl} -1 _text)
    math(EXPR _n "${_n} + 1")
  endwhile()
  string(FIND "${_text}" "\n" _nl)
  string(SUBSTRING "${_text}" 0 ${_nl} _line)
  set(${out} "${_line}" PARENT_SCOPE)
endfunction()

# Number (from 1) of the first line of FILE that matches REGEX.
function(tree_line_number out file regex)
  file(READ ${file} _text)
  set(_n 1)
  while(TRUE)
    string(FIND "${_text}" "\n" _nl)
    string(SUBSTRING "${_text}" 0 ${_nl} _line)
    if(_line MATCHES "${regex}")
      set(${out} ${_n} PARENT_SCOPE)
      return()
    endif()
    if(_nl EQUAL -1)
      tree_fail("no line of ${file} matches '${regex}'")
    endif()
    math(EXPR _nl "${_nl} + 1")
    string(SUBSTRING "${_text}" ${_nl} -1 _text)
    math(EXPR _n "${_n} + 1")
  endwhile()
endfunction()

# Every file of TREE_ANNOTATED under DIR (default --root) carries one START
# per function definition and one include, except the files given after
# EXCEPT; each main has one INIT.
function(tree_expect_annotated)
  cmake_parse_arguments(_a "" "DIR" "EXCEPT" ${ARGN})
  if(NOT _a_DIR)
    set(_a_DIR ${TREE_ROOT})
  endif()
  foreach(_entry ${TREE_ANNOTATED})
    string(REGEX REPLACE "=.*" "" _path "${_entry}")
    string(REGEX REPLACE ".*=" "" _expected "${_entry}")
    if(_path IN_LIST _a_EXCEPT)
      continue()
    endif()
    file(READ ${_a_DIR}/${_path} _text)
    tree_count(_starts "${_text}" "${TREE_START}")
    tree_count(_includes "${_text}" "${TREE_INCLUDE}")
    if(NOT _starts EQUAL _expected)
      tree_fail("${_a_DIR}/${_path}: ${_starts} START lines, expected "
                "${_expected} (one per function definition)")
    endif()
    if(NOT _includes EQUAL 1)
      tree_fail("${_a_DIR}/${_path}: the tracer include appears ${_includes} "
                "times, expected once")
    endif()
    if(_path IN_LIST TREE_MAINS)
      tree_count(_inits "${_text}" "${TREE_INIT}")
      if(NOT _inits EQUAL 1)
        tree_fail("${_a_DIR}/${_path}: ${_inits} DFTRACER_C_INIT, expected 1")
      endif()
    endif()
  endforeach()
endfunction()

# FILE (relative to PROJECT) is byte for byte what test/tree/project holds.
function(tree_expect_pristine file copy)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
    ${PROJECT}/${file} ${copy} RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    tree_fail("${copy} differs from the original ${PROJECT}/${file}")
  endif()
endfunction()

# "path=sha256" of every file under DIR, sorted: compare two calls to prove
# that nothing was written.
function(tree_snapshot out dir)
  file(GLOB_RECURSE _files RELATIVE ${dir} ${dir}/*)
  list(SORT _files)
  set(_lines)
  foreach(_f ${_files})
    file(SHA256 ${dir}/${_f} _hash)
    list(APPEND _lines "${_f}=${_hash}")
  endforeach()
  set(${out} "${_lines}" PARENT_SCOPE)
endfunction()

function(tree_expect_same_snapshot before after what)
  if(NOT "${before}" STREQUAL "${after}")
    set(_changed)
    foreach(_line ${after})
      if(NOT _line IN_LIST before)
        string(REGEX REPLACE "=.*" "" _f "${_line}")
        list(APPEND _changed ${_f})
      endif()
    endforeach()
    tree_fail("${what}: files changed or added: ${_changed}")
  endif()
endfunction()
