# integration.make.build: `make CC="annotate-cc mpicc"` builds the Makefile
# project: every object but legacy.o is annotated (one warning line for
# legacy.c, which annotate cannot parse), the dependency files name the
# original sources, and the program links the runtime.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR MAKE MPICC ANNOTATE_CC NM)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(make_project "${WORK}/src")
int_make(_m "${WORK}/src" "CC=${ANNOTATE_CC} ${MPICC}")
int_expect_success(_m "make CC=\"annotate-cc mpicc\"")
message(STATUS "${_m_OUT}")
int_expect_list("${_m_ANNOTATED}"
  "src/main.c;src/compute.c;src/io.c;src/legacy.c" "sources annotate ran on")
int_expect_one_warning("${_m_OUT}"
  "^annotate-cc: warning: src/legacy\\.c: not annotated \\(.+\\); compiled the original, untraced$"
  "the fallback warning")

foreach(_object main compute io)
  int_traced_object("${WORK}/src/${_object}.o" yes)
endforeach()
int_traced_object("${WORK}/src/legacy.o" no)

# Dependency files: -MMD -MP -MF deps/main.d, and -MMD with two sources.
foreach(_pair "deps/main.d|main.o:[ \\\n]*src/main.c" "compute.d|compute.o:[ \\\n]*src/compute.c"
              "io.d|io.o:[ \\\n]*src/io.c")
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _file)
  list(GET _pair 1 _rule)
  file(READ "${WORK}/src/${_file}" _text)
  int_expect_match("${_text}" "^${_rule}" "${_file}")
  int_expect_match("${_text}" "include/shared\\.h" "${_file}")
  int_expect_no_match("${_text}" "annotate-cc\\.[A-Za-z0-9]+" "${_file} names a temporary copy")
endforeach()
file(READ "${WORK}/src/deps/main.d" _text)
int_expect_match("${_text}" "src/settings\\.h" "deps/main.d")
