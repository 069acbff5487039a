# integration.cc.cli: annotate-cc, one behaviour at a time, on the files of
# cli_project/ with this build's C compiler (C_COMPILER) from WORK.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_CC C_COMPILER CXX_COMPILER NM CHECKER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(cli_project "${WORK}")
# annotate-cc's temporary directories go here; none may be left behind.
file(MAKE_DIRECTORY "${WORK}/tmp")
set(ENV{TMPDIR} "${WORK}/tmp")
set(CC "${C_COMPILER}")
set(ACC "${ANNOTATE_CC}")
function(acc prefix)
  int_run(_r COMMAND "${ACC}" ${ARGN} WORKING_DIRECTORY "${WORK}")
  set(${prefix}_OUT "${_r_OUT}" PARENT_SCOPE)
  set(${prefix}_RC "${_r_RC}" PARENT_SCOPE)
endfunction()
# run_traced(<program> <trace dir>): one process, tracing on, checked.
function(run_traced program traces)
  file(REMOVE_RECURSE "${traces}")
  file(MAKE_DIRECTORY "${traces}")
  set(ENV{DFTRACER_ENABLE} 1)
  set(ENV{DFTRACER_LOG_FILE} "${traces}/trace")
  int_run(_p COMMAND "${program}" WORKING_DIRECTORY "${WORK}")
  unset(ENV{DFTRACER_ENABLE})
  unset(ENV{DFTRACER_LOG_FILE})
  int_expect_success(_p "${program}")
  int_expect_match("${_p_OUT}" "sum 9" "${program}'s output")
  int_run(_c COMMAND "${CHECKER}" --expect-counts "${WORK}/counts.json" "${traces}")
  int_expect_success(_c "dftracer-check on ${traces}")
endfunction()

# No compiler: usage, exit 2.
acc(_r)
if(NOT _r_RC EQUAL 2)
  int_fail("annotate-cc without arguments exited ${_r_RC}:\n${_r_OUT}")
endif()
int_expect_match("${_r_OUT}" "usage: annotate-cc <compiler>" "usage")

# Queries and -E pass through: the compiler's own output.
foreach(_args "--version" "-E;sub/a.c" "-dumpmachine")
  acc(_r ${CC} ${_args})
  int_run(_o COMMAND ${CC} ${_args} WORKING_DIRECTORY "${WORK}")
  if(NOT _r_OUT STREQUAL _o_OUT OR NOT _r_RC STREQUAL _o_RC)
    int_fail("annotate-cc ${CC} ${_args} differs from ${CC} ${_args}")
  endif()
endforeach()

# Source on stdin: passed through.
int_run(_r COMMAND "${ACC}" ${CC} -x c -c - -o stdin.o
  WORKING_DIRECTORY "${WORK}" INPUT_FILE "${WORK}/b.c")
int_expect_success(_r "annotate-cc cc -x c -c - (stdin)")
int_traced_object("${WORK}/stdin.o" no)

# Two sources in one command, "a.h" beside sub/a.c: both objects traced.
acc(_r ${CC} -O2 -c sub/a.c b.c)
int_expect_success(_r "annotate-cc cc -c sub/a.c b.c")
int_expect_no_match("${_r_OUT}" "warning" "annotate-cc cc -c sub/a.c b.c")
int_traced_object("${WORK}/a.o" yes)
int_traced_object("${WORK}/b.o" yes)

# A launcher in front of the compiler (CC="annotate-cc ccache cc"): here a
# stand-in ccache that runs its arguments.
file(MAKE_DIRECTORY "${WORK}/bin")
file(WRITE "${WORK}/bin/ccache" "#!/bin/sh\nexec \"$@\"\n")
file(CHMOD "${WORK}/bin/ccache" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
acc(_r "${WORK}/bin/ccache" ${CC} -c b.c -o b_ccache.o)
int_expect_success(_r "annotate-cc ccache cc -c b.c")
int_expect_no_match("${_r_OUT}" "warning" "annotate-cc ccache cc -c b.c")
int_traced_object("${WORK}/b_ccache.o" yes)

# -v in a compile is no query: the compile is annotated.
acc(_r ${CC} -v -c b.c -o b_verbose.o)
int_expect_success(_r "annotate-cc cc -v -c b.c")
int_traced_object("${WORK}/b_verbose.o" yes)

# -S: the assembly of the annotated copy.
acc(_r ${CC} -S b.c -o b.s)
int_expect_success(_r "annotate-cc cc -S b.c -o b.s")
file(READ "${WORK}/b.s" _asm)
int_expect_match("${_asm}" "dftracer_span_begin" "b.s")

# A configure probe: passed through.
acc(_r ${CC} -c conftest.c)
int_expect_success(_r "annotate-cc cc -c conftest.c")
int_traced_object("${WORK}/conftest.o" no)

# ANNOTATE_CC_DISABLE=1: everything passes through.
set(ENV{ANNOTATE_CC_DISABLE} 1)
acc(_r ${CC} -c b.c -o b_plain.o)
unset(ENV{ANNOTATE_CC_DISABLE})
int_expect_success(_r "ANNOTATE_CC_DISABLE=1 annotate-cc cc -c b.c")
int_traced_object("${WORK}/b_plain.o" no)

# -MD with -o and no -MF: obj/a2.d, naming the original source and header.
file(MAKE_DIRECTORY "${WORK}/obj")
acc(_r ${CC} -MD -c sub/a.c -o obj/a2.o)
int_expect_success(_r "annotate-cc cc -MD -c sub/a.c -o obj/a2.o")
file(READ "${WORK}/obj/a2.d" _dep)
int_expect_match("${_dep}" "^obj/a2\\.o:[ \\\n]*sub/a\\.c" "obj/a2.d")
int_expect_match("${_dep}" "sub/a\\.h" "obj/a2.d")
int_expect_no_match("${_dep}" "annotate-cc\\.[A-Za-z0-9]+" "obj/a2.d names a temporary copy")
# -MMD -MF with -MT.
acc(_r ${CC} -MMD -MF obj/b.dep -MT custom-target -c b.c -o obj/b.o)
int_expect_success(_r "annotate-cc cc -MMD -MF obj/b.dep -MT custom-target")
file(READ "${WORK}/obj/b.dep" _dep)
int_expect_match("${_dep}" "^custom-target:[ \\\n]*b\\.c" "obj/b.dep")

# Links get the runtime: shared (with an rpath) or static.
acc(_r ${CC} a.o b.o -o prog)
int_expect_success(_r "annotate-cc cc a.o b.o -o prog")
run_traced("${WORK}/prog" "${WORK}/traces/prog")
set(ENV{ANNOTATE_CC_RUNTIME} static)
acc(_r ${CC} a.o b.o -o prog_static)
unset(ENV{ANNOTATE_CC_RUNTIME})
int_expect_success(_r "ANNOTATE_CC_RUNTIME=static annotate-cc cc a.o b.o")
int_run(_n COMMAND "${NM}" "${WORK}/prog_static")
int_expect_match("${_n_OUT}" "T dftracer_span_begin" "prog_static defines the runtime")
run_traced("${WORK}/prog_static" "${WORK}/traces/prog_static")
# Compile and link in one command.
acc(_r ${CC} -O2 -o prog1 sub/a.c b.c)
int_expect_success(_r "annotate-cc cc -o prog1 sub/a.c b.c")
run_traced("${WORK}/prog1" "${WORK}/traces/prog1")

# A file annotate cannot parse: the original is compiled, one warning line.
acc(_r ${CC} -c nested.c -o nested.o)
int_expect_success(_r "annotate-cc cc -c nested.c")
int_expect_one_warning("${_r_OUT}"
  "^annotate-cc: warning: nested\\.c: not annotated \\(.+\\); compiled the original, untraced$"
  "the fallback warning")
int_traced_object("${WORK}/nested.o" no)
# ... an error with ANNOTATE_CC_STRICT=1.
set(ENV{ANNOTATE_CC_STRICT} 1)
acc(_r ${CC} -c nested.c -o nested_strict.o)
unset(ENV{ANNOTATE_CC_STRICT})
int_expect_failure(_r "ANNOTATE_CC_STRICT=1 annotate-cc cc -c nested.c")
int_expect_match("${_r_OUT}" "annotate-cc: error: nested\\.c: not annotated" "the STRICT error")
# annotate missing: the same fallback.
set(ENV{ANNOTATE} "${WORK}/no-such-annotate")
acc(_r ${CC} -c b.c -o b_noannotate.o)
unset(ENV{ANNOTATE})
int_expect_success(_r "annotate-cc with a missing annotate")
int_expect_one_warning("${_r_OUT}" "annotate not found" "the missing-annotate warning")

# Diagnostics of the annotated copy name the original file and line.
set(ENV{ANNOTATE_CC_STRICT} 1)
acc(_r ${CC} -Werror=unused-variable -c broken.c -o broken.o)
unset(ENV{ANNOTATE_CC_STRICT})
int_expect_failure(_r "annotate-cc cc -Werror=unused-variable -c broken.c (STRICT)")
int_expect_match("${_r_OUT}" "broken\\.c:14:[0-9]+: error: unused variable" "the error line")
int_expect_no_match("${_r_OUT}" "annotate-cc\\.[A-Za-z0-9]+/" "the error names the temporary copy")
# Without STRICT the original is compiled again and fails the same way.
acc(_r ${CC} -Werror=unused-variable -c broken.c -o broken.o)
int_expect_failure(_r "annotate-cc cc -Werror=unused-variable -c broken.c")
int_expect_one_warning("${_r_OUT}"
  "^annotate-cc: warning: annotated broken\\.c did not compile .*; compiled the original, untraced$"
  "the warning for a copy that does not compile")
int_expect_match("${_r_OUT}" "broken\\.c:14:[0-9]+: error: unused variable" "the original's error")

# ANNOTATE_CC_OPTIONS reach annotate.
set(ENV{ANNOTATE_CC_OPTIONS} "--exclude-function b_func")
acc(_r ${CC} -c b.c -o b_excluded.o)
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_success(_r "ANNOTATE_CC_OPTIONS=--exclude-function b_func annotate-cc cc -c b.c")
int_traced_object("${WORK}/b_excluded.o" no)

# ANNOTATE_CC_OPTIONS are split like a shell would: a --variant of two
# flags in quotes is one option. Every return of variants.c gets its END.
set(ENV{ANNOTATE_CC_OPTIONS} "--variant '-DWIDE=1 -DUSE_X' --variant=-DHAVE_LUSTRE")
set(ENV{ANNOTATE_CC_KEEP} "${WORK}/kept_variants")
acc(_r ${CC} -DWIDE=1 -DUSE_X -c variants.c -o variants.o)
unset(ENV{ANNOTATE_CC_KEEP})
unset(ENV{ANNOTATE_CC_OPTIONS})
int_expect_success(_r "ANNOTATE_CC_OPTIONS=\"--variant '-DWIDE=1 -DUSE_X' ...\" annotate-cc cc -c variants.c")
int_expect_no_match("${_r_OUT}" "not annotated|not compiled here" "annotate-cc with two variants")
file(READ "${WORK}/kept_variants/variants.c" _kept)
string(REPLACE ";" "<semicolon>" _kept "${_kept}")
string(REGEX MATCHALL "DFTRACER_C_FUNCTION_END\\(\\)<semicolon> return" _ends "${_kept}")
list(LENGTH _ends _n)
if(NOT _n EQUAL 3)
  int_fail("variants.c: ${_n} returns with END, expected 3 (one per "
           "configuration's return):\n${_kept}")
endif()

# --strip makes no sense for a wrapper that never changes the sources: a
# usage error that says what to do instead, no object written.
set(ENV{ANNOTATE_CC_OPTIONS} "--guard 0 --strip")
acc(_r ${CC} -c b.c -o b_stripped.o)
unset(ENV{ANNOTATE_CC_OPTIONS})
if(NOT _r_RC EQUAL 2 OR EXISTS "${WORK}/b_stripped.o")
  int_fail("ANNOTATE_CC_OPTIONS=--strip exited ${_r_RC}, expected 2:\n${_r_OUT}")
endif()
int_expect_match("${_r_OUT}" "annotate-cc: error: --strip does not go with annotate-cc"
  "the --strip error")

# ANNOTATE_CC_KEEP keeps the annotated copies.
set(ENV{ANNOTATE_CC_KEEP} "${WORK}/kept")
acc(_r ${CC} -c sub/a.c -o obj/a3.o)
unset(ENV{ANNOTATE_CC_KEEP})
int_expect_success(_r "ANNOTATE_CC_KEEP=kept annotate-cc cc -c sub/a.c")
file(READ "${WORK}/kept/sub/a.c" _kept)
int_expect_match("${_kept}" "DFTRACER_C_FUNCTION_START" "kept/sub/a.c")

# C++: compiled, annotated or not (annotate's C++ support decides).
acc(_r ${CXX_COMPILER} -c hello.cpp -o hello.o)
int_expect_success(_r "annotate-cc c++ -c hello.cpp")
if(NOT EXISTS "${WORK}/hello.o")
  int_fail("annotate-cc c++ -c hello.cpp wrote no hello.o")
endif()
file(GLOB _left "${WORK}/tmp/*")
if(_left)
  int_fail("annotate-cc left temporary files behind: ${_left}")
endif()
message(STATUS "annotate-cc: every case behaved")
