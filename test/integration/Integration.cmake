# Helpers shared by the integration test scripts (see CMakeLists.txt).
cmake_minimum_required(VERSION 3.20)

function(int_fail)
  string(JOIN "" _msg ${ARGN})
  message(FATAL_ERROR "${_msg}")
endfunction()

# int_require(VAR...): each -DVAR=... must be given.
function(int_require)
  foreach(_var ${ARGN})
    if(NOT DEFINED ${_var} OR "${${_var}}" STREQUAL "")
      int_fail("-D${_var}=... is required")
    endif()
  endforeach()
endfunction()

# int_run(<prefix> COMMAND <cmd>... [WORKING_DIRECTORY <dir>] [INPUT_FILE <f>])
# Runs the command; <prefix>_OUT is stdout and stderr together, <prefix>_RC
# the exit status.
function(int_run prefix)
  cmake_parse_arguments(_r "" "WORKING_DIRECTORY;INPUT_FILE" "COMMAND" ${ARGN})
  set(_extra)
  if(_r_WORKING_DIRECTORY)
    list(APPEND _extra WORKING_DIRECTORY "${_r_WORKING_DIRECTORY}")
  endif()
  if(_r_INPUT_FILE)
    list(APPEND _extra INPUT_FILE "${_r_INPUT_FILE}")
  endif()
  execute_process(COMMAND ${_r_COMMAND} ${_extra}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  set(${prefix}_OUT "${_out}" PARENT_SCOPE)
  set(${prefix}_RC "${_rc}" PARENT_SCOPE)
endfunction()

# int_expect_success(<prefix> <what>): the last int_run(<prefix>) succeeded.
function(int_expect_success prefix what)
  if(NOT "${${prefix}_RC}" STREQUAL "0")
    int_fail("${what} failed (${${prefix}_RC}):\n${${prefix}_OUT}")
  endif()
endfunction()

# int_expect_failure(<prefix> <what>)
function(int_expect_failure prefix what)
  if("${${prefix}_RC}" STREQUAL "0")
    int_fail("${what} succeeded, but should have failed:\n${${prefix}_OUT}")
  endif()
endfunction()

# int_expect_match(<text> <regex> <what>), int_expect_no_match(...)
function(int_expect_match text regex what)
  if(NOT text MATCHES "${regex}")
    int_fail("${what}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()
function(int_expect_no_match text regex what)
  if(text MATCHES "${regex}")
    int_fail("${what}: unexpected '${CMAKE_MATCH_0}' in:\n${text}")
  endif()
endfunction()

# int_regex_escape(<out> <text>): <text> as a literal in a regular expression.
function(int_regex_escape out text)
  string(REGEX REPLACE "([][+.*?()^$|\\\\])" "\\\\\\1" _e "${text}")
  set(${out} "${_e}" PARENT_SCOPE)
endfunction()

# int_matches(<out> <regex> <text>): every capture group 1 of <regex>.
function(int_matches out regex text)
  string(REGEX MATCHALL "${regex}" _all "${text}")
  set(_found)
  foreach(_m IN LISTS _all)
    string(REGEX REPLACE "${regex}" "\\1" _v "${_m}")
    list(APPEND _found "${_v}")
  endforeach()
  set(${out} "${_found}" PARENT_SCOPE)
endfunction()

# int_expect_list(<actual list> <expected list> <what>): same elements, in
# any order.
function(int_expect_list actual expected what)
  set(_a ${actual})
  set(_e ${expected})
  list(SORT _a)
  list(SORT _e)
  if(NOT "${_a}" STREQUAL "${_e}")
    int_fail("${what}: expected [${_e}], got [${_a}]")
  endif()
endfunction()

# int_copy_project(<name> <dest>): a fresh copy of SOURCE_DIR/<name>.
function(int_copy_project name dest)
  file(REMOVE_RECURSE "${dest}")
  file(MAKE_DIRECTORY "${dest}")
  file(COPY "${SOURCE_DIR}/${name}/" DESTINATION "${dest}")
endfunction()

# int_split(<var>): '|'-separated on the command line -> CMake list.
macro(int_split var)
  string(REPLACE "|" ";" ${var} "${${var}}")
endmacro()

# int_mpirun(<prefix> <trace dir> <program> [args...]): runs <program> under
# MPIEXEC (2 ranks) with tracing on, writing <trace dir>/trace-*.pfw.
function(int_mpirun prefix traces program)
  set(_mpiexec "${MPIEXEC}")
  int_split(_mpiexec)
  file(REMOVE_RECURSE "${traces}")
  file(MAKE_DIRECTORY "${traces}")
  set(ENV{DFTRACER_ENABLE} 1)
  set(ENV{DFTRACER_LOG_FILE} "${traces}/trace")
  get_filename_component(_dir "${program}" DIRECTORY)
  int_run(_r COMMAND ${_mpiexec} "${program}" ${ARGN} WORKING_DIRECTORY "${_dir}")
  unset(ENV{DFTRACER_ENABLE})
  unset(ENV{DFTRACER_LOG_FILE})
  int_expect_success(_r "mpiexec ${program} ${ARGN}")
  set(${prefix}_OUT "${_r_OUT}" PARENT_SCOPE)
endfunction()

# int_check_traces(<trace dir> <counts.json> [CHECKER <exe>]): one trace per
# rank, valid, with exactly the expected calls of the listed functions.
function(int_check_traces traces counts)
  cmake_parse_arguments(_c "" "CHECKER" "" ${ARGN})
  if(NOT _c_CHECKER)
    set(_c_CHECKER "${CHECKER}")
  endif()
  file(GLOB _files "${traces}/trace-*.pfw")
  list(LENGTH _files _n)
  if(NOT _n EQUAL 2)
    int_fail("expected one trace per rank (2) in ${traces}, found ${_n}: ${_files}")
  endif()
  int_run(_r COMMAND "${_c_CHECKER}" --expect-counts "${counts}" ${_files})
  int_expect_success(_r "dftracer-check --expect-counts ${counts}")
  message(STATUS "${traces}: valid, counts as in ${counts}")
endfunction()

# int_build(<prefix> <build dir> [targets...]): cmake --build; sets
# <prefix>_OUT, <prefix>_RC and <prefix>_ANNOTATED (the sources annotated,
# from the "Annotating C source <path>" lines).
function(int_build prefix build)
  set(_targets)
  if(ARGN)
    set(_targets --target ${ARGN})
  endif()
  int_run(_b COMMAND "${CMAKE_COMMAND}" --build "${build}" ${_targets})
  string(REGEX MATCHALL "Annotating CX?X? source [^\r\n]+" _lines "${_b_OUT}")
  set(_sources)
  foreach(_l IN LISTS _lines)
    string(REGEX REPLACE "^Annotating CX?X? source " "" _s "${_l}")
    list(APPEND _sources "${_s}")
  endforeach()
  set(${prefix}_OUT "${_b_OUT}" PARENT_SCOPE)
  set(${prefix}_RC "${_b_RC}" PARENT_SCOPE)
  set(${prefix}_ANNOTATED "${_sources}" PARENT_SCOPE)
endfunction()

# int_configure(<prefix> <source> <build> [cache args...]): configures a
# test project with this build's generator and C compiler.
function(int_configure prefix source build)
  set(_make)
  if(MAKE_PROGRAM)
    set(_make "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
  endif()
  int_run(_c COMMAND "${CMAKE_COMMAND}" -S "${source}" -B "${build}"
    -G "${GENERATOR}" ${_make} ${ARGN})
  set(${prefix}_OUT "${_c_OUT}" PARENT_SCOPE)
  set(${prefix}_RC "${_c_RC}" PARENT_SCOPE)
endfunction()

# int_traced_object(<object> <yes|no>): whether <object> calls the runtime
# (annotated code references dftracer_span_begin).
function(int_traced_object object expected)
  int_run(_n COMMAND "${NM}" -u "${object}")
  int_expect_success(_n "nm -u ${object}")
  if(_n_OUT MATCHES "dftracer_span_begin")
    set(_traced yes)
  else()
    set(_traced no)
  endif()
  if(NOT _traced STREQUAL expected)
    int_fail("${object}: annotated is '${_traced}', expected '${expected}'")
  endif()
endfunction()

# int_make(<prefix> <dir> [args...]): make in <dir>; sets <prefix>_OUT,
# <prefix>_RC and <prefix>_ANNOTATED (the sources annotate-cc annotated, from
# its ANNOTATE_CC_VERBOSE=1 lines).
function(int_make prefix dir)
  set(ENV{ANNOTATE_CC_VERBOSE} 1)
  int_run(_m COMMAND "${MAKE}" ${ARGN} WORKING_DIRECTORY "${dir}")
  unset(ENV{ANNOTATE_CC_VERBOSE})
  string(REGEX MATCHALL "annotate-cc: [^\n ]*annotate [^\n ]+ --line-directives" _lines "${_m_OUT}")
  set(_sources)
  foreach(_l IN LISTS _lines)
    string(REGEX REPLACE "^annotate-cc: [^ ]*annotate ([^ ]+) --line-directives$" "\\1" _s "${_l}")
    list(APPEND _sources "${_s}")
  endforeach()
  set(${prefix}_OUT "${_m_OUT}" PARENT_SCOPE)
  set(${prefix}_RC "${_m_RC}" PARENT_SCOPE)
  set(${prefix}_ANNOTATED "${_sources}" PARENT_SCOPE)
endfunction()

# int_expect_one_warning(<text> <regex> <what>): exactly one annotate-cc
# warning line, matching <regex>.
function(int_expect_one_warning text regex what)
  string(REPLACE ";" "," text "${text}") # the messages say "(why); compiled ..."
  string(REPLACE ";" "," regex "${regex}")
  string(REGEX MATCHALL "annotate-cc: warning: [^\n]*" _w "${text}")
  list(LENGTH _w _n)
  if(NOT _n EQUAL 1)
    int_fail("${what}: expected one annotate-cc warning, got ${_n}:\n${text}")
  endif()
  int_expect_match("${_w}" "${regex}" "${what}")
endfunction()
