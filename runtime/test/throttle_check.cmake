# Runs dft_throttle (throttle.c) and checks that the calls of FUNCTION are
# all accounted for in each process's trace: spans written + the calls of
# its `throttled` lines == the count the process printed ("calls N pid P").
#
#   cmake -DPROGRAM=<exe> -DARGS=mode;K -DWORK_DIR=<dir> [-DENV=VAR=VAL;...]
#         -DFUNCTION=tiny [-DREASON=throttle|size_limit|none]
#         [-DEXPECT_FILES=N] [-DEXACT_SPANS=N] [-DMAX_SPANS=N]
#         [-DMAX_FILE_BYTES=N] [-DSTDERR_REGEX=re] [-DIO_PARENT=ON]
#         [-DSAMPLED=K] [-DCHECK=<dftracer-check>] -P throttle_check.cmake
#
# REASON: the reason of FUNCTION's `throttled` lines (none: there must be
# none). EXACT_SPANS/MAX_SPANS: FUNCTION's spans per file. The summed
# durations (spans + record) must fit in the enclosing loop spans' (they
# are disjoint calls inside them). STDERR_REGEX: stderr must hold exactly
# one `dftracer:` line, matching it (without: no such line). IO_PARENT:
# every write() event is traced, and those made under a throttled call
# nest under loop() (p_idx = loop's id), one per throttled call.
# size_limit also needs a `trace_stopped` line with that reason.
# SAMPLED=K (DFTRACER_THROTTLE_TIME=sampled, 1 in K calls timed on
# average): the `throttle` lines say "time":"sampled" with the number of
# calls timed, between calls/(2K) and 2 x calls/K + 8 (the gaps are random
# with mean K; each thread times its first throttled call), and their dur,
# an estimate, is not held to the loops' time; without SAMPLED a line must
# not say "time" (exact: every throttled call timed).
# CHECK: dftracer-check must call each file valid and count FUNCTION's calls
# as the program did (--expect-counts: spans written + throttled calls),
# marked throttled in its table when there are records; with size_limit the
# loop() still open at the stop is one caveat, not a missing-parent error.
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

if(NOT DEFINED EXPECT_FILES)
  set(EXPECT_FILES 1)
endif()
if(NOT DEFINED REASON)
  set(REASON throttle)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(_env --unset=DFTRACER_LOG_FILE --unset=DFTRACER_TRACE_COMPRESSION
  --unset=DFTRACER_DATA_DIR --unset=DFTRACER_THROTTLE
  --unset=DFTRACER_THROTTLE_CALLS --unset=DFTRACER_THROTTLE_US --unset=DFTRACER_THROTTLE_MAX_SPANS
  --unset=DFTRACER_THROTTLE_TIME --unset=DFTRACER_THROTTLE_SAMPLE
  --unset=DFTRACER_MAX_TRACE_SIZE --unset=LD_PRELOAD
  DFTRACER_ENABLE=1 "DFTRACER_LOG_FILE=${WORK_DIR}/trace" ${ENV})
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${_env} ${PROGRAM} ${ARGS}
  WORKING_DIRECTORY "${WORK_DIR}"
  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
if(NOT _rc EQUAL 0)
  fail("program failed (${_rc}): ${PROGRAM} ${ARGS}\nstdout:\n${_out}\n"
       "stderr:\n${_err}")
endif()

# stderr: one dftracer line, or none (';' would split the list).
string(REPLACE ";" "," _err_text "${_err}")
string(REGEX MATCHALL "dftracer:[^\n]*" _said "${_err_text}")
list(LENGTH _said _nsaid)
if(STDERR_REGEX)
  if(NOT _nsaid EQUAL 1 OR NOT _said MATCHES "${STDERR_REGEX}")
    fail("stderr should have one dftracer line matching '${STDERR_REGEX}',"
         " has ${_nsaid}:\n${_err}")
  endif()
elseif(_nsaid GREATER 0)
  fail("unexpected dftracer lines on stderr:\n${_err}")
endif()

# What each process counted itself.
string(REGEX MATCHALL "calls [0-9]+ pid [0-9]+" _counted "${_out}")
foreach(_line IN LISTS _counted)
  string(REGEX MATCH "calls ([0-9]+) pid ([0-9]+)" _ "${_line}")
  set(_calls_${CMAKE_MATCH_2} ${CMAKE_MATCH_1})
endforeach()

file(GLOB _files LIST_DIRECTORIES false "${WORK_DIR}/trace-*")
list(LENGTH _files _nfiles)
if(NOT _nfiles EQUAL EXPECT_FILES)
  fail("expected ${EXPECT_FILES} trace file(s), found ${_nfiles}: ${_files}")
endif()

# The integer value of "Key": in Line.
macro(field Out Line Key)
  string(REGEX MATCH "\"${Key}\":(-?[0-9]+)" _ "${Line}")
  set(${Out} "${CMAKE_MATCH_1}")
endmacro()

foreach(_f IN LISTS _files)
  get_filename_component(_name "${_f}" NAME)
  file(SIZE "${_f}" _size)
  if(MAX_FILE_BYTES AND _size GREATER MAX_FILE_BYTES)
    fail("${_name}: ${_size} bytes, above the limit of ${MAX_FILE_BYTES}")
  endif()
  if(_name MATCHES "\\.gz$")
    file(MAKE_DIRECTORY "${WORK_DIR}/plain")
    set(_plain "${WORK_DIR}/plain/${_name}.txt")
    execute_process(COMMAND gzip -dc "${_f}" OUTPUT_FILE "${_plain}"
      RESULT_VARIABLE _gz)
    if(NOT _gz EQUAL 0)
      fail("${_name}: not a whole gzip stream")
    endif()
    set(_f "${_plain}")
  endif()
  file(STRINGS "${_f}" _spans REGEX "\"name\":\"${FUNCTION}\",.*\"ph\":\"X\"")
  file(STRINGS "${_f}" _records
    REGEX "\"name\":\"throttled\".*\"function\":\"${FUNCTION}\"")
  file(STRINGS "${_f}" _loops REGEX "\"name\":\"loop\",.*\"ph\":\"X\"")
  file(STRINGS "${_f}" _stopped REGEX "\"name\":\"trace_stopped\"")
  file(STRINGS "${_f}" _first LIMIT_COUNT 1 REGEX "\"pid\":")
  field(_pid "${_first}" pid)
  if(NOT DEFINED _calls_${_pid})
    fail("${_name}: pid ${_pid} printed no count:\n${_out}")
  endif()
  list(LENGTH _spans _nspans)
  set(_total ${_nspans})
  set(_dur 0)
  foreach(_s IN LISTS _spans)
    field(_d "${_s}" dur)
    math(EXPR _dur "${_dur} + ${_d}")
  endforeach()
  set(_thrown 0)
  foreach(_r IN LISTS _records)
    field(_c "${_r}" calls)
    field(_d "${_r}" dur)
    math(EXPR _total "${_total} + ${_c}")
    math(EXPR _dur "${_dur} + ${_d}")
    if(NOT _r MATCHES "\"reason\":\"${REASON}\"")
      fail("${_name}: a throttled line with another reason than ${REASON}:"
           "\n${_r}")
    endif()
    if(_r MATCHES "\"reason\":\"throttle\"")
      math(EXPR _thrown "${_thrown} + ${_c}")
      if(SAMPLED)
        if(NOT _r MATCHES "\"time\":\"sampled\",\"timed\":([0-9]+)}")
          fail("${_name}: a sampled throttle line without its timed calls:"
               "\n${_r}")
        endif()
        set(_timed ${CMAKE_MATCH_1})
        math(EXPR _lo "${_c} / (2 * ${SAMPLED})")
        math(EXPR _hi "2 * ${_c} / ${SAMPLED} + 8")
        if(_timed LESS _lo OR _timed GREATER _hi OR _timed EQUAL 0)
          fail("${_name}: ${_timed} of ${_c} throttled calls timed, not "
               "about 1 in ${SAMPLED} (${_lo}..${_hi}):\n${_r}")
        endif()
      elseif(_r MATCHES "\"time\"")
        fail("${_name}: exact time, but the line says otherwise:\n${_r}")
      endif()
    endif()
  endforeach()
  if(NOT _total EQUAL _calls_${_pid})
    fail("${_name} (pid ${_pid}): ${_nspans} spans + throttled calls = "
         "${_total}, the program counted ${_calls_${_pid}}")
  endif()
  list(LENGTH _records _nrecords)
  if(REASON STREQUAL "none" AND _nrecords GREATER 0)
    fail("${_name}: throttled lines with throttling off:\n${_records}")
  elseif(NOT REASON STREQUAL "none" AND _nrecords EQUAL 0)
    fail("${_name}: no throttled line for ${FUNCTION} (${_nspans} spans)")
  endif()
  if(DEFINED EXACT_SPANS AND NOT _nspans EQUAL EXACT_SPANS)
    fail("${_name}: ${_nspans} spans of ${FUNCTION}, expected ${EXACT_SPANS}")
  endif()
  if(DEFINED MAX_SPANS AND _nspans GREATER MAX_SPANS)
    fail("${_name}: ${_nspans} spans of ${FUNCTION}, at most ${MAX_SPANS}")
  endif()
  # Inside the loops, and counted only once: their sum fits in them.
  set(_loopdur 0)
  foreach(_l IN LISTS _loops)
    field(_d "${_l}" dur)
    math(EXPR _loopdur "${_loopdur} + ${_d}")
  endforeach()
  set(_loopdur_all ${_loopdur})
  file(STRINGS "${_f}" _looprec
    REGEX "\"name\":\"throttled\".*\"function\":\"loop\"")
  foreach(_r IN LISTS _looprec)
    field(_d "${_r}" dur)
    math(EXPR _loopdur_all "${_loopdur_all} + ${_d}")
  endforeach()
  if(NOT SAMPLED AND _dur GREATER _loopdur_all)
    fail("${_name}: ${FUNCTION}'s durations sum to ${_dur} us, more than "
         "the loops that hold them (${_loopdur_all} us)")
  endif()
  if(REASON STREQUAL "size_limit")
    if(NOT _stopped MATCHES "\"reason\":\"size_limit\",\"limit\":[0-9]+,\"written\":[0-9]+,\"ts\":[0-9]+}")
      fail("${_name}: no trace_stopped line for the size limit: ${_stopped}")
    endif()
  elseif(_stopped)
    fail("${_name}: unexpected ${_stopped}")
  endif()
  if(CHECK)
    file(WRITE "${WORK_DIR}/counts-${_pid}.json"
      "{\"${FUNCTION}\": ${_calls_${_pid}}}")
    execute_process(COMMAND ${CHECK} --expect-counts
        "${WORK_DIR}/counts-${_pid}.json" "${_f}"
      RESULT_VARIABLE _crc OUTPUT_VARIABLE _cout ERROR_VARIABLE _cerr)
    set(_want "trace is valid; call counts match")
    if(_nrecords GREATER 0)
      list(APPEND _want "\n${FUNCTION} +${_calls_${_pid}} .* [0-9]+ throttled \\(")
    endif()
    if(REASON STREQUAL "size_limit")
      list(APPEND _want "caveat: [0-9]+ spans? of pid ${_pid} name a parent that was still open when tracing stopped")
    endif()
    foreach(_re IN LISTS _want)
      if(NOT _crc EQUAL 0 OR NOT "${_cout}${_cerr}" MATCHES "${_re}")
        fail("${_name}: dftracer-check exited ${_crc}, expected 0 and '${_re}':\n"
             "${_cout}${_cerr}")
      endif()
    endforeach()
  endif()
  if(IO_PARENT)
    list(GET _loops 0 _loop)
    field(_loopid "${_loop}" id)
    field(_looplevel "${_loop}" level)
    math(EXPR _under "${_looplevel} + 1")
    file(STRINGS "${_f}" _writes REGEX "\"name\":\"write\",\"cat\":\"POSIX\"")
    file(STRINGS "${_f}" _direct
      REGEX "\"name\":\"write\",.*\"level\":${_under},\"p_idx\":${_loopid},")
    list(LENGTH _writes _nwrites)
    list(LENGTH _direct _ndirect)
    if(NOT _nwrites EQUAL _calls_${_pid})
      fail("${_name}: ${_nwrites} write events for ${_calls_${_pid}} calls")
    endif()
    if(NOT _ndirect EQUAL _thrown)
      fail("${_name}: ${_ndirect} write events nest under loop (id "
           "${_loopid}), expected one per throttled call (${_thrown})")
    endif()
  endif()
endforeach()
