# tree.relative_database: the compile database that `bear -- make` records
# for a recursive Makefile: each command runs in its source's directory,
# "file" and -I are relative to it, and one file is listed twice with two
# spellings (and two -D sets). annotate runs from elsewhere (the project directory). The
# sources must be annotated in place, the shared header (found through
# -I../include) once, and nothing may be written anywhere else.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_copy()
set(_db ${WORK}/db)
set(_src ${TREE_ROOT})
# directory | file | flags (`|`-separated, written as JSON strings)
set(_commands
  "app|main.c|-I../include"
  "io|writer.c|-I../include -I../../third_party/crc"
  "io|reader.c|-I../include -I../../third_party/crc"
  "util|buffer.c|-I../include"
  "util|log.c|-I../include"
  "util|buffer_selftest.c|-I../include -DTREE_BUFFER_CAPACITY=16"
  ".|util/buffer.c|-Iinclude -DTREE_BUFFER_CAPACITY=16"
  "../third_party/crc|crc32.c|")
set(_json "[\n")
set(_sep "")
foreach(_c ${_commands})
  string(REPLACE "|" ";" _c "${_c}")
  list(GET _c 0 _dir)
  list(GET _c 1 _file)
  list(GET _c 2 _flags)
  set(_args "\"cc\"")
  if(_flags)
    string(REPLACE " " ";" _flags "${_flags}")
    foreach(_f ${_flags})
      string(APPEND _args ", \"${_f}\"")
    endforeach()
  endif()
  string(APPEND _args ", \"-std=gnu99\", \"-c\", \"${_file}\"")
  get_filename_component(_abs ${_src}/${_dir} ABSOLUTE)
  string(APPEND _json "${_sep}  {\"directory\": \"${_abs}\", \"file\": \"${_file}\", \"arguments\": [${_args}]}")
  set(_sep ",\n")
endforeach()
string(APPEND _json "\n]\n")
file(WRITE ${_db}/compile_commands.json "${_json}")

tree_snapshot(_before ${WORK}/project)
# --verbose: a line per configuration as it starts (counted below).
tree_annotate(relative -p ${_db} --root ${TREE_ROOT} -i -j 2 --verbose)
tree_expect_rc(relative 0)

# Nothing written outside the sources: every file that exists now existed.
tree_snapshot(_after ${WORK}/project)
set(_added)
foreach(_line ${_after})
  string(REGEX REPLACE "=.*" "" _f "${_line}")
  if(NOT "${_before}" MATCHES "(^|;)${_f}=")
    list(APPEND _added ${_f})
  endif()
endforeach()
if(_added)
  tree_fail("annotate created files that are not sources: ${_added}\n${relative_ERR}")
endif()

tree_expect_annotated(EXCEPT ${TREE_UNVERIFIABLE})
foreach(_f ${TREE_OUTSIDE})
  tree_expect_pristine(${_f} ${TREE_PROJECT}/${_f})
endforeach()

# buffer.c, listed twice with two spellings and two -D sets, is one file of
# 6, planned under both commands (7 configurations in all).
string(REGEX MATCHALL "\\[[0-9]+/[0-9]+\\] [^\n]*" _progress "${relative_ERR}")
list(FILTER _progress INCLUDE REGEX "buffer\\.c")
list(LENGTH _progress _buffer)
if(NOT _buffer EQUAL 2 OR NOT _progress MATCHES "/7\\]")
  tree_fail("buffer.c planned ${_buffer} times, expected under its 2 commands "
            "of 7 configurations:\n${relative_ERR}")
endif()
if(NOT relative_ERR MATCHES "annotate: 6 files,")
  tree_fail("expected 6 files in the summary:\n${relative_ERR}")
endif()
