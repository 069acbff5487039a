# AnnotateCoverage.cmake - the coverage source annotate_target() links into
# a program or shared library (docs/integration.md, "Coverage").
#
#   cmake -DTARGET=<name> -DOUTPUT=<file.c> -DRECORDS=<a.json|b.json|...>
#         -P AnnotateCoverage.cmake
#
# RECORDS are the coverage records of the target's sources, JSON lines
# (annotate --coverage, or the record AnnotateSource.cmake writes for a file
# annotate failed on, or annotate_target's for the sources it left out).
# OUTPUT gets a C source (also valid C++) holding one JSON object
#   {"program":TARGET,"files":[{"file":F,"status":S[,"reason":R]},...]}
# in a static string, and a constructor that passes it to the runtime's
# dftracer_register_coverage through a weak reference (a program run
# without the runtime skips the call). The runtime writes it as the
# `coverage` record of each trace file (docs/runtime.md).
#
# The same rules as annotate-cc's link step: one entry per file (an
# annotated record of it wins, else its last one); status annotated, failed
# or excluded; a file none of whose functions was annotated is excluded
# ("no function annotated (<their reasons>)"), or annotated when it has no
# function to annotate.
cmake_minimum_required(VERSION 3.20)

foreach(_var TARGET OUTPUT)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "AnnotateCoverage.cmake: -D${_var}=... is required")
  endif()
endforeach()

# _json_string(<out> <text>): <text> as the body of a JSON string.
function(_json_string out text)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  string(REPLACE "\t" "\\t" text "${text}")
  string(REGEX REPLACE "[\r\n]+" " " text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" RECORDS "${RECORDS}")
string(ASCII 31 _sep) # ';' in a line would split a list of lines
set(_ids) # the files, in order of first appearance
foreach(_records IN LISTS RECORDS)
  if(NOT EXISTS "${_records}")
    continue()
  endif()
  file(READ "${_records}" _text)
  string(REPLACE ";" "${_sep}" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  foreach(_line IN LISTS _lines)
    string(REPLACE "${_sep}" ";" _line "${_line}")
    string(STRIP "${_line}" _line)
    if(_line STREQUAL "")
      continue()
    endif()
    string(JSON _count ERROR_VARIABLE _err LENGTH "${_line}" files)
    if(_err)
      message(WARNING "annotate_target(${TARGET}): ${_records}: not a coverage record (${_err})")
      continue()
    endif()
    if(_count EQUAL 0)
      continue()
    endif()
    math(EXPR _last "${_count} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _file ERROR_VARIABLE _err GET "${_line}" files ${_i} file)
      string(JSON _status ERROR_VARIABLE _err2 GET "${_line}" files ${_i} status)
      if(_err OR _err2)
        continue()
      endif()
      string(JSON _reason ERROR_VARIABLE _err GET "${_line}" files ${_i} reason)
      if(_err)
        set(_reason "")
      endif()
      if(_status STREQUAL "not_annotated")
        string(JSON _left ERROR_VARIABLE _err LENGTH "${_line}" files ${_i} unannotated)
        if(_err OR _left EQUAL 0)
          set(_status annotated) # no function to annotate
        else()
          # Their reasons, from the first few (each GET parses the line).
          set(_why "")
          set(_j 0)
          while(_j LESS _left AND _j LESS 16)
            string(JSON _r ERROR_VARIABLE _err GET "${_line}" files ${_i} unannotated ${_j} reason)
            if(NOT _err)
              string(FIND "${_sep}${_why}${_sep}" "${_sep}${_r}${_sep}" _at)
              if(_at EQUAL -1)
                string(APPEND _why "${_sep}${_r}")
              endif()
            endif()
            math(EXPR _j "${_j} + 1")
          endwhile()
          string(REGEX REPLACE "^${_sep}" "" _why "${_why}")
          string(REPLACE "${_sep}" ", " _why "${_why}")
          set(_status excluded)
          set(_reason "no function annotated (${_why})")
        endif()
      elseif(NOT _status MATCHES "^(annotated|failed)$")
        if(_reason STREQUAL "")
          set(_reason "${_status}")
        endif()
        set(_status excluded)
      endif()
      string(MD5 _id "${_file}")
      if(NOT DEFINED _status_${_id})
        list(APPEND _ids ${_id})
      elseif(_status_${_id} STREQUAL "annotated")
        continue()
      endif()
      set(_file_${_id} "${_file}")
      set(_status_${_id} "${_status}")
      set(_reason_${_id} "${_reason}")
    endforeach()
  endforeach()
endforeach()

_json_string(_program "${TARGET}")
set(_json "{\"program\":\"${_program}\",\"files\":[")
set(_comma "")
foreach(_id IN LISTS _ids)
  _json_string(_f "${_file_${_id}}")
  string(APPEND _json "${_comma}{\"file\":\"${_f}\",\"status\":\"${_status_${_id}}\"")
  if(NOT _status_${_id} STREQUAL "annotated")
    _json_string(_r "${_reason_${_id}}")
    string(APPEND _json ",\"reason\":\"${_r}\"")
  endif()
  string(APPEND _json "}")
  set(_comma ",")
endforeach()
string(APPEND _json "]}")

# The text as C string literals, 96 bytes a line (no trigraph: '?' escaped).
string(LENGTH "${_json}" _length)
set(_literal "")
set(_at 0)
while(_at LESS _length)
  string(SUBSTRING "${_json}" ${_at} 96 _piece)
  string(REPLACE "\\" "\\\\" _piece "${_piece}")
  string(REPLACE "\"" "\\\"" _piece "${_piece}")
  string(REPLACE "?" "\\?" _piece "${_piece}")
  string(APPEND _literal "    \"${_piece}\"\n")
  math(EXPR _at "${_at} + 96")
endwhile()

set(_source "/* Generated by annotate_target(${TARGET}) (AnnotateCoverage.cmake): the
 * coverage of its sources, registered with the tracing runtime at start-up
 * (docs/integration.md, \"Coverage\"). Run without the runtime: no call. */
#if defined(__GNUC__)
#pragma GCC diagnostic ignored \"-Woverlength-strings\"
#endif
#ifdef __cplusplus
extern \"C\"
#endif
void dftracer_register_coverage(const char *json) __attribute__((weak));
static const char dftracer_coverage_json_[] =
${_literal}    \"\";
__attribute__((constructor)) static void dftracer_coverage_register_(void) {
  if (dftracer_register_coverage)
    dftracer_register_coverage(dftracer_coverage_json_);
}
")
file(WRITE "${OUTPUT}.tmp" "${_source}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
