# tree.inplace.report: the --report JSON of tree.inplace.annotate says what
# happened to each file and function, with locations.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

file(READ ${WORK}/report.json _report)

foreach(_pair files=${TREE_UNITS} failed=1 annotated=${TREE_FUNCTIONS_ANNOTATED}
              skipped=${TREE_FUNCTIONS_SKIPPED})
  string(REPLACE "=" ";" _pair "${_pair}")
  list(GET _pair 0 _key)
  list(GET _pair 1 _expected)
  string(JSON _value GET "${_report}" summary ${_key})
  if(NOT _value EQUAL _expected)
    tree_fail("report: summary.${_key} is ${_value}, expected ${_expected}")
  endif()
endforeach()

string(JSON _n LENGTH "${_report}" files)
if(NOT _n EQUAL TREE_UNITS)
  tree_fail("report: ${_n} file entries, expected ${TREE_UNITS} (one per unit)")
endif()

math(EXPR _last "${_n} - 1")
set(_seen)
foreach(_i RANGE ${_last})
  string(JSON _path GET "${_report}" files ${_i} path)
  string(JSON _status GET "${_report}" files ${_i} status)
  file(RELATIVE_PATH _rel ${TREE_ROOT} ${_path})
  if(_rel IN_LIST _seen)
    tree_fail("report: ${_rel} listed twice")
  endif()
  list(APPEND _seen ${_rel})

  if(_rel STREQUAL TREE_BROKEN)
    string(JSON _reason GET "${_report}" files ${_i} reason)
    if(NOT _status STREQUAL "failed" OR _reason STREQUAL "")
      tree_fail("report: ${_rel} is '${_status}' ('${_reason}'), expected "
                "failed with a reason")
    endif()
    continue()
  endif()
  if(NOT _status STREQUAL "changed")
    tree_fail("report: ${_rel} is '${_status}', expected changed")
  endif()

  # Every function of the file (and of the headers it includes) is listed
  # with its location; those of TREE_SKIPPED are skipped, and why.
  set(_own 0)
  string(JSON _fns LENGTH "${_report}" files ${_i} functions)
  math(EXPR _fnlast "${_fns} - 1")
  foreach(_j RANGE ${_fnlast})
    string(JSON _name GET "${_report}" files ${_i} functions ${_j} name)
    string(JSON _file GET "${_report}" files ${_i} functions ${_j} file)
    string(JSON _line GET "${_report}" files ${_i} functions ${_j} line)
    string(JSON _annotated GET "${_report}" files ${_i} functions ${_j} annotated)
    # Lines are those of the file as it was parsed: the pristine copy.
    file(RELATIVE_PATH _file_rel ${TREE_PROJECT} ${_file})
    tree_line_text(_text ${PROJECT}/${_file_rel} ${_line})
    set(_skip ${TREE_SKIPPED})
    list(FILTER _skip INCLUDE REGEX "^${_name}=")
    if(_skip)
      string(REGEX REPLACE "^[^=]*=" "" _why_expected "${_skip}")
      string(JSON _why GET "${_report}" files ${_i} functions ${_j} reason)
      if(_annotated OR NOT _why MATCHES "${_why_expected}")
        tree_fail("report: ${_rel}: ${_name} at ${_file}:${_line} is "
                  "annotated=${_annotated} '${_why}', expected skipped: "
                  "${_why_expected}")
      endif()
      # A skipped function names the rule that decided, built-in ones too.
      string(JSON _rule ERROR_VARIABLE _no_rule GET "${_report}" files ${_i}
             functions ${_j} rule)
      if(_no_rule OR _rule STREQUAL "")
        tree_fail("report: ${_rel}: ${_name} is skipped (${_why}) with no rule")
      endif()
    elseif(NOT _annotated)
      tree_fail("report: ${_rel}: ${_name} at ${_file}:${_line} is not annotated")
    endif()
    # The line is the definition's: the name, or the macro that writes it.
    if(NOT _text MATCHES "[ *]${_name}\\(" AND NOT _text MATCHES "^TREE_STATS_GETTER\\(")
      tree_fail("report: ${_rel}: ${_name} at ${_file}:${_line} is not its "
                "definition: '${_text}'")
    endif()
    if(_file STREQUAL _path AND _annotated)
      math(EXPR _own "${_own} + 1")
    endif()
  endforeach()
  set(_entries ${TREE_ANNOTATED})
  list(FILTER _entries INCLUDE REGEX "^${_rel}=")
  string(REGEX REPLACE ".*=" "" _expected "${_entries}")
  if(NOT _own EQUAL _expected)
    tree_fail("report: ${_rel} lists ${_own} of its own functions as annotated, "
              "expected ${_expected}")
  endif()
endforeach()
message(STATUS "report: ${_n} units: ${_seen}")
