# integration.coverage.record: the program carries the coverage of its
# sources and the runtime writes it as the `coverage` record (issue 38,
# docs/integration.md "Coverage", docs/runtime.md). coverage_project/ (3 C
# sources; nested.c, a GCC nested function, is compiled untraced) is built
# twice, with annotate_target() under cmake_minimum_required(2.8.12) and
# with annotate-cc mpicc, and run traced under mpiexec -n 2: each rank's
# trace has exactly one `coverage` record, right after CONFIG, for the
# program covapp: 3 sources, 2 annotated, 1 failed, naming nested.c with
# annotate's reason. The same in the compact format (.pfc, read back with
# dftracer-convert when CONVERTER is given), and no record with
# ANNOTATE_CC_COVERAGE=0 / -DANNOTATE_COVERAGE=OFF. Built with
# -DCOVAPP_LIBS=ON, the program's record also counts the sources of the
# static library it links and of the one that library links.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK SOURCE_DIR ANNOTATE_BUILD_DIR ANNOTATE_CC GENERATOR MPICC
  MPIEXEC CHECKER)

file(REMOVE_RECURSE "${WORK}")
int_copy_project(coverage_project "${WORK}/src")
# A list of lines: ';' would split a line, and an unbalanced '[' (a
# trace's first line) would join them; both are kept aside.
string(ASCII 31 _sep)
string(ASCII 30 _open)
string(ASCII 29 _close)

# cov_records(<out> <trace file>): the trace's `coverage` lines, and in
# <out>_BEFORE the name of the record before the first one.
function(cov_records out file)
  file(READ "${file}" _text)
  string(REPLACE ";" "${_sep}" _text "${_text}")
  string(REPLACE "[" "${_open}" _text "${_text}")
  string(REPLACE "]" "${_close}" _text "${_text}")
  string(REPLACE "\n" ";" _lines "${_text}")
  set(_found)
  set(_before "")
  set(_prev "")
  foreach(_line IN LISTS _lines)
    if(_line MATCHES "\"name\":\"coverage\"")
      if(NOT _found)
        set(_before "${_prev}")
      endif()
      list(APPEND _found "${_line}")
    elseif(_line MATCHES "\"name\":\"([^\"]*)\"")
      set(_prev "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
  set(${out}_BEFORE "${_before}" PARENT_SCOPE)
endfunction()

# cov_expect(<trace files> <what>): one trace per rank, each with exactly
# one coverage record after CONFIG: covapp, COV_SOURCES sources (3),
# COV_ANNOTATED annotated (2), nested.c failed with annotate's reason.
set(COV_SOURCES 3)
set(COV_ANNOTATED 2)
function(cov_expect files what)
  list(LENGTH files _n)
  if(NOT _n EQUAL 2)
    int_fail("${what}: expected one trace per rank (2), found ${_n}: ${files}")
  endif()
  foreach(_file IN LISTS files)
    cov_records(_records "${_file}")
    list(LENGTH _records _n)
    if(NOT _n EQUAL 1)
      int_fail("${what}: ${_file} has ${_n} coverage records, not 1")
    endif()
    if(NOT _records_BEFORE STREQUAL "CONFIG")
      int_fail("${what}: ${_file}: the coverage record follows '${_records_BEFORE}', not CONFIG")
    endif()
    string(REPLACE "${_sep}" ";" _line "${_records}")
    string(REPLACE "${_open}" "[" _line "${_line}")
    string(REPLACE "${_close}" "]" _line "${_line}")
    foreach(_pair "ph|M" "cat|dftracer" "args.program|covapp"
                  "args.sources|${COV_SOURCES}" "args.annotated|${COV_ANNOTATED}"
                  "args.failed|1" "args.excluded|0")
      string(REPLACE "|" ";" _pair "${_pair}")
      list(GET _pair 0 _key)
      list(GET _pair 1 _want)
      string(REPLACE "." ";" _path "${_key}")
      string(JSON _got ERROR_VARIABLE _err GET "${_line}" ${_path})
      if(_err OR NOT _got STREQUAL _want)
        int_fail("${what}: ${_file}: ${_key} is '${_got}', not '${_want}' ${_err}:\n${_line}")
      endif()
    endforeach()
    string(JSON _listed LENGTH "${_line}" args files)
    string(JSON _source GET "${_line}" args files 0 file)
    string(JSON _status GET "${_line}" args files 0 status)
    string(JSON _reason GET "${_line}" args files 0 reason)
    if(NOT _listed EQUAL 1 OR NOT _source STREQUAL "${WORK}/src/nested.c"
       OR NOT _status STREQUAL "failed")
      int_fail("${what}: ${_file}: expected nested.c alone, failed:\n${_line}")
    endif()
    string(REPLACE ";" "," _reason "${_reason}")
    int_expect_match("${_reason}"
      "^not annotated \\(first error at [^ ]*nested\\.c:6:[0-9]+: function definition is not allowed here"
      "${what}: nested.c's reason")
  endforeach()
  int_run(_r COMMAND "${CHECKER}" ${files})
  int_expect_success(_r "${what}: dftracer-check")
endfunction()

# cov_run(<what> <program>): runs it traced, in both formats; checks both.
function(cov_run what program)
  int_mpirun(_r "${WORK}/traces" "${program}")
  int_expect_match("${_r_OUT}" "covapp: " "${what}: the program's output")
  file(GLOB _files "${WORK}/traces/trace-*.pfw")
  cov_expect("${_files}" "${what}")
  message(STATUS "${what}: one coverage record per rank")
  if(NOT CONVERTER)
    return()
  endif()
  set(ENV{DFTRACER_TRACE_FORMAT} compact)
  int_mpirun(_r "${WORK}/traces" "${program}")
  unset(ENV{DFTRACER_TRACE_FORMAT})
  file(GLOB _compact "${WORK}/traces/trace-*.pfc")
  set(_files)
  foreach(_pfc IN LISTS _compact)
    int_run(_c COMMAND "${CONVERTER}" -o "${_pfc}.pfw" "${_pfc}")
    int_expect_success(_c "${what}: dftracer-convert ${_pfc}")
    list(APPEND _files "${_pfc}.pfw")
  endforeach()
  cov_expect("${_files}" "${what}, compact format")
  message(STATUS "${what}, compact format: one coverage record per rank")
endfunction()

# cov_expect_none(<what> <program>): a traced run writes no coverage record.
function(cov_expect_none what program)
  int_mpirun(_r "${WORK}/traces" "${program}")
  file(GLOB _files "${WORK}/traces/trace-*.pfw")
  foreach(_file IN LISTS _files)
    cov_records(_records "${_file}")
    if(_records)
      int_fail("${what}: ${_file} has a coverage record")
    endif()
  endforeach()
endfunction()

# --- annotate_target() ----------------------------------------------------------
int_configure(_c "${WORK}/src" "${WORK}/build" "-DCMAKE_C_COMPILER=${MPICC}"
  "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}")
int_expect_success(_c "configuring coverage_project")
int_build(_b "${WORK}/build")
int_expect_success(_b "building coverage_project with annotate_target")
int_expect_match("${_b_OUT}" "annotate_target\\(covapp\\): 3 files, 2 changed, 1 failed"
  "the target's summary")
if(NOT EXISTS "${WORK}/build/annotate/covapp/covapp_dftracer_coverage.c")
  int_fail("annotate_target wrote no covapp_dftracer_coverage.c")
endif()
cov_run("annotate_target" "${WORK}/build/covapp")

# -DANNOTATE_COVERAGE=OFF: no coverage source, no record.
int_configure(_c "${WORK}/src" "${WORK}/build-off" "-DCMAKE_C_COMPILER=${MPICC}"
  "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}" -DANNOTATE_COVERAGE=OFF)
int_expect_success(_c "configuring coverage_project, ANNOTATE_COVERAGE=OFF")
int_build(_b "${WORK}/build-off")
int_expect_success(_b "building coverage_project, ANNOTATE_COVERAGE=OFF")
cov_expect_none("annotate_target, ANNOTATE_COVERAGE=OFF" "${WORK}/build-off/covapp")

# -DCOVAPP_LIBS=ON: covapp also links covlib_a, which links covlib_b
# PRIVATE, both annotated after covapp: the program holds their code, so
# its record counts their sources too (5 sources, 4 annotated).
int_configure(_c "${WORK}/src" "${WORK}/build-libs" "-DCMAKE_C_COMPILER=${MPICC}"
  "-Dannotate_DIR=${ANNOTATE_BUILD_DIR}" -DCOVAPP_LIBS=ON)
int_expect_success(_c "configuring coverage_project, COVAPP_LIBS=ON")
int_build(_b "${WORK}/build-libs")
int_expect_success(_b "building coverage_project, COVAPP_LIBS=ON")
set(COV_SOURCES 5)
set(COV_ANNOTATED 4)
cov_run("annotate_target, two static libraries" "${WORK}/build-libs/covapp")
set(COV_SOURCES 3)
set(COV_ANNOTATED 2)

# --- annotate-cc ------------------------------------------------------------------
file(MAKE_DIRECTORY "${WORK}/cc")
foreach(_name main work nested)
  int_run(_r COMMAND "${ANNOTATE_CC}" "${MPICC}" -c "${WORK}/src/${_name}.c"
    -o ${_name}.o WORKING_DIRECTORY "${WORK}/cc")
  int_expect_success(_r "annotate-cc mpicc -c ${_name}.c")
endforeach()
int_run(_r COMMAND "${ANNOTATE_CC}" "${MPICC}" main.o work.o nested.o -o covapp
  WORKING_DIRECTORY "${WORK}/cc")
int_expect_success(_r "annotate-cc mpicc main.o work.o nested.o -o covapp")
cov_run("annotate-cc" "${WORK}/cc/covapp")

# ANNOTATE_CC_COVERAGE=0 at the link: no record.
set(ENV{ANNOTATE_CC_COVERAGE} 0)
int_run(_r COMMAND "${ANNOTATE_CC}" "${MPICC}" main.o work.o nested.o -o covapp-off
  WORKING_DIRECTORY "${WORK}/cc")
unset(ENV{ANNOTATE_CC_COVERAGE})
int_expect_success(_r "ANNOTATE_CC_COVERAGE=0 annotate-cc mpicc ... -o covapp-off")
cov_expect_none("annotate-cc, ANNOTATE_CC_COVERAGE=0" "${WORK}/cc/covapp-off")
