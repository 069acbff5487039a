# integration.cmake.build: every C source of iokit, writer and reader is
# annotated once into the build tree and compiled from there (iokit.c also
# planned with OPTIONS --variant); the GCC-only apps/legacy_sum.c is compiled
# as it is, with one warning line.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK)
int_regex_escape(_work "${WORK}")

int_build(_b "${WORK}/build")
int_expect_success(_b "building cmake_project")
message(STATUS "${_b_OUT}")
int_expect_list("${_b_ANNOTATED}"
  "lib/iokit.c;apps/writer.c;apps/reader.c;apps/legacy_sum.c;apps/version.c"
  "sources annotated by the first build")

# One warning, for the file annotate cannot parse (its "; " is no list
# separator here).
string(REPLACE ";" "," _out "${_b_OUT}")
string(REGEX MATCHALL "[^\n]*warning: [^\n]*not annotated[^\n]*" _warnings "${_out}")
list(LENGTH _warnings _n)
if(NOT _n EQUAL 1)
  int_fail("expected one 'not annotated' warning, got ${_n}:\n${_b_OUT}")
endif()
int_expect_match("${_warnings}"
  "^annotate_target\\(reader\\): warning: [^ ]*/apps/legacy_sum\\.c: not annotated \\(.+\\), compiling the original, untraced$"
  "the fallback warning")

# The copies: annotated, with #line directives naming the originals.
foreach(_copy annotate/iokit/lib/iokit.c apps/annotate/writer/writer.c
              apps/annotate/reader/reader.c)
  file(READ "${WORK}/build/${_copy}" _text)
  int_expect_match("${_text}" "DFTRACER_C_FUNCTION_START\\(\\);" "${_copy}")
  int_expect_match("${_text}" "#line 1 \"${_work}/src/" "${_copy}")
endforeach()
# OPTIONS --variant "-DIOKIT_STRICT=2 -DIOKIT_EXTRA": the return under
# #ifdef IOKIT_STRICT has its END.
file(READ "${WORK}/build/annotate/iokit/lib/iokit.c" _text)
int_expect_match("${_text}"
  "if \\(n == 0 && IOKIT_STRICT > 1\\) { /\\* annotate \\*/ DFTRACER_C_FUNCTION_END\\(\\)[^\n]* return -2[^\n]* }"
  "iokit.c's return under #ifdef IOKIT_STRICT, planned through OPTIONS --variant")
file(READ "${WORK}/build/apps/annotate/writer/writer.c" _text)
int_expect_match("${_text}"
  "DFTRACER_C_METADATA\\([a-z_0-9]+, \"suite\", \"annotate integration\"\\)"
  "META with a space in its value")
# The fallback (legacy_sum.c) and the file excluded by OPTIONS
# --exclude-file (version.c): the original behind #line 1.
foreach(_name legacy_sum version)
  file(READ "${WORK}/build/apps/annotate/reader/${_name}.c" _text)
  file(READ "${WORK}/src/apps/${_name}.c" _orig)
  if(NOT _text STREQUAL "#line 1 \"${WORK}/src/apps/${_name}.c\"\n${_orig}")
    int_fail("the copy of ${_name}.c is not the original behind #line 1:\n${_text}")
  endif()
endforeach()
