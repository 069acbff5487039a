# AnnotateSummary.cmake - the one line annotate_target() prints per target.
#
#   cmake -DTARGET=<name> -DSUMMARIES=<a.summary|b.summary|...>
#         -P AnnotateSummary.cmake
#
# Each annotated copy has, beside it, the summary line annotate printed for
# its source (AnnotateSource.cmake):
#   annotate: 1 file, 1 changed, 0 failed; 12 functions annotated, 3 skipped (3 guard); 0 warnings
# and, for a source that was not annotated, a line
#   FAILED:src/x.c: first error at src/x.c:5:3: ...; try --extra-arg=...
# This adds them up into one line for the target, followed by one line per
# file not annotated, saying why:
#   annotate_target(app): 3 files, 2 changed, 1 failed; 41 functions annotated, 9 skipped (9 guard)
#   annotate_target(app):   not annotated: src/x.c: first error at ...
cmake_minimum_required(VERSION 3.20)

string(REPLACE "|" ";" SUMMARIES "${SUMMARIES}")
foreach(_key files changed failed annotated skipped)
  set(_${_key} 0)
endforeach()
set(_reasons)
set(_failures "")
foreach(_file IN LISTS SUMMARIES)
  if(NOT EXISTS "${_file}")
    continue()
  endif()
  file(READ "${_file}" _line) # not file(STRINGS), which escapes the ';'
  string(STRIP "${_line}" _line)
  string(FIND "${_line}" "\nFAILED:" _at)
  if(_at GREATER -1)
    math(EXPR _from "${_at} + 8")
    string(SUBSTRING "${_line}" ${_from} -1 _why)
    string(APPEND _failures "\nannotate_target(${TARGET}):   not annotated: ${_why}")
    string(SUBSTRING "${_line}" 0 ${_at} _line)
  endif()
  if(NOT _line MATCHES
     "^annotate: ([0-9]+) files?, ([0-9]+) changed, ([0-9]+) failed; ([0-9]+) functions? (annotated|stripped), ([0-9]+) (skipped|kept)")
    continue()
  endif()
  math(EXPR _files "${_files} + ${CMAKE_MATCH_1}")
  math(EXPR _changed "${_changed} + ${CMAKE_MATCH_2}")
  math(EXPR _failed "${_failed} + ${CMAKE_MATCH_3}")
  math(EXPR _annotated "${_annotated} + ${CMAKE_MATCH_4}")
  math(EXPR _skipped "${_skipped} + ${CMAKE_MATCH_6}")
  # "(3 guard, 1 excluded)": counts per reason.
  if(_line MATCHES "(skipped|kept) \\(([^)]*)\\)")
    string(REPLACE ", " ";" _items "${CMAKE_MATCH_2}")
    foreach(_item IN LISTS _items)
      if(_item MATCHES "^([0-9]+) (.*)$")
        set(_reason "${CMAKE_MATCH_2}")
        string(MAKE_C_IDENTIFIER "${_reason}" _id)
        if(NOT DEFINED _reason_${_id})
          set(_reason_${_id} 0)
          list(APPEND _reasons "${_reason}")
        endif()
        math(EXPR _reason_${_id} "${_reason_${_id}} + ${CMAKE_MATCH_1}")
      endif()
    endforeach()
  endif()
endforeach()

function(_plural out n one many)
  if(n EQUAL 1)
    set(${out} "${n} ${one}" PARENT_SCOPE)
  else()
    set(${out} "${n} ${many}" PARENT_SCOPE)
  endif()
endfunction()
_plural(_f ${_files} file files)
_plural(_a ${_annotated} function functions)
set(_line "annotate_target(${TARGET}): ${_f}, ${_changed} changed, ${_failed} failed; ${_a} annotated, ${_skipped} skipped")
if(_reasons)
  set(_parts)
  foreach(_reason IN LISTS _reasons)
    string(MAKE_C_IDENTIFIER "${_reason}" _id)
    list(APPEND _parts "${_reason_${_id}} ${_reason}")
  endforeach()
  list(JOIN _parts ", " _joined)
  string(APPEND _line " (${_joined})")
endif()
message("${_line}${_failures}")
