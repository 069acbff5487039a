# tree.diagnostics: diagnostics at scale (issue 21). Warnings of one kind and
# cause are one line with their count and first location, --verbose prints
# each, --report lists each, and the summary's count is the sum of what was
# printed; compile-database flags Clang does not know (GCC-only) are dropped
# as clangd does, named once per run, never printed as errors; under -j2,
# Clang's errors for two broken files come out whole, never interleaved.
#
# A small tree under WORK/project/src, its database written by hand, every
# command with -fstdarg-opt -fdiagnostics-urls=never (GCC-only):
#   a.c, b.c   five returns inside CHECK, which returns on some paths only:
#              one warning message, five times
#   c.c        a return under #ifdef NEVER: another warning
#   broken1.c, broken2.c  do not compile (a file each: exit 1)
include(${CMAKE_CURRENT_LIST_DIR}/TreeCommon.cmake)

file(REMOVE_RECURSE ${WORK})
set(_check [[
int work(int);
#define CHECK(e) do { int r_ = (e); if (r_) return r_; } while (0)
]])
file(WRITE ${TREE_ROOT}/a.c "${_check}" [[
int a1(int x) { CHECK(work(x)); return 0; }
int a2(int x) { CHECK(work(x)); CHECK(work(x + 1)); return 0; }
]])
file(WRITE ${TREE_ROOT}/b.c "${_check}" [[
int b1(int x) { CHECK(work(x)); return 1; }
int b2(int x) { CHECK(work(x)); return 2; }
]])
file(WRITE ${TREE_ROOT}/c.c [[
int c1(int x)
{
#ifdef NEVER
    if (x) return 3;
#endif
    return x + 1;
}
]])
file(WRITE ${TREE_ROOT}/broken1.c "int f(void) { return undeclared_one; }\n")
file(WRITE ${TREE_ROOT}/broken2.c "int g(void) { return undeclared_two; }\n")
set(_entries)
foreach(_file a.c b.c c.c broken1.c broken2.c)
  list(APPEND _entries "  {\"directory\": \"${TREE_ROOT}\", \"file\": \"${_file}\", \"command\": \"gcc -std=gnu99 -fstdarg-opt -fdiagnostics-urls=never -O2 -c ${_file}\"}")
endforeach()
list(JOIN _entries ",\n" _json)
file(WRITE ${TREE_BUILD}/compile_commands.json "[\n${_json}\n]\n")

set(_macro "return inside macro 'CHECK' cannot be annotated \\(it returns on some paths only")

# 1. Grouped: one line for CHECK's five, with the count and the first
#    location (a.c's first CHECK), one for c.c's.
tree_annotate(grouped -p ${TREE_BUILD} --root ${TREE_ROOT} --diff -j2
  --report ${WORK}/grouped.json)
tree_expect_rc(grouped 1)
tree_count(_lines "${grouped_ERR}" "${_macro}")
if(NOT _lines EQUAL 1)
  tree_fail("grouped: ${_lines} lines for CHECK's warning, expected 1:\n${grouped_ERR}")
endif()
if(NOT grouped_ERR MATCHES "(^|\n)([^\n]*/)?a\\.c:3:17: warning: ${_macro}[^\n]*\\[5 times, the first shown; --verbose or --report lists each\\]\n")
  tree_fail("grouped: CHECK's line has no count or not the first location:\n${grouped_ERR}")
endif()
if(NOT grouped_ERR MATCHES "annotate: 5 files, 3 changed, 2 failed; [^\n]*; 6 warnings \\(1 exit in code no configuration compiled; printed on 2 lines, one per kind and cause; --verbose prints each\\)\n")
  tree_fail("grouped: the summary does not count what was printed:\n${grouped_ERR}")
endif()
# The GCC-only flags: dropped, named once, no error.
tree_count(_notes "${grouped_ERR}" "annotate: note: dropped compiler flags Clang does not know \\(as clangd does\\): -fstdarg-opt -fdiagnostics-urls=never\n")
if(NOT _notes EQUAL 1)
  tree_fail("grouped: ${_notes} notes of the dropped flags, expected 1:\n${grouped_ERR}")
endif()
if(grouped_ERR MATCHES "unknown argument")
  tree_fail("grouped: Clang's unknown-argument errors were printed:\n${grouped_ERR}")
endif()
# Clang's errors, whole: one line per error, each with one "error:".
foreach(_n one two)
  if(NOT grouped_ERR MATCHES "(^|\n)[^\n]*broken[12]\\.c:1:22: error: use of undeclared identifier 'undeclared_${_n}'\n")
    tree_fail("grouped: Clang's error for undeclared_${_n} is not a whole line:\n${grouped_ERR}")
  endif()
endforeach()
if(grouped_ERR MATCHES "error:[^\n]*error:")
  tree_fail("grouped: two messages on one line:\n${grouped_ERR}")
endif()
# Clang's count, printed straight to stderr, would come out of order: ours
# says the file does not compile.
if(grouped_ERR MATCHES "errors? generated")
  tree_fail("grouped: Clang's error count was printed:\n${grouped_ERR}")
endif()
file(READ ${WORK}/grouped.json _report)
string(JSON _warnings GET "${_report}" summary warnings)
string(JSON _printed GET "${_report}" summary warning_lines)
set(_listed 0)
string(JSON _files LENGTH "${_report}" files)
math(EXPR _last "${_files} - 1")
foreach(_i RANGE ${_last})
  string(JSON _k LENGTH "${_report}" files ${_i} warnings)
  math(EXPR _listed "${_listed} + ${_k}")
endforeach()
if(NOT _warnings EQUAL 6 OR NOT _printed EQUAL 2 OR NOT _listed EQUAL 6)
  tree_fail("report: ${_warnings} warnings, ${_printed} lines, ${_listed} "
            "listed per file; expected 6, 2 and 6")
endif()

# 2. --verbose: each on its own line, the summary without the note.
tree_annotate(verbose -p ${TREE_BUILD} --root ${TREE_ROOT} --diff -j2 --verbose)
tree_count(_lines "${verbose_ERR}" "${_macro}")
if(NOT _lines EQUAL 5)
  tree_fail("verbose: ${_lines} lines for CHECK's warning, expected 5:\n${verbose_ERR}")
endif()
if(NOT verbose_ERR MATCHES "; 6 warnings \\(1 exit in code no configuration compiled\\)\n")
  tree_fail("verbose: the summary:\n${verbose_ERR}")
endif()
