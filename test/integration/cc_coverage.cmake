# integration.cc.coverage: annotate-cc's coverage record (issue 38). Each
# object gets OBJECT.coverage.json, one JSON line per source (annotated, or
# failed and why, and the functions left unannotated with why); a link's
# output gets those of the objects it links. Built from cli_project/ with
# this build's C compiler: sub/a.c annotated, nested.c (a GCC nested
# function, which Clang cannot parse) compiled untraced.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_CC C_COMPILER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cli_project "${WORK}")
set(CC "${C_COMPILER}")

foreach(_src sub/a.c b.c nested.c)
  get_filename_component(_name "${_src}" NAME_WE)
  int_run(_r COMMAND "${ANNOTATE_CC}" ${CC} -c ${_src} -o ${_name}.o
    WORKING_DIRECTORY "${WORK}")
  int_expect_success(_r "annotate-cc cc -c ${_src}")
  if(NOT EXISTS "${WORK}/${_name}.o.coverage.json")
    int_fail("annotate-cc cc -c ${_src} -o ${_name}.o wrote no ${_name}.o.coverage.json")
  endif()
endforeach()
int_run(_r COMMAND "${ANNOTATE_CC}" ${CC} a.o b.o nested.o -o prog
  WORKING_DIRECTORY "${WORK}")
int_expect_success(_r "annotate-cc cc a.o b.o nested.o -o prog")

# One record per line, each a JSON object with one file.
file(STRINGS "${WORK}/prog.coverage.json" _lines)
list(LENGTH _lines _count)
if(NOT _count EQUAL 3)
  int_fail("prog.coverage.json has ${_count} lines, not 3 (a.c, b.c, nested.c):\n${_lines}")
endif()
set(_seen "")
foreach(_line IN LISTS _lines)
  string(JSON _version GET "${_line}" coverage)
  string(JSON _path GET "${_line}" files 0 file)
  string(JSON _status GET "${_line}" files 0 status)
  string(JSON _annotated GET "${_line}" files 0 annotated)
  if(NOT _version EQUAL 1 OR NOT IS_ABSOLUTE "${_path}")
    int_fail("not a coverage record of an absolute path: ${_line}")
  endif()
  get_filename_component(_name "${_path}" NAME)
  list(APPEND _seen "${_name}:${_status}")
  if(_name STREQUAL "nested.c")
    string(JSON _reason GET "${_line}" files 0 reason)
    int_expect_match("${_reason}" "^not annotated \\(.+\\)$" "nested.c's reason")
  elseif(_name STREQUAL "a.c")
    if(NOT _annotated EQUAL 2)
      int_fail("a.c: ${_annotated} functions annotated, not 2 (a_func, main): ${_line}")
    endif()
  endif()
endforeach()
list(SORT _seen)
int_expect_list("${_seen}" "a.c:annotated;b.c:annotated;nested.c:failed"
  "the files of prog.coverage.json and their status")

# A function left out is named, with why and the rule that decided: here a
# filter of ANNOTATE_CC_OPTIONS.
set(ENV{ANNOTATE_CC_OPTIONS} "--exclude-function b_func")
int_run(_r COMMAND "${ANNOTATE_CC}" ${CC} -c b.c -o b2.o WORKING_DIRECTORY "${WORK}")
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_success(_r "annotate-cc cc -c b.c (b_func excluded)")
file(READ "${WORK}/b2.o.coverage.json" _line)
string(JSON _status GET "${_line}" files 0 status)
string(JSON _fn GET "${_line}" files 0 unannotated 0 function)
string(JSON _why GET "${_line}" files 0 unannotated 0 reason)
string(JSON _rule GET "${_line}" files 0 unannotated 0 rule)
if(NOT _status STREQUAL "not_annotated" OR NOT _fn STREQUAL "b_func")
  int_fail("b2.o.coverage.json: expected b_func not annotated: ${_line}")
endif()
int_expect_match("${_rule}" "b_func" "the rule that excluded b_func (${_why})")

# ANNOTATE_CC_COVERAGE=0: none.
set(ENV{ANNOTATE_CC_COVERAGE} 0)
int_run(_r COMMAND "${ANNOTATE_CC}" ${CC} -c b.c -o b3.o WORKING_DIRECTORY "${WORK}")
unset(ENV{ANNOTATE_CC_COVERAGE})
int_expect_success(_r "ANNOTATE_CC_COVERAGE=0 annotate-cc cc -c b.c")
if(EXISTS "${WORK}/b3.o.coverage.json")
  int_fail("ANNOTATE_CC_COVERAGE=0 wrote b3.o.coverage.json")
endif()
