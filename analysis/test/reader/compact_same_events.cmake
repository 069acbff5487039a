# The compact reader decodes spans into events itself and checks only their
# values (TraceScanner.cpp, scanCompact): a .pfc must still read exactly as
# its .pfw, odd spans included (a hex dhash or fhash, an escape the parser
# rejects in a name or in an args value nobody reads, level 0, times past
# 2^53, a negative size, an unknown category, a value kept as JSON text,
# a missing parent, upstream's "end" with num_events), and the lines a
# decoded span is printed as again (an MPI_File_open's comm_size, read from
# its text; a span printed for the parser): an integer key twice in a
# record, its first value not its thread's last.
#   -DCHECK= -DANALYZE= -DCONVERT= -DINPUT=<.pfw> -DWORK=<dir>
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
configure_file(${INPUT} ${WORK}/odd_spans.pfw COPYONLY)
execute_process(COMMAND ${CONVERT} --compact -o ${WORK}/odd_spans.pfc
                        ${WORK}/odd_spans.pfw RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "dftracer-convert --compact failed (${_rc})")
endif()
# Every line but the metadata must be a span record, or the test does not
# test the compact decoder: the .pfc is smaller than the text it encodes.
file(SIZE ${WORK}/odd_spans.pfw _text)
file(SIZE ${WORK}/odd_spans.pfc _compact)
if(NOT _compact LESS _text)
  message(FATAL_ERROR "the .pfc (${_compact} bytes) is no smaller than the "
                      ".pfw (${_text}): its lines were kept as text")
endif()
set(_n 0)
foreach(_cmd "${CHECK};--json" "${ANALYZE};-j;1;--json;--no-diagnose"
             "${ANALYZE};-j;1;--no-diagnose")
  math(EXPR _n "${_n} + 1")
  foreach(_ext pfw pfc)
    execute_process(COMMAND ${_cmd} ${WORK}/odd_spans.${_ext}
                    OUTPUT_VARIABLE _out ERROR_VARIABLE _err)
    string(REPLACE "odd_spans.${_ext}" "odd_spans.X" _out "${_out}${_err}")
    set(_${_ext} "${_out}")
    file(WRITE ${WORK}/${_n}.${_ext}.out "${_out}")
  endforeach()
  if(NOT _pfc STREQUAL _pfw)
    message(FATAL_ERROR "the .pfc reads differently from the .pfw (${_cmd}): "
                        "diff ${WORK}/${_n}.pfw.out ${WORK}/${_n}.pfc.out")
  endif()
endforeach()
