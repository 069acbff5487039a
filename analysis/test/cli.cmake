# Exit codes and messages: problems are reported with file:line and only
# --strict makes them fatal; unreadable files and usage errors are.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
set(_dir ${WORK}/traces)
analysis_generate(${_dir} --files 2 --spans 500 --invalid --truncate)

analysis_run(_out _rc ${ANALYZE} ${_dir})
if(NOT _rc EQUAL 0)
  analysis_fail("problems without --strict must exit 0, got ${_rc}: ${_out}")
endif()
foreach(_re "trace-0000-app.pfw:[0-9]+: invalid_line: not valid JSON"
            "truncated_line [0-9]+" "missing_parent [0-9]+"
            "trace-0000-app.pfw:[0-9]+: negative_time: negative \"dur\" \\(-5\\)"
            "unknown_category 2")
  if(NOT _out MATCHES "${_re}")
    analysis_fail("output does not match '${_re}':\n${_out}")
  endif()
endforeach()

analysis_run(_out _rc ${ANALYZE} --strict ${_dir})
if(NOT _rc EQUAL 1 OR NOT _out MATCHES "problems in the input \\(--strict\\)")
  analysis_fail("--strict with problems must exit 1, got ${_rc}")
endif()

analysis_run(_out _rc ${ANALYZE} ${_dir}/trace-0000-app.pfw ${WORK}/missing.pfw)
if(NOT _rc EQUAL 1 OR NOT _out MATCHES "missing.pfw: bad_stream: cannot open")
  analysis_fail("a missing file must exit 1 with its name, got ${_rc}: ${_out}")
endif()

# Bytes that are not UTF-8, in a line and in a file's name: the JSON and
# HTML reports quote them (as U+FFFD) instead of aborting.
string(ASCII 233 _latin1_e)
set(_odd ${WORK}/caf${_latin1_e}-1.pfw)
file(WRITE ${_odd} "[\n{\"id\":1,\"name\":\"main\",\"cat\":\"C_APP\",\"pid\":7,\"tid\":7,\"ts\":10,\"dur\":5,\"ph\":\"X\",\"args\":{\"level\":1,\"p_idx\":0}}\n{\"name\":\"caf${_latin1_e}\"}\n{\"id\":2,\"name\":\"CM\",\"pid\":7,\"ph\":\"M\",\"args\":{\"name\":\"rank\",\"value\":\"0\"}}\n")
analysis_run(_out _rc ${ANALYZE} --json ${_odd} ${_odd} --html ${WORK}/odd.html)
if(NOT _rc EQUAL 0 OR NOT _out MATCHES "\"kind\": \"invalid_line\"")
  analysis_fail("--json over bytes that are not UTF-8 must report them, got ${_rc}: ${_out}")
endif()

# An output that cannot be written is an error that names it, not a crash.
analysis_run(_out _rc ${ANALYZE} ${_dir}/trace-0000-app.pfw
  --chrome-trace /proc/self/no-such-dir/out.json)
if(NOT _rc EQUAL 1 OR NOT _out MATCHES "no-such-dir/out.json.part0: cannot create")
  analysis_fail("an unwritable --chrome-trace must exit 1 saying why, got ${_rc}: ${_out}")
endif()

foreach(_case "--bogus,x.pfw|unknown option '--bogus'" "--json|no trace file given"
              "-j,zero,x.pfw|-j needs a number" "--ranks,0,x.pfw|filter --chrome-trace"
              "--chrome-trace,o.json,--window,5,x.pfw|--window: '5'")
  string(REPLACE "|" ";" _parts "${_case}")
  list(GET _parts 0 _args)
  list(GET _parts 1 _re)
  string(REPLACE "," ";" _args "${_args}")
  analysis_run(_out _rc ${ANALYZE} ${_args})
  if(NOT _rc EQUAL 2 OR NOT _out MATCHES "${_re}")
    analysis_fail("'${_args}' must be a usage error (2) saying '${_re}', got ${_rc}: ${_out}")
  endif()
endforeach()

analysis_run(_out _rc ${ANALYZE} --help)
foreach(_opt -j --json --html --chrome-trace --ranks --window --layers --top --strict)
  if(NOT _out MATCHES "${_opt}")
    analysis_fail("--help does not explain ${_opt}")
  endif()
endforeach()

# The generator makes its output directory, and says so when it cannot write.
file(REMOVE_RECURSE ${WORK}/new)
analysis_run(_out _rc ${GEN} generate --dir ${WORK}/new/nested --files 1 --spans 20)
if(NOT _rc EQUAL 0 OR NOT EXISTS ${WORK}/new/nested/trace-0000-app.pfw)
  analysis_fail("the generator must create --dir, got ${_rc}: ${_out}")
endif()
analysis_run(_out _rc ${GEN} generate --dir /proc/self/no-such-dir --files 1)
if(NOT _rc EQUAL 1 OR NOT _out MATCHES "dftracer_trace_gen: cannot")
  analysis_fail("an unwritable --dir must exit 1 saying why, got ${_rc}: ${_out}")
endif()

# Ranks summarized (more than --summarize-ranks-above) but all of them in
# the slowest rows (--top): no empty "Fastest 0 ranks" table after them.
analysis_generate(${WORK}/four --files 4 --spans 300 --seed 7)
analysis_run(_out _rc ${ANALYZE} --summarize-ranks-above 2 ${WORK}/four)
if(NOT _rc EQUAL 0 OR NOT _out MATCHES "Slowest 4 of 4 ranks" OR
   _out MATCHES "Fastest 0 ranks")
  analysis_fail("4 ranks above 2 with --top 10: the slowest 4 and no empty fastest table, got ${_rc}: ${_out}")
endif()
