# integration.lang.database: lang_project annotated once with `annotate -p`
# from its compile database (mpicc and mpicxx, no -x: the driver says the
# `.c` files of LANGUAGE CXX are C++, and mpicxx's own include directory is
# asked of it), then built by its own CMake with the runtime linked by hand,
# as docs/integration.md's recipe says (runtime first, --no-as-needed), and
# run traced. Also: no progress line when stderr is not a terminal, one on a
# terminal (script(1)); --extra-arg and --extra-arg-before.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE GENERATOR MPICC MPICXX MPIEXEC CHECKER
  RUNTIME_INCLUDE RUNTIME_LIBDIR)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(lang_project "${WORK}/src")
set(_compilers "-DCMAKE_C_COMPILER=${MPICC}" "-DCMAKE_CXX_COMPILER=${MPICXX}")
int_configure(_c "${WORK}/src" "${WORK}/build" ${_compilers}
  -DLANGMIX_ANNOTATE=OFF -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
int_expect_success(_c "configuring lang_project with a compile database")
int_build(_b "${WORK}/build") # generates table.c
int_expect_success(_b "building lang_project untraced")

# The copy the docs make first, then the annotated files over it.
file(COPY "${WORK}/src/" DESTINATION "${WORK}/out/src")
set(_files src/main.cpp src/shapes.c src/stats.c src/plain.c src/narrow.cpp
  build/table.c)
set(_annotate "${ANNOTATE}" -p "${WORK}/build" --root "${WORK}" --guard 0)
int_run(_a COMMAND ${_annotate} -o "${WORK}/out" ${_files}
  WORKING_DIRECTORY "${WORK}")
message(STATUS "${_a_OUT}")
int_expect_success(_a "annotate -p")
int_expect_match("${_a_OUT}" "annotate: 6 files, 6 changed, 0 failed;" "annotate -p's summary")
int_expect_match("${_a_OUT}"
  "narrow\\.cpp: warning: Clang rejects what GCC accepts here \\([^\n]*narrow\\.cpp:6:18: [^\n]*\\): parsed with -Wno-c\\+\\+11-narrowing"
  "the narrowing line")
# Not a terminal: no progress line.
int_expect_no_match("${_a_OUT}" "files, [0-9]+:[0-9][0-9] elapsed" "progress without a terminal")
foreach(_pair "src/shapes.c|DFTRACER_CPP_FUNCTION" "src/stats.c|DFTRACER_CPP_FUNCTION"
              "src/main.cpp|DFTRACER_C_INIT" "src/plain.c|DFTRACER_C_FUNCTION_START"
              "src/narrow.cpp|DFTRACER_CPP_FUNCTION" "build/table.c|DFTRACER_C_FUNCTION_START")
  string(REPLACE "|" ";" _pair "${_pair}")
  list(GET _pair 0 _file)
  list(GET _pair 1 _marker)
  file(READ "${WORK}/out/${_file}" _text)
  int_expect_match("${_text}" "${_marker}" "the annotated ${_file}")
endforeach()

# --extra-arg: the flag from the start, no second try.
int_run(_x COMMAND ${_annotate} --diff --extra-arg=-Wno-c++11-narrowing src/narrow.cpp
  WORKING_DIRECTORY "${WORK}")
int_expect_success(_x "annotate -p --extra-arg=-Wno-c++11-narrowing")
int_expect_no_match("${_x_OUT}" "Clang rejects what GCC" "--extra-arg=-Wno-c++11-narrowing")
# --extra-arg-before: a `.c` given alone is C unless told.
int_run(_x COMMAND "${ANNOTATE}" src/shapes.c -- -Isrc/include WORKING_DIRECTORY "${WORK}")
int_expect_failure(_x "annotate shapes.c as C")
int_expect_match("${_x_OUT}" "first error at [^\n]*shapes\\.c:[0-9]+:[0-9]+: [^\n]*try --extra-arg-before=-xc\\+\\+"
  "the hint for a C++ file parsed as C")
int_run(_x COMMAND "${ANNOTATE}" --extra-arg-before=-xc++ src/shapes.c -- -Isrc/include
  WORKING_DIRECTORY "${WORK}")
int_expect_success(_x "annotate --extra-arg-before=-xc++ shapes.c")
int_expect_match("${_x_OUT}" "DFTRACER_CPP_FUNCTION" "shapes.c parsed as C++")

# On a terminal: one line that rewrites itself.
find_program(_script script)
if(_script)
  string(REPLACE ";" " " _cmd "${_annotate};--check;${_files}")
  int_run(_t COMMAND "${_script}" -qec "${_cmd}" /dev/null WORKING_DIRECTORY "${WORK}")
  string(ASCII 27 _esc)
  int_expect_match("${_t_OUT}" "\r${_esc}\\[Kannotate: 6/6 files, [0-9]+:[0-9][0-9] elapsed"
    "the progress line on a terminal")
endif()

# Built by its own CMake, the runtime linked by hand (docs/integration.md,
# "Linking the runtime by hand"): first, kept by --no-as-needed.
set(_link "-L${RUNTIME_LIBDIR} -Wl,-rpath,${RUNTIME_LIBDIR} -Wl,--push-state,--no-as-needed -ldftracer_core -Wl,--pop-state")
int_configure(_c "${WORK}/out/src" "${WORK}/traced" ${_compilers}
  -DLANGMIX_ANNOTATE=OFF "-DLANGMIX_TABLE_IN=${WORK}/out/build/table.c"
  "-DCMAKE_C_FLAGS=-I${RUNTIME_INCLUDE}" "-DCMAKE_CXX_FLAGS=-I${RUNTIME_INCLUDE}"
  "-DCMAKE_EXE_LINKER_FLAGS=${_link}")
int_expect_success(_c "configuring the annotated copy")
int_build(_b "${WORK}/traced")
int_expect_success(_b "building the annotated copy")
int_mpirun(_r "${WORK}/traces" "${WORK}/traced/langmix")
int_expect_match("${_r_OUT}" "langmix: 24 2\\.50" "langmix's output")
int_check_traces("${WORK}/traces" "${WORK}/src/langmix.counts.json")
