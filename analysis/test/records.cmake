# The runtime's records (untraced, throttled, trace_stopped, layer_bypassed,
# comm_size) and the per-layer bytes of an HDF5 > MPI-IO > POSIX file, as
# dftracer-analyze (text, JSON, --suggest-filter) and dftracer-check print
# them. RECORDS holds two hand-written ranks with known figures.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)

# expect_line(<text> <line-number> <exact line>)
function(expect_line text n want)
  set(_rest "${text}")
  foreach(_i RANGE 1 ${n})
    if(n EQUAL 0)
      break()
    endif()
    string(FIND "${_rest}" "\n" _at)
    math(EXPR _at "${_at} + 1")
    string(SUBSTRING "${_rest}" ${_at} -1 _rest)
  endforeach()
  string(FIND "${_rest}" "\n" _at)
  string(SUBSTRING "${_rest}" 0 ${_at} _got)
  if(NOT _got STREQUAL want)
    analysis_fail("line ${n}: expected\n  ${want}\ngot\n  ${_got}")
  endif()
endfunction()

# expect_json(<json> <want> <path...>)
function(expect_json json want)
  string(JSON _got ERROR_VARIABLE _err GET "${json}" ${ARGN})
  if(_err OR NOT _got STREQUAL want)
    analysis_fail("${ARGN}: expected ${want}, got '${_got}' ${_err}")
  endif()
endfunction()

set(_usr "not traced: /usr: 21 calls (5 opens, 15 reads, 1 writes), 5096 bytes read, 10 bytes written, in 2 processes (outside the traced directories: DFTRACER_DATA_DIR)")
set(_etc "not traced: /etc: 2 calls (1 opens, 1 reads, 0 writes), 120 bytes read, 0 bytes written, in 1 process (outside the traced directories: DFTRACER_DATA_DIR)")

analysis_run(_text _rc ${ANALYZE} ${RECORDS})
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-analyze failed: ${_text}")
endif()
expect_line("${_text}" 0 "layer bypassed: STDIO calls do not reach the tracer (fwrite resolves to /usr/lib/x86_64-linux-gnu/libc.so.6) in 2 processes (rank 0, rank 1): that layer is missing from this report; fix: link -ldftracer_core before -lc, or LD_PRELOAD=libdftracer_preload.so")
expect_line("${_text}" 1 "trace stopped: rank 0: size_limit, 1073741100 bytes written of a 1073741824-byte budget, 0.000950 s after the first event; later spans are only counted (the throttled table); fix: raise DFTRACER_MAX_TRACE_SIZE, or exclude hot functions (dftracer-analyze --suggest-filter)")
expect_line("${_text}" 2 "${_etc}")
expect_line("${_text}" 3 "${_usr}")
# The file's headline is POSIX's 1062912 bytes, not the sum over layers.
if(NOT _text MATCHES "\n  /data/out.h5 +\\? +7 +0.000153 +2 +0.000003 +0 +1062912 +2  HDF5 2 w 1048576; MPIIO 5 w 1060864 \\(independent 1, collective 1, nonblocking 1, opens 2 \\(comm_size mean 2.0\\)\\); POSIX 7 w 1062912\n")
  analysis_fail("file row with per-layer bytes not found:\n${_text}")
endif()
foreach(_row "  independent +1 +0.000020 +4096\n" "  collective +1 +0.000250 +1048576\n"
    "  nonblocking +1 +0.000060 +8192\n"
    "  uniform_random_number +4094306 +~0.812347 .* 4094304 throttled"
    "  uniform_random_number +C_APP +4094304 +~0.812345 +~0.198 "
    "\n  \\(~: the time includes throttled calls' sampled estimate"
    "  at the files +0 +1062912\n")
  if(NOT _text MATCHES "${_row}")
    analysis_fail("'${_row}' not found:\n${_text}")
  endif()
endforeach()

analysis_run(_json _rc ${ANALYZE} --json ${RECORDS})
expect_json("${_json}" "/etc" untraced 0 dir)
expect_json("${_json}" "5" untraced 1 opens)
expect_json("${_json}" "15" untraced 1 reads)
expect_json("${_json}" "1" untraced 1 writes)
expect_json("${_json}" "5096" untraced 1 bytes_read)
expect_json("${_json}" "10" untraced 1 bytes_written)
expect_json("${_json}" "2" layer_bypassed 0 processes)
expect_json("${_json}" "size_limit" trace_stopped 0 reason)
expect_json("${_json}" "1073741100" trace_stopped 0 written)
expect_json("${_json}" "uniform_random_number" throttled 0 function)
expect_json("${_json}" "4094304" throttled 0 calls)
# Its record says "time":"sampled": the time is an estimate, and says so.
expect_json("${_json}" "sampled" throttled 0 time)
string(JSON _fns GET "${_json}" functions)
string(JSON _nfns LENGTH "${_fns}")
math(EXPR _last "${_nfns} - 1")
set(_marked "")
foreach(_i RANGE ${_last})
  string(JSON _fn GET "${_fns}" ${_i})
  string(JSON _name GET "${_fn}" name)
  string(JSON _time ERROR_VARIABLE _none GET "${_fn}" throttled time)
  if(_time STREQUAL "sampled")
    list(APPEND _marked ${_name})
  endif()
endforeach()
if(NOT _marked STREQUAL "uniform_random_number")
  analysis_fail("functions with throttled.time sampled: '${_marked}'")
endif()
expect_json("${_json}" "1062912" files_top by_bytes 0 bytes_written)
expect_json("${_json}" "1048576" files_top by_bytes 0 layers HDF5 bytes_written)
expect_json("${_json}" "1060864" files_top by_bytes 0 layers MPIIO bytes_written)
expect_json("${_json}" "1048576" files_top by_bytes 0 layers MPIIO mpiio collective bytes)
expect_json("${_json}" "4" files_top by_bytes 0 layers MPIIO mpiio comm_size_sum)
expect_json("${_json}" "1062912" io reached bytes_written)
expect_json("${_json}" "1054720" ranks list 0 io_bytes_written)
expect_json("${_json}" "1" layers MPIIO mpiio independent ops)
expect_json("${_json}" "1" layers MPIIO mpiio nonblocking ops)
expect_json("${_json}" "10" layers POSIX throttled ops)

analysis_run(_filter _rc ${ANALYZE} --suggest-filter ${RECORDS})
if(NOT _rc EQUAL 0)
  analysis_fail("--suggest-filter failed: ${_filter}")
endif()
string(REGEX MATCHALL "\nexclude-function [^\n]*" _rules "${_filter}")
if(NOT _rules STREQUAL "\nexclude-function uniform_random_number")
  analysis_fail("--suggest-filter rules: '${_rules}'\n${_filter}")
endif()
if(NOT _filter MATCHES "\n# uniform_random_number: 4094306 calls, mean 0.198 us, 4094304 not written \\(throttle\\)\n")
  analysis_fail("--suggest-filter comment:\n${_filter}")
endif()
# A threshold above the written spans' mean (1 us) but no throttling: the
# same function, found by cost alone, and main is not.
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/cost.json "{\"pair_cost_ns\": 500, \"cost_multiple\": 1, \"min_calls\": 2, \"throttled\": false}")
analysis_run(_filter _rc ${ANALYZE} --suggest-filter --suggest-config ${WORK}/cost.json ${RECORDS})
string(REGEX MATCHALL "\nexclude-function [^\n]*" _rules "${_filter}")
if(NOT _rules STREQUAL "\nexclude-function uniform_random_number")
  analysis_fail("--suggest-config cost.json rules: '${_rules}'\n${_filter}")
endif()
file(WRITE ${WORK}/bad.json "{\"pair_cost_ns\": \"fast\"}")
analysis_run(_out _rc ${ANALYZE} --suggest-filter --suggest-config ${WORK}/bad.json ${RECORDS})
if(NOT _rc EQUAL 2 OR NOT _out MATCHES "bad.json: \"pair_cost_ns\" must be a number")
  analysis_fail("bad thresholds: exit ${_rc}: ${_out}")
endif()

file(MAKE_DIRECTORY ${WORK})
analysis_run(_out _rc ${ANALYZE} --html ${WORK}/records.html ${RECORDS})
file(READ ${WORK}/records.html _html)
foreach(_want "<div id=\"records\" class=\"banner\">"
    "Layer bypassed: STDIO calls do not reach the tracer"
    "Trace stopped on rank 0: size_limit"
    "Not traced: /usr: 21 calls (5 opens, 15 reads, 1 writes)"
    # The caveats box at the top (Caveats.h), as the text report says them.
    "<div id=\"caveats\" class=\"caveats\">"
    "<li>1 processes stopped tracing early (trace_stopped): figures are lower bounds</li>"
    "<li>2 functions or calls throttled (records &quot;throttled&quot;): their spans are counted, not placed</li>"
    "<li>APP: 4094304 of the ops are throttled records"
    "<li>~: the time of 1 functions or calls includes throttled calls' sampled estimate"
    "<table id=\"throttled-table\">"
    "<td>~0.81"
    "MPIIO 5 w 1060864 (independent 1, collective 1, nonblocking 1")
  string(FIND "${_html}" "${_want}" _at)
  if(_at LESS 0)
    analysis_fail("HTML report lacks '${_want}'")
  endif()
endforeach()

# Past --top the stopped processes are counted, in HTML as in text: rank 1
# stopped too, in a copy of the set.
file(MAKE_DIRECTORY ${WORK}/two_stopped)
file(COPY ${RECORDS}/rank0.pfw ${RECORDS}/rank1.pfw DESTINATION ${WORK}/two_stopped)
file(APPEND ${WORK}/two_stopped/rank1.pfw "{\"id\":9,\"name\":\"trace_stopped\",\"cat\":\"dftracer\",\"pid\":8,\"tid\":8,\"ph\":\"M\",\"args\":{\"reason\":\"size_limit\",\"limit\":1048576,\"written\":1040000,\"ts\":250}}\n")
analysis_run(_text _rc ${ANALYZE} --top 1 --html ${WORK}/two_stopped.html ${WORK}/two_stopped)
if(NOT _text MATCHES "\ntrace stopped: \\.\\.\\. 1 more processes \\(--json lists them\\)\n")
  analysis_fail("text report, --top 1: the second stopped process not counted:\n${_text}")
endif()
file(READ ${WORK}/two_stopped.html _html)
string(FIND "${_html}" "Trace stopped on 1 more processes (the JSON report lists them)" _at)
if(_at LESS 0)
  analysis_fail("HTML report, --top 1: the second stopped process not counted")
endif()

analysis_run(_check _rc ${CHECK} ${RECORDS})
if(NOT _rc EQUAL 0)
  analysis_fail("dftracer-check failed: ${_check}")
endif()
expect_line("${_check}" 0 "layer bypassed: rank 0 (pid 7): STDIO calls do not reach the tracer (fwrite resolves to /usr/lib/x86_64-linux-gnu/libc.so.6); fix: link -ldftracer_core before -lc, or LD_PRELOAD=libdftracer_preload.so")
expect_line("${_check}" 2 "trace stopped: rank 0 (pid 7): size_limit, 1073741100 bytes written of a 1073741824-byte budget; later spans are only counted")
expect_line("${_check}" 3 "${_etc}")
expect_line("${_check}" 4 "${_usr}")
analysis_run(_cjson _rc ${CHECK} --json ${RECORDS})
expect_json("${_cjson}" "/usr" untraced 1 dir)
expect_json("${_cjson}" "5096" untraced 1 bytes_read)
expect_json("${_cjson}" "fwrite" layer_bypassed 1 symbol)
expect_json("${_cjson}" "size_limit" trace_stopped 0 reason)
message("records: analyzer text/JSON/--suggest-filter and check as expected")
