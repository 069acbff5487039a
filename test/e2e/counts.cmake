# Expected call counts, as dftracer-check --expect-counts reads them:
# one JSON object {"function": calls, ...}, summed over all ranks' traces.

function(e2e_counts_get var json name)
  string(JSON _n ERROR_VARIABLE _err GET "${json}" "${name}")
  if(_err)
    message(FATAL_ERROR "counts have no entry '${name}': ${_err}")
  endif()
  set(${var} ${_n} PARENT_SCOPE)
endfunction()

function(e2e_counts_set var json name value)
  string(JSON _json SET "${json}" "${name}" "${value}")
  set(${var} "${_json}" PARENT_SCOPE)
endfunction()

# e2e_counts_from_report(VAR REPORT) turns the output of dftracer-check
# --json into a counts object, one function per line, sorted by name.
function(e2e_counts_from_report var report)
  string(JSON _valid GET "${report}" valid)
  if(NOT _valid)
    message(FATAL_ERROR "dftracer-check says the traces are invalid:\n${report}")
  endif()
  string(JSON _n LENGTH "${report}" functions)
  set(_lines)
  if(_n GREATER 0)
    math(EXPR _last "${_n} - 1")
    foreach(_i RANGE ${_last})
      string(JSON _name GET "${report}" functions ${_i} name)
      string(JSON _calls GET "${report}" functions ${_i} calls)
      list(APPEND _lines "  \"${_name}\": ${_calls}")
    endforeach()
  endif()
  list(SORT _lines)
  list(JOIN _lines ",\n" _body)
  set(${var} "{\n${_body}\n}\n" PARENT_SCOPE)
endfunction()
