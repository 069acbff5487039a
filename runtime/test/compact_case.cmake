# A compact trace cut short and one with a damaged block (issue 25): what
# comes before the damage is read, the damage is named with its byte
# offset, and a cut file loses at most its last block.
#
#   cmake -DPROGRAM=<dft_compact_blocks> -DWORK_DIR=<dir> -DCHECKER=<exe>
#         -DCONVERTER=<dftracer-convert> -P compact_case.cmake
cmake_minimum_required(VERSION 3.20)

function(fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

# run(EXIT n ARGS...): the command exits n; its output in _out.
function(run expect)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE _rc OUTPUT_VARIABLE _o
    ERROR_VARIABLE _e)
  if(NOT _rc EQUAL expect)
    fail("exit ${_rc}, expected ${expect}: ${ARGN}\n${_e}\n${_o}")
  endif()
  set(_out "${_o}${_e}" PARENT_SCOPE)
endfunction()

# damaged_copy(NAME OFFSET OCTAL): WORK_DIR/NAME, a copy of the trace with
# the 4 bytes at OFFSET overwritten (OCTAL: printf escapes, e.g. \\377).
function(damaged_copy name offset bytes)
  configure_file(${_pfc} ${WORK_DIR}/${name} COPYONLY)
  run(0 sh -c "printf '${bytes}' | dd of=${WORK_DIR}/${name} bs=1 seek=${offset} conv=notrunc status=none")
endfunction()

# expect_full_prefix(FILE MIN WHAT): FILE (a conversion) holds more than
# MIN bytes and is where the full trace's conversion starts.
function(expect_full_prefix file min what)
  file(READ ${file} _text)
  string(LENGTH "${_text}" _len)
  string(SUBSTRING "${_full}" 0 ${_len} _prefix)
  if(NOT _len GREATER ${min} OR NOT _prefix STREQUAL _text)
    fail("the ${what} file's events are not the full file's first ones")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}/trace")
run(0 ${CMAKE_COMMAND} -E env --unset=DFTRACER_TEST_BOTH_FORMATS
  --unset=DFTRACER_COMPACT_LEVEL --unset=LD_PRELOAD DFTRACER_ENABLE=1
  DFTRACER_INC_METADATA=1 DFTRACER_THROTTLE=0 DFTRACER_TRACE_FORMAT=compact
  DFTRACER_LOG_FILE=${WORK_DIR}/trace/t ${PROGRAM})
file(GLOB _pfc "${WORK_DIR}/trace/*.pfc")
list(LENGTH _pfc _n)
if(NOT _n EQUAL 1)
  fail("expected one .pfc, found: ${_pfc}")
endif()
run(0 ${CONVERTER} -o ${WORK_DIR}/full.pfw ${_pfc})
file(READ ${WORK_DIR}/full.pfw _full)
string(LENGTH "${_full}" _full_len)
file(SIZE ${_pfc} _size)

# Which blocks are there: a cut inside the last one must keep all others.
file(READ ${_pfc} _hex HEX)
string(REGEX MATCHALL "44464342" _blocks "${_hex}") # "DFCB"
list(LENGTH _blocks _nblocks)
if(_nblocks LESS 3)
  fail("expected several blocks, found ${_nblocks}")
endif()

# Cut 100 bytes off: the last block is lost, and said so with its offset.
configure_file(${_pfc} ${WORK_DIR}/cut.pfc COPYONLY)
math(EXPR _cut "${_size} - 100")
run(0 truncate -s ${_cut} ${WORK_DIR}/cut.pfc)
run(1 ${CONVERTER} -o ${WORK_DIR}/cut.pfw ${WORK_DIR}/cut.pfc)
if(NOT _out MATCHES "block at byte ([0-9]+) is truncated")
  fail("no truncated-block message: ${_out}")
endif()
set(_at ${CMAKE_MATCH_1})
math(EXPR _hex_at "2 * ${_at}")
string(SUBSTRING "${_hex}" ${_hex_at} 8 _magic)
if(NOT _magic STREQUAL "44464342")
  fail("the offset named (${_at}) is not where a block starts")
endif()
string(FIND "${_hex}" "44464342" _last REVERSE)
math(EXPR _last "${_last} / 2")
if(NOT _at EQUAL _last)
  fail("the cut lost more than the last block: named ${_at}, last at ${_last}")
endif()
expect_full_prefix(${WORK_DIR}/cut.pfw 0 cut)
# The cut took the trace_end record too: an unfinished trace, whose cut
# end is a caveat (docs/trace-format.md, "The end of a trace"), not an
# error.
run(0 ${CHECKER} ${WORK_DIR}/cut.pfc)
if(NOT _out MATCHES "caveat: the file ends cut short in a trace without trace_end [^\n]*truncated or corrupt after this line: block at byte ${_at} is truncated")
  fail("dftracer-check does not name the cut: ${_out}")
endif()

# A damaged byte in the middle: the checksum says so; the blocks before
# it are read.
math(EXPR _mid "${_size} / 2")
damaged_copy(bad.pfc ${_mid} "\\377\\377\\377\\377")
run(1 ${CONVERTER} -o ${WORK_DIR}/bad.pfw ${WORK_DIR}/bad.pfc)
if(NOT _out MATCHES "block at byte [0-9]+ (is corrupt|has no block magic)")
  fail("no damaged-block message: ${_out}")
endif()
expect_full_prefix(${WORK_DIR}/bad.pfw 2 damaged)

# A length field damaged to ~4 GiB (the header's, then the last block's
# stored length): refused as truncated, with 1 GiB of address space, since
# a length from the file is trusted only as far as the file goes.
set(_limited prlimit --as=1073741824 --)
damaged_copy(hugehead.pfc 8 "\\360\\377\\377\\377")
run(2 ${_limited} ${CONVERTER} -o ${WORK_DIR}/hugehead.pfw ${WORK_DIR}/hugehead.pfc)
if(NOT _out MATCHES "compact trace header is truncated")
  fail("a header length past the file's end is not refused: ${_out}")
endif()
math(EXPR _len_at "${_last} + 12")
damaged_copy(hugeblock.pfc ${_len_at} "\\360\\377\\377\\377")
run(1 ${_limited} ${CONVERTER} -o ${WORK_DIR}/hugeblock.pfw ${WORK_DIR}/hugeblock.pfc)
if(NOT _out MATCHES "block at byte ${_last} is truncated")
  fail("a block length past the file's end is not refused: ${_out}")
endif()

# Not a compact trace at all: exit 2, named.
file(WRITE ${WORK_DIR}/text.pfc "[\n")
run(2 ${CONVERTER} -o ${WORK_DIR}/text.pfw ${WORK_DIR}/text.pfc)
if(NOT _out MATCHES "not a compact trace")
  fail("a text file is not refused by name: ${_out}")
endif()
