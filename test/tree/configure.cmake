# tree.*.configure: copy the project into WORK and configure it there; the
# compile database must list what the other phases rely on.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

tree_configure()

file(READ ${TREE_BUILD}/compile_commands.json _db)
string(JSON _n LENGTH "${_db}")
math(EXPR _last "${_n} - 1")
set(_files)
set(_buffer_commands)
foreach(_i RANGE ${_last})
  string(JSON _file GET "${_db}" ${_i} file)
  file(RELATIVE_PATH _rel ${TREE_PROJECT} ${_file})
  list(APPEND _files ${_rel})
  if(_rel STREQUAL "src/util/buffer.c")
    string(JSON _command GET "${_db}" ${_i} command)
    list(APPEND _buffer_commands "${_command}")
  endif()
endforeach()

list(FILTER _files INCLUDE REGEX "^src/util/buffer\\.c$")
list(LENGTH _files _twice)
if(NOT _twice EQUAL 2)
  tree_fail("compile_commands.json lists src/util/buffer.c ${_twice} times, "
            "expected 2 (it is built into two targets)")
endif()
# The first command is tree_util's: buffer_dump() (TREE_BUFFER_CAPACITY < 64)
# exists only under the second, so only planning both annotates it.
list(GET _buffer_commands 0 _first)
list(GET _buffer_commands 1 _second)
if(_first MATCHES "TREE_BUFFER_CAPACITY" OR NOT _second MATCHES "TREE_BUFFER_CAPACITY=16")
  tree_fail("compile_commands.json lists buffer.c first as\n  ${_first}\nthen as\n"
            "  ${_second}\nexpected tree_util's command first")
endif()
foreach(_needed src/${TREE_BROKEN} third_party/crc/crc32.c)
  string(FIND "${_db}" "${TREE_PROJECT}/${_needed}" _at)
  if(_at EQUAL -1)
    tree_fail("compile_commands.json does not list ${_needed}")
  endif()
endforeach()
message(STATUS "configured ${TREE_PROJECT}: ${_n} compile commands")
