# tree.symlinks: nothing is written outside --root (in place) or
# --output-dir, whatever symbolic links or `..` in the compile database say
# (SPEC 6). A small tree is laid out by hand under WORK:
#
#   outside/x.c            src/link.c is a link to it
#   outside/dir/y.c        src/linkdir is a link to outside/dir
#   outside/h.h            src/include/linkh.h is a link to it (main.c
#                          includes it)
#   outside/dotdot.c       listed as src/../../outside/dotdot.c: not under
#                          the root by name, so not a file of the tree
#   project/src/main.c, include/real.h, real_inner.c, up.c
#                          ordinary files; up.c listed as src/sub/../up.c
#   project/src/inner.c    a link to real_inner.c, inside the root
#
# -i: the links to outside files are refused, each with
#   NAME: error: resolves outside --root (symlink to REAL); not written
# (exit 1), the outside files stay byte for byte, everything else is
# annotated; inner.c stays a link and real_inner.c is annotated. A file named
# on the command line outside the root is refused too.
# -o over an output directory holding links: a link at a file's place is
# replaced by the annotated file (its target untouched); a directory link
# that leads out of the output directory is refused.
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

set(_outside ${WORK}/outside)

# The function text of each file: three statements, so the overhead guard
# keeps it.
function(_function out name)
  set(${out} "int ${name}(int v)\n{\n    if (v)\n        return v + 1;\n    return 0;\n}\n"
    PARENT_SCOPE)
endfunction()

function(_lay_out)
  file(REMOVE_RECURSE ${WORK})
  _function(_x outside_x)
  file(WRITE ${_outside}/x.c "${_x}")
  _function(_y outside_y)
  file(WRITE ${_outside}/dir/y.c "${_y}")
  file(WRITE ${_outside}/h.h "static inline int outside_h(int v)\n{\n    if (v)\n        return 2;\n    return 1;\n}\n")
  _function(_d outside_dotdot)
  file(WRITE ${_outside}/dotdot.c "${_d}")
  file(MAKE_DIRECTORY ${_outside}/incdir)
  file(WRITE ${_outside}/victim.c "/* not to be written */\n")

  file(WRITE ${TREE_ROOT}/include/real.h "static inline int real_h(int v)\n{\n    if (v)\n        return 3;\n    return 4;\n}\n")
  file(WRITE ${TREE_ROOT}/main.c "#include \"include/real.h\"\n#include \"include/linkh.h\"\n\nint main(void)\n{\n    int r = real_h(1) + outside_h(0);\n    return r == 4 ? 0 : 1;\n}\n")
  _function(_i real_inner)
  file(WRITE ${TREE_ROOT}/real_inner.c "${_i}")
  _function(_u up)
  file(WRITE ${TREE_ROOT}/up.c "${_u}")
  file(MAKE_DIRECTORY ${TREE_ROOT}/sub)
  file(CREATE_LINK ${_outside}/x.c ${TREE_ROOT}/link.c SYMBOLIC)
  file(CREATE_LINK ${_outside}/dir ${TREE_ROOT}/linkdir SYMBOLIC)
  file(CREATE_LINK ${_outside}/h.h ${TREE_ROOT}/include/linkh.h SYMBOLIC)
  file(CREATE_LINK real_inner.c ${TREE_ROOT}/inner.c SYMBOLIC)

  set(_entries)
  foreach(_file src/main.c src/link.c src/linkdir/y.c src/inner.c
                src/sub/../up.c src/../../outside/dotdot.c)
    list(APPEND _entries "  {\"directory\": \"${TREE_PROJECT}\", \"file\": \"${_file}\", \"command\": \"cc -c ${_file}\"}")
  endforeach()
  list(JOIN _entries ",\n" _json)
  file(WRITE ${TREE_BUILD}/compile_commands.json "[\n${_json}\n]\n")
  tree_snapshot(_pristine ${_outside})
  set(_pristine_outside "${_pristine}" PARENT_SCOPE)
endfunction()

# _expect_error(<run> <regex>): stderr of the run matches.
function(_expect_error run regex)
  if(NOT "${${run}_ERR}" MATCHES "${regex}")
    tree_fail("stderr of ${run} does not match '${regex}':\n${${run}_ERR}")
  endif()
endfunction()

function(_expect_starts path expected)
  file(READ ${path} _text)
  tree_count(_n "${_text}" "${TREE_START}")
  if(NOT _n EQUAL expected)
    tree_fail("${path}: ${_n} START lines, expected ${expected}:\n${_text}")
  endif()
endfunction()

# --- -i ----------------------------------------------------------------------
_lay_out()
set(_pristine "${_pristine_outside}")
tree_annotate(inplace -p ${TREE_BUILD} --root ${TREE_ROOT} -i
  --report ${WORK}/report.json)
tree_expect_rc(inplace 1)
string(REPLACE "." "\\." _root_re "${TREE_ROOT}")
string(REPLACE "." "\\." _outside_re "${_outside}")
foreach(_pair "link.c|x.c" "linkdir/y.c|dir/y.c" "include/linkh.h|h.h")
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _name)
  list(GET _pair 1 _real)
  _expect_error(inplace "(^|\n)${_root_re}/${_name}: error: resolves outside --root \\(symlink to ${_outside_re}/${_real}\\); not written\n")
endforeach()
if(inplace_ERR MATCHES "dotdot")
  tree_fail("outside/dotdot.c, not under the root by name, was a file of the tree:\n${inplace_ERR}")
endif()
tree_snapshot(_after ${_outside})
tree_expect_same_snapshot("${_pristine}" "${_after}" "files outside --root after -i")
_expect_error(inplace "annotate: 5 files, 4 changed, 2 failed;")

_expect_starts(${TREE_ROOT}/main.c 1)
_expect_starts(${TREE_ROOT}/include/real.h 1)
_expect_starts(${TREE_ROOT}/real_inner.c 1)
_expect_starts(${TREE_ROOT}/up.c 1)
if(NOT IS_SYMLINK ${TREE_ROOT}/inner.c)
  tree_fail("src/inner.c, a link to real_inner.c, is no longer a link")
endif()
file(READ_SYMLINK ${TREE_ROOT}/inner.c _target)
if(NOT _target STREQUAL "real_inner.c")
  tree_fail("src/inner.c now links to '${_target}'")
endif()
foreach(_link link.c linkdir include/linkh.h)
  if(NOT IS_SYMLINK ${TREE_ROOT}/${_link})
    tree_fail("src/${_link} is no longer a link")
  endif()
endforeach()

file(READ ${WORK}/report.json _report)
string(JSON _n LENGTH "${_report}" files)
math(EXPR _last "${_n} - 1")
set(_seen 0)
foreach(_i RANGE ${_last})
  string(JSON _path GET "${_report}" files ${_i} path)
  if(_path STREQUAL "${_outside}/x.c")
    string(JSON _status GET "${_report}" files ${_i} status)
    string(JSON _reason GET "${_report}" files ${_i} reason)
    if(NOT _status STREQUAL "failed" OR NOT _reason MATCHES "resolves outside --root")
      tree_fail("report: ${_path} is '${_status}' (${_reason}), expected failed")
    endif()
    set(_seen 1)
  endif()
endforeach()
if(NOT _seen)
  tree_fail("report.json does not list ${_outside}/x.c:\n${_report}")
endif()

# A second run changes nothing more and still refuses the links.
tree_annotate(again -p ${TREE_BUILD} --root ${TREE_ROOT} -i)
tree_expect_rc(again 1)
_expect_error(again "annotate: 5 files, 0 changed, 2 failed;")

# A file named on the command line, outside the root.
tree_annotate(named -i ${_outside}/dotdot.c --root ${TREE_ROOT} --)
tree_expect_rc(named 1)
_expect_error(named "(^|\n)${_outside_re}/dotdot\\.c: error: outside --root ${_root_re}; not written\n")
tree_snapshot(_after ${_outside})
tree_expect_same_snapshot("${_pristine}" "${_after}" "files outside --root after -i FILE")

# --- -o over an output directory holding links -------------------------------
_lay_out()
set(_pristine "${_pristine_outside}")
set(_out ${WORK}/out)
file(MAKE_DIRECTORY ${_out})
file(CREATE_LINK ${_outside}/victim.c ${_out}/main.c SYMBOLIC)
file(CREATE_LINK ${_outside}/incdir ${_out}/include SYMBOLIC)
tree_annotate(output -p ${TREE_BUILD} --root ${TREE_ROOT} -o ${_out})
tree_expect_rc(output 1)
string(REPLACE "." "\\." _out_re "${_out}")
_expect_error(output "(^|\n)${_out_re}/include/real\\.h: error: resolves outside --output-dir \\(symlink to ${_outside_re}/incdir/real\\.h\\); not written\n")
_expect_error(output "(^|\n)${_root_re}/link\\.c: error: resolves outside --root \\(symlink to ${_outside_re}/x\\.c\\); not written\n")
tree_snapshot(_after ${_outside})
tree_expect_same_snapshot("${_pristine}" "${_after}" "files outside --output-dir after -o")
if(IS_SYMLINK ${_out}/main.c)
  tree_fail("out/main.c is still a link: the annotated copy went through it")
endif()
_expect_starts(${_out}/main.c 1)
_expect_starts(${_out}/real_inner.c 1)
_expect_starts(${_out}/up.c 1)
