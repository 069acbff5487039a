# The command lines of dftracer-analyze, dftracer-check and dftracer-convert
# that the test suite, the docs, the benches and the demo use (issue 34:
# their options went from hand-written loops to CLI11) still run, with the
# exit status they had; a usage error still says what it said (first line
# of stderr, byte for byte, then the usage); --help and -h exit 0 and list
# every option.
#   cmake -DGEN=<dftracer_trace_gen> -DANALYZE=<dftracer-analyze>
#         -DCHECK=<dftracer-check> -DCONVERT=<dftracer-convert>
#         -DCHECK_TRACES=<analysis/test/check/traces>
#         -DRECORDS=<analysis/test/records> [-DMPIEXEC=<mpiexec>]
#         -DWORK=<dir> -P cli_compat.cmake
# Where a line names a path of its own (traces/, report.html, BASE), a
# small input of the same kind stands in: a generated set, the checker's
# hand-written traces, the two clean ranks of records/; `mpiexec -n 8`
# runs with -n 2.
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/cwd)
set_property(GLOBAL PROPERTY compat_lines 0)
set_property(GLOBAL PROPERTY compat_failures "")

set(_set ${WORK}/traces) # problems in it: --strict exits 1, check says invalid
analysis_generate(${_set} --files 2 --spans 300 --seed 7)
set(_f0 ${_set}/trace-0000-app.pfw)
set(_f1 ${_set}/trace-0001-app.pfw)
set(_t ${CHECK_TRACES})
get_filename_component(_bin ${ANALYZE} DIRECTORY)

# compat(<ANALYZE|CHECK|CONVERT> EXIT <n> [MESSAGE <usage error>]
#        [MATCH <regex>] [CREATES <file>...] [LAUNCHER <cmd>...] ARGS <arg>...)
function(compat tool)
  cmake_parse_arguments(C "" "EXIT;MESSAGE;MATCH" "CREATES;LAUNCHER;ARGS"
    ${ARGN})
  get_filename_component(_name ${${tool}} NAME)
  foreach(_file ${C_CREATES})
    file(REMOVE ${_file})
  endforeach()
  execute_process(COMMAND ${C_LAUNCHER} ${${tool}} ${C_ARGS}
    WORKING_DIRECTORY ${WORK}/cwd
    RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
  get_property(_n GLOBAL PROPERTY compat_lines)
  math(EXPR _n "${_n} + 1")
  set_property(GLOBAL PROPERTY compat_lines ${_n})
  string(JOIN " " _line ${C_LAUNCHER} ${_name} ${C_ARGS})
  set(_why)
  if(NOT "${_rc}" STREQUAL "${C_EXIT}")
    set(_why "exit ${_rc}, expected ${C_EXIT}")
  elseif(DEFINED C_MESSAGE)
    string(FIND "${_err}" "\n" _nl)
    string(SUBSTRING "${_err}" 0 ${_nl} _first)
    if(NOT _first STREQUAL "${_name}: ${C_MESSAGE}")
      set(_why "first line of stderr '${_first}', expected '${_name}: ${C_MESSAGE}'")
    elseif(NOT _err MATCHES "^[^\n]*\nusage: ${_name} ")
      set(_why "no usage after the message")
    elseif(NOT _out STREQUAL "")
      set(_why "a usage error wrote to stdout")
    endif()
  endif()
  if(NOT _why AND DEFINED C_MATCH AND NOT "${_out}${_err}" MATCHES "${C_MATCH}")
    set(_why "output does not match '${C_MATCH}'")
  endif()
  foreach(_file ${C_CREATES})
    if(NOT _why AND NOT EXISTS ${_file})
      set(_why "${_file} not written")
    endif()
  endforeach()
  if(_why)
    message("FAIL ${_line}: ${_why}\n${_out}${_err}")
    set_property(GLOBAL APPEND PROPERTY compat_failures "${_line}")
  else()
    message("ok   ${_line} (exit ${_rc})")
  endif()
endfunction()

# --- dftracer-analyze -----------------------------------------------------
# analysis/test: access_patterns, chrome, cli, e2e, e2e_compact, e2e_tuning,
# html_report, known_totals, large_html, no_parent, records, same_bytes,
# reader/compact_same_events; test/: scenarios, inputs/traces/upstream,
# integration/upstream_stub.
foreach(_j 1 3)
  compat(ANALYZE EXIT 0 ARGS -j ${_j} --json --all-files ${_set})
endforeach()
compat(ANALYZE EXIT 0 ARGS ${_set})
compat(ANALYZE EXIT 0 ARGS ${_set} --html ${WORK}/report.html
  CREATES ${WORK}/report.html)
compat(ANALYZE EXIT 0 ARGS ${_set} --chrome-trace ${WORK}/all.json
  CREATES ${WORK}/all.json)
compat(ANALYZE EXIT 0 ARGS ${_set} --chrome-trace ${WORK}/all.json.gz
  CREATES ${WORK}/all.json.gz)
compat(ANALYZE EXIT 0 ARGS ${_set} --chrome-trace ${WORK}/some.json.gz
  --ranks 1,3 --layers APP,POSIX --window 0.001: CREATES ${WORK}/some.json.gz)
compat(ANALYZE EXIT 0 ARGS ${_f0} --chrome-trace ${WORK}/odd.json
  CREATES ${WORK}/odd.json)
compat(ANALYZE EXIT 0 ARGS -j 1 ${_set} --chrome-trace ${WORK}/j1.json
  CREATES ${WORK}/j1.json)
compat(ANALYZE EXIT 0 ARGS --strict --json -j 1 ${RECORDS}/rank0.pfw
  ${RECORDS}/rank1.pfw)
compat(ANALYZE EXIT 1 ARGS --strict --json -j 1 ${_f0} ${_f1}
  MATCH "problems in the input \\(--strict\\)")
compat(ANALYZE EXIT 0 ARGS --json ${_set})
compat(ANALYZE EXIT 0 ARGS ${_set} --html ${WORK}/odd_names.html
  CREATES ${WORK}/odd_names.html)
compat(ANALYZE EXIT 1 ARGS --strict ${_set}
  MATCH "problems in the input \\(--strict\\)")
compat(ANALYZE EXIT 1 ARGS ${_f0} ${WORK}/missing.pfw
  MATCH "missing.pfw: bad_stream: cannot open")
compat(ANALYZE EXIT 0 ARGS --json ${_f0} ${_f0} --html ${WORK}/odd.html
  CREATES ${WORK}/odd.html)
compat(ANALYZE EXIT 1 ARGS ${_f0} --chrome-trace /proc/self/no-such-dir/out.json
  MATCH "no-such-dir/out.json.part0: cannot create")
compat(ANALYZE EXIT 2 MESSAGE "unknown option '--bogus' (or it needs a value)"
  ARGS --bogus x.pfw)
compat(ANALYZE EXIT 2 MESSAGE "no trace file given" ARGS --json)
compat(ANALYZE EXIT 2 MESSAGE "-j needs a number of threads, not 'zero'"
  ARGS -j zero x.pfw)
compat(ANALYZE EXIT 2 MESSAGE "--ranks, --window and --layers filter --chrome-trace, which is not given"
  ARGS --ranks 0 x.pfw)
compat(ANALYZE EXIT 2 MESSAGE "--window: '5' is not START:END in seconds after the first event (e.g. 1.5:3)"
  ARGS --chrome-trace o.json --window 5 x.pfw)
foreach(_flags "--json" "-j;1;--json;--no-diagnose" "-j;1;--no-diagnose")
  compat(ANALYZE EXIT 0 ARGS ${_flags} ${_f0})
endforeach()
compat(ANALYZE EXIT 0 ARGS --top 1000 ${_set})
compat(ANALYZE EXIT 0 ARGS --summarize-ranks-above 1 ${_set}
  MATCH "more than 1: summarized; --all-ranks lists every rank")
compat(ANALYZE EXIT 0 ARGS --summarize-ranks-above 1 --all-ranks --json ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--summarize-ranks-above needs a positive number, not 'abc'"
  ARGS --summarize-ranks-above abc x.pfw)
compat(ANALYZE EXIT 0 ARGS --strict --json --all-files -j 1 ${RECORDS})
compat(ANALYZE EXIT 0 ARGS ${RECORDS})
compat(ANALYZE EXIT 0 ARGS --json ${RECORDS})
compat(ANALYZE EXIT 0 ARGS --suggest-filter ${RECORDS}
  MATCH "exclude-function uniform_random_number")
file(WRITE ${WORK}/cost.json "{\"pair_cost_ns\": 500, \"cost_multiple\": 1, \"min_calls\": 2, \"throttled\": false}")
compat(ANALYZE EXIT 0 ARGS --suggest-filter --suggest-config ${WORK}/cost.json
  ${RECORDS})
file(WRITE ${WORK}/bad.json "{\"pair_cost_ns\": \"fast\"}")
compat(ANALYZE EXIT 2 ARGS --suggest-filter --suggest-config ${WORK}/bad.json
  ${RECORDS} MATCH "bad.json: \"pair_cost_ns\" must be a number")
compat(ANALYZE EXIT 0 ARGS --html ${WORK}/records.html ${RECORDS}
  CREATES ${WORK}/records.html)
compat(ANALYZE EXIT 0 ARGS --top 1 --html ${WORK}/two.html ${RECORDS}
  CREATES ${WORK}/two.html)
compat(ANALYZE EXIT 1 ARGS --strict --json ${_set})
foreach(_j 1 2 8)
  foreach(_flag "" --json --suggest-filter)
    compat(ANALYZE EXIT 0 ARGS -j ${_j} ${_flag} ${_set})
  endforeach()
endforeach()
compat(ANALYZE EXIT 0 ARGS --diagnose --json ${_set})
compat(ANALYZE EXIT 0 ARGS --diagnose ${_set})
compat(ANALYZE EXIT 0 ARGS --diagnose --json
  --diagnosis-rules ${_bin}/dftracer-analyze-diagnosis.json ${_set})
compat(ANALYZE EXIT 0 ARGS --json --compare ${_set} ${_set})
compat(ANALYZE EXIT 0 ARGS --json --force --compare ${_set} ${_set})
compat(ANALYZE EXIT 0 ARGS --json --time-unit ms ${_f0})
compat(ANALYZE EXIT 0 ARGS --json ${RECORDS}/rank0.pfw ${RECORDS}/rank1.pfw)
if(MPIEXEC)
  compat(ANALYZE EXIT 0 LAUNCHER ${MPIEXEC} -n 2 ARGS ${_set}
    --chrome-trace ${WORK}/mpi.json CREATES ${WORK}/mpi.json)
  foreach(_flag "" --json --suggest-filter)
    compat(ANALYZE EXIT 0 LAUNCHER ${MPIEXEC} -n 2 ARGS -j 1 ${_flag} ${_set})
  endforeach()
endif()

# docs/analysis.md, docs/diagnosis.md, docs/performance.md, README.md
compat(ANALYZE EXIT 0 ARGS --chrome-trace ${WORK}/run.json.gz --ranks 0-3
  --layers APP,MPIIO ${_set} CREATES ${WORK}/run.json.gz)
compat(ANALYZE EXIT 0 ARGS --suggest-filter ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS -j 1 --json ${_f0})
compat(ANALYZE EXIT 0 ARGS -j 1 ${_set})
compat(ANALYZE EXIT 0 ARGS ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS --diagnose ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS --no-diagnose ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS --diagnosis-rules
  ${_bin}/dftracer-analyze-diagnosis.json ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS --compare ${_set} --compare ${_set} --replicates
  --force ${_f0} ${_f1})
compat(ANALYZE EXIT 0 ARGS --compare ${_set} --compare ${_set} --compare ${_set}
  --replicates ${_set} ${_set} ${_set})
compat(ANALYZE EXIT 0 ARGS --compare ${_set} ${_set})
compat(ANALYZE EXIT 0 ARGS --html ${WORK}/report.html ${_f0} ${_f1}
  CREATES ${WORK}/report.html)
if(MPIEXEC)
  compat(ANALYZE EXIT 0 LAUNCHER ${MPIEXEC} -n 2 ARGS --json ${_set})
endif()
# scripts/demo.sh, bench/analysis/{run,diagnose,upstream}.sh
compat(ANALYZE EXIT 0 ARGS --top 12 --html ${WORK}/demo.html ${_set}
  CREATES ${WORK}/demo.html)
compat(ANALYZE EXIT 0 ARGS -j 1 --json --no-diagnose ${_set})
compat(ANALYZE EXIT 0 ARGS -j 1 --json --compare ${_set} ${_set})
compat(ANALYZE EXIT 0 ARGS -j 2 --json ${_set})
compat(ANALYZE EXIT 0 ARGS -j 2 ${_set})
compat(ANALYZE EXIT 0 ARGS -j 2 --html ${WORK}/bench.html ${_set}
  CREATES ${WORK}/bench.html)

# The other spellings the old loop took, and its other usage errors.
compat(ANALYZE EXIT 0 ARGS -j1 --jobs=1 --top=3 --time-unit=us --json ${_set})
compat(ANALYZE EXIT 0 ARGS --html=${WORK}/eq.html --compare=${_set} ${_set}
  CREATES ${WORK}/eq.html)
compat(ANALYZE EXIT 0 ARGS --json -- ${_set})
compat(ANALYZE EXIT 2 MESSAGE "unknown option '-jx' (or it needs a value)"
  ARGS -jx ${_set})
compat(ANALYZE EXIT 2 MESSAGE "unknown option '--json=1' (or it needs a value)"
  ARGS --json=1 ${_set})
compat(ANALYZE EXIT 2 MESSAGE "unknown option '-5' (or it needs a value)"
  ARGS -5 ${_set})
compat(ANALYZE EXIT 2 MESSAGE "unknown option '--top' (or it needs a value)"
  ARGS ${_set} --top)
compat(ANALYZE EXIT 2 MESSAGE "--top needs a positive number, not '0'"
  ARGS --top 0 ${_set})
compat(ANALYZE EXIT 2 MESSAGE "unknown option '--bogus' (or it needs a value)"
  ARGS --bogus --top 0 ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--time-unit must be us, ns, ms or sec, not 'min'"
  ARGS --time-unit min ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--suggest-config needs --suggest-filter"
  ARGS --suggest-config x.json ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--replicates and --force need --compare BASE"
  ARGS --replicates ${_set})
# --metric (issue 36, docs/tuning.md)
compat(ANALYZE EXIT 0 ARGS --json --metric bandwidth --compare ${_set} ${_set}
  MATCH "\"verdict\"")
compat(ANALYZE EXIT 2 MESSAGE "--metric needs --compare BASE"
  ARGS --metric wall ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--metric must be io, wall, bandwidth or function:NAME, not 'speed'"
  ARGS --metric speed --compare ${_set} ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--compare prints a comparison: not with --suggest-filter, --chrome-trace or --diagnose"
  ARGS --compare ${_set} --diagnose ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--diagnose and --no-diagnose exclude each other"
  ARGS --diagnose --no-diagnose ${_set})
compat(ANALYZE EXIT 2 MESSAGE "--diagnosis-rules with --no-diagnose: nothing to apply them to"
  ARGS --diagnosis-rules r.json --no-diagnose ${_set})
# --ledger (issue 36, docs/diagnosis.md "The ledger")
compat(ANALYZE EXIT 2 MESSAGE "--ledger adds to the findings: not with --no-diagnose, --suggest-filter or --compare"
  ARGS --ledger l.sqlite --no-diagnose ${_set})

# --- dftracer-check -------------------------------------------------------
# analysis/test/check (CMakeLists.txt, stopped_check, memory_bound),
# records; runtime/test (run_traced, throttle_check, compact_case); test/
# (e2e, e2e_cxx, golden, tree, integration, inputs/traces/upstream).
compat(CHECK EXIT 0 ARGS --expect-counts ${_t}/valid.counts.json ${_t}/valid.pfw
  MATCH "trace is valid; call counts match")
compat(CHECK EXIT 0 ARGS ${_t}/io_valid.pfw MATCH "trace is valid")
compat(CHECK EXIT 0 ARGS --json ${_t}/io_valid.pfw)
compat(CHECK EXIT 1 ARGS ${_t} MATCH "malformed.pfw:3: error: not valid JSON")
compat(CHECK EXIT 0 ARGS --json ${_t}/valid.pfw)
compat(CHECK EXIT 1 ARGS ${_t}/missing_end.pfw)
compat(CHECK EXIT 1 ARGS --json ${_t}/not_utf8.pfw)
compat(CHECK EXIT 1 ARGS ${_t}/does-not-exist.pfw MATCH "error: cannot open")
compat(CHECK EXIT 1 ARGS --expect-counts ${_t}/wrong.counts.json ${_t}/valid.pfw
  MATCH "call counts DIFFER")
compat(CHECK EXIT 2 MESSAGE "no trace file given" ARGS --json)
compat(CHECK EXIT 2 MESSAGE "unknown option '--bogus'" ARGS --bogus ${_t}/valid.pfw)
compat(CHECK EXIT 2 ARGS --expect-counts ${_t}/malformed.counts.json
  ${_t}/valid.pfw MATCH "count of 'main' must be a non-negative integer")
compat(CHECK EXIT 1 ARGS --json ${_set})
compat(CHECK EXIT 0 ARGS ${RECORDS})
compat(CHECK EXIT 0 ARGS --json ${RECORDS})
compat(CHECK EXIT 0 ARGS --json ${_t}/valid.pfw ${_t}/io_valid.pfw)
compat(CHECK EXIT 0 ARGS ${RECORDS}/rank0.pfw ${RECORDS}/rank1.pfw)
compat(CHECK EXIT 0 ARGS --json --time-unit ms ${_t}/valid.pfw)
# docs/runtime.md, docs/integration.md, docs/performance.md, README.md,
# scripts/demo.sh
compat(CHECK EXIT 0 ARGS --expect-counts ${_t}/valid.counts.json --json
  --time-unit us ${_t}/valid.pfw)
# The other spellings the old loop took, and its other usage errors.
compat(CHECK EXIT 0 ARGS --expect-counts=${_t}/valid.counts.json
  --time-unit=ns -- ${_t}/valid.pfw)
compat(CHECK EXIT 2 MESSAGE "--expect-counts needs a FILE.json argument"
  ARGS ${_t}/valid.pfw --expect-counts)
compat(CHECK EXIT 2 MESSAGE "--time-unit needs a unit (us, ns, ms, sec)"
  ARGS ${_t}/valid.pfw --time-unit)
compat(CHECK EXIT 2 MESSAGE "--time-unit must be us, ns, ms or sec, not 'x'"
  ARGS --time-unit x ${_t}/valid.pfw)
compat(CHECK EXIT 2 MESSAGE "unknown option '--json=1'"
  ARGS --json=1 ${_t}/valid.pfw)

# --- dftracer-convert -----------------------------------------------------
# analysis/test/reader/compact_same_events, e2e_compact; runtime/test
# (run_traced, compact_case, write_error.sh); bench/analysis/run.sh;
# README.md, docs/runtime.md, docs/trace-format.md.
file(MAKE_DIRECTORY ${WORK}/compact)
set(_c ${WORK}/compact/trace-0000-app)
compat(CONVERT EXIT 0 ARGS --compact -o ${_c}.pfc ${_f0} CREATES ${_c}.pfc)
compat(CONVERT EXIT 0 ARGS -o ${_c}.converted ${_c}.pfc
  CREATES ${_c}.converted)
analysis_same(${_c}.converted ${_f0} "-o: the .pfc converted back")
compat(CONVERT EXIT 0 ARGS ${_c}.pfc CREATES ${_c}.pfw)
compat(CONVERT EXIT 0 ARGS --gzip ${_c}.pfc CREATES ${_c}.pfw.gz)
file(REMOVE ${_c}.pfc)
compat(CONVERT EXIT 0 ARGS --compact ${_c}.pfw CREATES ${_c}.pfc)
compat(CONVERT EXIT 2 ARGS -o ${WORK}/text.pfw ${_f0}
  MATCH "not a compact trace")
compat(CONVERT EXIT 2 ARGS -o ${_c}.pfw ${_c}.pfc MATCH "use --force")
compat(CONVERT EXIT 0 ARGS --force -o ${_c}.pfw ${_c}.pfc)
compat(CONVERT EXIT 0 ARGS -o - ${_c}.pfc MATCH "\"name\"")
# The usage errors of the old loop.
compat(CONVERT EXIT 2 MESSAGE "no input" ARGS --force)
compat(CONVERT EXIT 2 MESSAGE "unknown option --bogus" ARGS --bogus ${_c}.pfc)
compat(CONVERT EXIT 2 MESSAGE "unknown option -o" ARGS ${_c}.pfc -o)
compat(CONVERT EXIT 2 MESSAGE "unknown option --" ARGS -- ${_c}.pfc)
compat(CONVERT EXIT 2 MESSAGE "-o takes one input" ARGS -o x.pfw a.pfc b.pfc)
compat(CONVERT EXIT 2 MESSAGE "--compact writes .pfc: not with --gzip"
  ARGS --compact --gzip ${_f0})

# --- --help and -h: exit 0, every option on a line of its own -------------
# (the options each tool defines; one missing here fails the test)
set(_options_ANALYZE -j --jobs --json --all-files --html --chrome-trace --ranks
  --window --layers --top --time-unit --suggest-filter --suggest-config
  --strict --diagnose --no-diagnose --diagnosis-rules --compare --replicates
  --force --metric --ledger -h --help)
set(_options_CHECK --expect-counts --json --time-unit -h --help)
set(_options_CONVERT --gzip --compact --force -o -h --help)
foreach(_tool ANALYZE CHECK CONVERT)
  foreach(_help --help -h)
    get_property(_n GLOBAL PROPERTY compat_lines)
    math(EXPR _n "${_n} + 1")
    set_property(GLOBAL PROPERTY compat_lines ${_n})
    execute_process(COMMAND ${${_tool}} ${_help} RESULT_VARIABLE _rc
      OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    get_filename_component(_name ${${_tool}} NAME)
    set(_missing)
    foreach(_opt ${_options_${_tool}})
      if(NOT _out MATCHES "\n  ([-a-z]+,)*${_opt}[ ,\n]")
        list(APPEND _missing ${_opt})
      endif()
    endforeach()
    if(NOT _rc EQUAL 0 OR _missing OR NOT _out MATCHES "^usage: ${_name} ")
      message("FAIL ${_name} ${_help}: exit ${_rc}, options not listed: "
              "${_missing}\n${_out}${_err}")
      set_property(GLOBAL APPEND PROPERTY compat_failures "${_name} ${_help}")
    else()
      message("ok   ${_name} ${_help} (exit 0, ${_options_${_tool}})")
    endif()
  endforeach()
endforeach()

get_property(_n GLOBAL PROPERTY compat_lines)
get_property(_failures GLOBAL PROPERTY compat_failures)
list(LENGTH _failures _nf)
message("cli_compat: ${_n} command lines, ${_nf} failed")
if(_failures)
  string(REPLACE ";" "\n  " _failures "${_failures}")
  analysis_fail("command lines that no longer behave as before:\n  ${_failures}")
endif()
