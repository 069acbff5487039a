# tree.uncompiled: exits in preprocessor blocks that no planned
# configuration compiled are warned about, counted in the summary line and
# listed in the --report; planning the configuration that compiles them
# (--variant, or a second compile command) gives them their END and removes
# the warning; runs with the same or fewer variants change nothing; a
# configuration that does not parse fails the file, named; --verify compiles
# every configuration; configurations that plan one statement differently
# drop its edits with a warning at that statement (file:line:col, once).
#
# A small tree under WORK/project/src, its database written by hand:
#   io.c      open_target(): return under #ifdef HAVE_LUSTRE; goto (to a
#             label of the function, in a skipped block too: not an exit)
#             and exit() under #ifdef DEBUG_EXIT; MPI_Abort in an #else (of
#             #if !defined(NO_ABORT)); text that only looks like exits (a
#             comment, a string, exit_code)
#   main.c    MPI_Finalize under #ifdef USE_MPI in main; includes shared.h
#   aux.c     includes shared.h with -DSHARED_FAST: compiles its block
#   shared.h  a return under #ifdef SHARED_FAST: compiled by aux.c's
#             command, so not warned about although main.c skips it
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

file(REMOVE_RECURSE ${WORK})
file(WRITE ${TREE_ROOT}/io.c [[
#include <stdio.h>
#include <stdlib.h>

void MPI_Abort(int comm, int code);
int stripe_count = 4;

int open_target(const char *path, int flags)
{
    int exit_code = flags;
#ifdef HAVE_LUSTRE
    if (stripe_count > 0) return flags + stripe_count;
#endif
#ifdef DEBUG_EXIT
    if (flags < 0)
        goto fail;
    if (flags > 100)
        exit(3);
#else
    /* return here is a comment, "return" a string */
    printf("%s %s\n", path, "exit(1)");
#endif
#if !defined(NO_ABORT)
    exit_code += 1;
#else
    if (flags == 42)
        MPI_Abort(0, 1);
#endif
    return exit_code;
#ifdef DEBUG_EXIT
fail:
    return -1;
#endif
}
]])
file(WRITE ${TREE_ROOT}/shared.h [[
static inline int shared_pick(int v)
{
    int r = v * 2;
#ifdef SHARED_FAST
    if (v > 10)
        return v;
#endif
    r += 1;
    return r;
}
]])
file(WRITE ${TREE_ROOT}/main.c [[
#include "shared.h"
void MPI_Finalize(void);

int main(void)
{
    int r = shared_pick(3);
#ifdef USE_MPI
    MPI_Finalize();
#endif
    return r > 0 ? 0 : 1;
}
]])
file(WRITE ${TREE_ROOT}/aux.c [[
#include "shared.h"

int aux(int v)
{
    int r = shared_pick(v);
    return r + 1;
}
]])
set(_entries)
foreach(_entry "io.c|" "main.c|" "aux.c|-DSHARED_FAST")
  string(REPLACE "|" ";" _entry "${_entry}")
  list(GET _entry 0 _file)
  list(GET _entry 1 _flags)
  list(APPEND _entries "  {\"directory\": \"${TREE_ROOT}\", \"file\": \"${_file}\", \"command\": \"cc -std=gnu99 ${_flags} -c ${_file}\"}")
endforeach()
list(JOIN _entries ",\n" _json)
file(WRITE ${TREE_BUILD}/compile_commands.json "[\n${_json}\n]\n")
file(COPY ${TREE_ROOT}/ DESTINATION ${WORK}/pristine)

# _expect_warning(<run> <file> <line> <token> <condition>): the warning, as
# the issue words it, with the directive that opens the branch.
function(_expect_warning run file line token condition)
  string(REGEX REPLACE "([][().*+?^$|\\])" "\\\\\\1" _condition "${condition}")
  set(_re "(^|\n)([^\n]*/)?${file}:${line}:[0-9]+: warning: ${token} in a branch not compiled here \\(${_condition}\\); its END is missing \\(the runtime's cleanup closes the span; pass --variant to plan it\\)\n")
  if(NOT "${${run}_ERR}" MATCHES "${_re}")
    tree_fail("${run}: no warning for ${token} at ${file}:${line} "
              "(${condition}):\n${${run}_ERR}")
  endif()
endfunction()

function(_expect_summary run exits)
  if(exits EQUAL 0)
    if("${${run}_ERR}" MATCHES "in code no configuration compiled")
      tree_fail("${run}: exits reported, expected none:\n${${run}_ERR}")
    endif()
    return()
  endif()
  if(NOT "${${run}_ERR}" MATCHES "annotate: [^\n]* warnings? \\(${exits} exits? in code no configuration compiled\\)\n")
    tree_fail("${run}: the summary does not count ${exits} exits:\n${${run}_ERR}")
  endif()
endfunction()

# 1. The database's commands only: every exit in a skipped block is warned
#    about, except shared.h's, which aux.c's command compiles.
tree_annotate(plain -p ${TREE_BUILD} --root ${TREE_ROOT} --diff
  --report ${WORK}/plain.json)
tree_expect_rc(plain 0)
_expect_warning(plain io.c 11 return "#ifdef HAVE_LUSTRE")
_expect_warning(plain io.c 17 exit "#ifdef DEBUG_EXIT")
_expect_warning(plain io.c 26 MPI_Abort "#else of #if !defined(NO_ABORT)")
_expect_warning(plain io.c 31 return "#ifdef DEBUG_EXIT")
_expect_warning(plain main.c 8 MPI_Finalize "#ifdef USE_MPI")
_expect_summary(plain 5)
# io.c:15 is `goto fail;`, fail: being a label of the function.
foreach(_wrong "io.c:15:" "io.c:20:" "io.c:21:" "io.c:9:" "shared.h:")
  if(plain_ERR MATCHES "${_wrong}[^\n]*not compiled here")
    tree_fail("a warning at ${_wrong} (a comment, a string, exit_code, or a "
              "block another unit compiles):\n${plain_ERR}")
  endif()
endforeach()
file(READ ${WORK}/plain.json _report)
string(JSON _n GET "${_report}" summary uncompiled_exits)
if(NOT _n EQUAL 5)
  tree_fail("report: summary.uncompiled_exits is ${_n}, expected 5")
endif()
set(_listed 0)
string(JSON _files LENGTH "${_report}" files)
math(EXPR _last "${_files} - 1")
foreach(_i RANGE ${_last})
  string(JSON _k LENGTH "${_report}" files ${_i} uncompiled_exits)
  math(EXPR _listed "${_listed} + ${_k}")
  string(JSON _path GET "${_report}" files ${_i} path)
  if(_path MATCHES "/io\\.c$")
    string(JSON _first GET "${_report}" files ${_i} uncompiled_exits 0)
    foreach(_pair "token|return" "condition|#ifdef HAVE_LUSTRE"
                  "function|open_target" "line|11")
      string(REPLACE "|" ";" _pair "${_pair}")
      list(GET _pair 0 _key)
      list(GET _pair 1 _value)
      string(JSON _got GET "${_first}" ${_key})
      if(NOT _got STREQUAL _value)
        tree_fail("report: io.c's first uncompiled exit has ${_key} "
                  "'${_got}', expected '${_value}':\n${_first}")
      endif()
    endforeach()
  endif()
endforeach()
if(NOT _listed EQUAL 5)
  tree_fail("report: ${_listed} uncompiled exits listed per file, expected 5")
endif()

# 2. With variants, what they compile is planned: its warnings go.
tree_annotate(one -p ${TREE_BUILD} --root ${TREE_ROOT} --diff
  --variant=-DHAVE_LUSTRE)
_expect_summary(one 4)
tree_annotate(some -p ${TREE_BUILD} --root ${TREE_ROOT} --diff
  --variant=-DHAVE_LUSTRE --variant "-DDEBUG_EXIT -DUSE_MPI -DNO_ABORT")
tree_expect_rc(some 0)
_expect_summary(some 0)

# 3. In place with those variants, then again with the same variants and
#    with fewer: nothing changes any more, nothing is removed.
tree_annotate(inplace -p ${TREE_BUILD} --root ${TREE_ROOT} -i
  --variant=-DHAVE_LUSTRE --variant "-DDEBUG_EXIT -DUSE_MPI -DNO_ABORT")
tree_expect_rc(inplace 0)
file(READ ${TREE_ROOT}/io.c _io)
foreach(_re
    "#ifdef HAVE_LUSTRE\n    if \\(stripe_count > 0\\) { /\\* annotate \\*/ DFTRACER_C_FUNCTION_END\\(\\); return flags \\+ stripe_count; }"
    "fail:\n    DFTRACER_C_FUNCTION_END\\(\\);\n    return -1;")
  if(NOT _io MATCHES "${_re}")
    tree_fail("io.c: no END where the variants compile a return:\n${_io}")
  endif()
endforeach()
file(READ ${TREE_ROOT}/main.c _main)
if(NOT _main MATCHES "    DFTRACER_C_FUNCTION_END\\(\\);\n    DFTRACER_C_FINI\\(\\);\n#ifdef USE_MPI\n    MPI_Finalize\\(\\);\n#endif\n    return")
  tree_fail("main.c: END and FINI are not before the #ifdef of the block "
            "that may call MPI_Finalize (docs/rules.md 4, optional MPI):\n${_main}")
endif()
tree_snapshot(_annotated ${TREE_ROOT})
foreach(_variants "--variant=-DHAVE_LUSTRE;--variant=-DDEBUG_EXIT -DUSE_MPI -DNO_ABORT"
                  "--variant=-DHAVE_LUSTRE" "")
  tree_annotate(again -p ${TREE_BUILD} --root ${TREE_ROOT} --check ${_variants})
  tree_expect_rc(again 0)
  tree_annotate(again -p ${TREE_BUILD} --root ${TREE_ROOT} -i ${_variants})
  tree_expect_rc(again 0)
  tree_snapshot(_now ${TREE_ROOT})
  tree_expect_same_snapshot("${_annotated}" "${_now}"
    "annotate -i ${_variants} after the same run with both variants")
endforeach()

# 4. A configuration that does not compile leaves the file unchanged, named.
file(REMOVE_RECURSE ${TREE_ROOT})
file(COPY ${WORK}/pristine/ DESTINATION ${TREE_ROOT})
tree_annotate(broken -p ${TREE_BUILD} --root ${TREE_ROOT} -i
  "--variant=-DHAVE_LUSTRE -Dstripe_count=")
tree_expect_rc(broken 1)
if(NOT broken_ERR MATCHES "/io\\.c: error: with --variant '-DHAVE_LUSTRE -Dstripe_count=': the file does not compile; left unchanged")
  tree_fail("no error naming the variant io.c does not compile with:\n${broken_ERR}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
  ${WORK}/pristine/io.c ${TREE_ROOT}/io.c RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  tree_fail("io.c was changed although one of its configurations does not compile")
endif()

# 5. --verify compiles the annotated file in every configuration: INIT and
#    START after main's MPI_Init statement are code before a declaration,
#    which the variant's flag refuses; the file is restored, the
#    configuration named.
file(WRITE ${TREE_ROOT}/verify.c [[
void MPI_Init(int *argc, char ***argv);

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r = argc > 5;
    return r;
}
]])
file(READ ${TREE_ROOT}/verify.c _before)
tree_annotate(verify ${TREE_ROOT}/verify.c --root ${TREE_ROOT} -i --verify
  --variant=-Werror=declaration-after-statement -- -std=gnu99)
tree_expect_rc(verify 1)
if(NOT verify_ERR MATCHES "verify\\.c: error: the annotated file does not compile; restored\nwith --variant '-Werror=declaration-after-statement':\n")
  tree_fail("--verify did not name the configuration that fails:\n${verify_ERR}")
endif()
file(READ ${TREE_ROOT}/verify.c _after)
if(NOT _before STREQUAL _after)
  tree_fail("verify.c was not restored:\n${_after}")
endif()
tree_annotate(verify_one ${TREE_ROOT}/verify.c --root ${TREE_ROOT} -i --verify
  -- -std=gnu99)
tree_expect_rc(verify_one 0)

# 6. Configurations that plan one statement differently conflict: a value
#    return hoisted with its type, which a macro spells `float` in one
#    configuration and `double` in the other. Both edits are dropped, with
#    one warning at the statement, compiler style.
file(WRITE ${TREE_ROOT}/real.c [[
#ifdef SINGLE
#define REAL float
#else
#define REAL double
#endif
REAL scale(REAL v);

REAL twice(REAL v)
{
    return scale(v) * 2;
}
]])
tree_annotate(conflict ${TREE_ROOT}/real.c --root ${TREE_ROOT} --diff
  --variant=-DSINGLE -- -std=gnu99)
tree_expect_rc(conflict 0)
string(REGEX MATCHALL "[^\n]*conflicting edits[^\n]*" _conflicts
  "${conflict_ERR}")
list(LENGTH _conflicts _n)
if(NOT _n EQUAL 1 OR NOT _conflicts MATCHES
    "^[^ ]*/real\\.c:10:5: warning: conflicting edits dropped ")
  tree_fail("expected one warning at real.c:10:5 for the conflicting "
            "edits:\n${conflict_ERR}")
endif()
