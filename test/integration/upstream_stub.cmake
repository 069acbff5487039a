# integration.upstream_stub: an annotated kernel built against upstream
# DFTracer v1's C API instead of the bundled runtime (docs/integration.md,
# "Using upstream DFTracer instead of the bundled runtime"), with
# upstream_stub/ standing in for upstream where upstream cannot be built:
#  - the stub (its own dftracer/dftracer.h, libdftracer.so as v1 names it)
#    builds with -Wall -Werror;
#  - the golden annotated mpiio_shared.c compiles against the stub's header
#    with -Wall -Werror and links the stub, and not the bundled runtime
#    (readelf -d, nm -u);
#  - it runs under mpiexec -n 2, traced, with and without
#    DFTRACER_INC_METADATA=1 (args with p_idx -1 roots, or no args at all);
#  - dftracer-check (exit 0, exact calls) and dftracer-analyze --json: the
#    kernel's functions and main with their exact calls and nothing else (no
#    start/end), no issues, no problems, no caveats (num_events must match),
#    and both tools count the same spans and tracer spans.
include(${CMAKE_CURRENT_LIST_DIR}/Integration.cmake)
int_require(WORK MPICC MPIEXEC CHECKER ANALYZER C_COMPILER READELF NM KERNELS)

set(_stub "${SOURCE_DIR}/upstream_stub")
set(_kernel mpiio_shared)
set(_counts "${KERNELS}/${_kernel}.counts.json")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/lib" "${WORK}/bin")

# --- build: the stub, then the kernel against it ---------------------------
int_run(_s COMMAND "${C_COMPILER}" -shared -fPIC -Wall -Werror
  -I "${_stub}/include" "${_stub}/upstream_stub.c" -o "${WORK}/lib/libdftracer.so")
int_expect_success(_s "building the stub")
set(_exe "${WORK}/bin/${_kernel}")
int_run(_k COMMAND "${MPICC}" -Wall -Werror -I "${_stub}/include"
  "${KERNELS}/${_kernel}.c" -o "${_exe}"
  -L "${WORK}/lib" -ldftracer "-Wl,-rpath,${WORK}/lib")
int_expect_success(_k "compiling annotated ${_kernel}.c against the stub's header")

int_run(_r COMMAND "${READELF}" -d "${_exe}")
int_expect_success(_r "readelf -d")
int_expect_match("${_r_OUT}" "NEEDED[^\n]*\\[libdftracer\\.so\\]" "NEEDED of ${_kernel}")
int_expect_no_match("${_r_OUT}" "libdftracer_core" "NEEDED of ${_kernel}")
int_run(_n COMMAND "${NM}" -u "${_exe}")
int_expect_success(_n "nm -u")
int_expect_match("${_n_OUT}" "initialize_region" "undefined symbols of ${_kernel}")
int_expect_no_match("${_n_OUT}" "dftracer_[a-z_]+" "undefined symbols of ${_kernel}")

# --- expected: every function of counts.json, nothing else ------------------
file(READ "${_counts}" _want)
string(JSON _nf LENGTH "${_want}")
math(EXPR _last "${_nf} - 1")
set(_want_names)
set(_want_spans 0)
foreach(_i RANGE ${_last})
  string(JSON _name MEMBER "${_want}" ${_i})
  string(JSON _calls GET "${_want}" "${_name}")
  list(APPEND _want_names "${_name}")
  set(_want_${_name} ${_calls})
  math(EXPR _want_spans "${_want_spans} + ${_calls}")
endforeach()
if(NOT "main" IN_LIST _want_names)
  int_fail("${_counts} does not list main")
endif()

function(json_get out json)
  string(JSON _v ERROR_VARIABLE _e GET "${json}" ${ARGN})
  if(_e)
    int_fail("no ${ARGN} in:\n${json}")
  endif()
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()
function(json_len out json)
  string(JSON _v ERROR_VARIABLE _e LENGTH "${json}" ${ARGN})
  if(_e)
    int_fail("no ${ARGN} in:\n${json}")
  endif()
  set(${out} "${_v}" PARENT_SCOPE)
endfunction()

# --- run and read, each way upstream writes -----------------------------------
foreach(_mode metadata default)
  set(_what "${_kernel} (${_mode})")
  if(_mode STREQUAL "metadata")
    set(ENV{DFTRACER_INC_METADATA} 1)
  else()
    unset(ENV{DFTRACER_INC_METADATA})
  endif()
  file(REMOVE_RECURSE "${WORK}/out")
  file(MAKE_DIRECTORY "${WORK}/out")
  set(_traces "${WORK}/traces-${_mode}")
  int_mpirun(_m "${_traces}" "${_exe}" "${WORK}/out" 4096 8)
  unset(ENV{DFTRACER_INC_METADATA})
  int_expect_match("${_m_OUT}" "verified" "${_what} output")
  # Upstream's name: the prefix, the executable, the pid, -app.pfw.
  file(GLOB _files "${_traces}/trace-${_kernel}-*-app.pfw")
  list(LENGTH _files _nfiles)
  if(NOT _nfiles EQUAL 2)
    int_fail("${_what}: expected one trace per rank (2), found ${_nfiles}")
  endif()
  list(GET _files 0 _one)
  file(READ "${_one}" _text)
  if(_mode STREQUAL "metadata")
    int_expect_match("${_text}" "\"name\":\"main\"[^\n]*\"p_idx\":-1}" "${_what}: main a p_idx -1 root")
    int_expect_match("${_text}" "\"name\":\"end\"[^\n]*\"num_events\":[0-9]+" "${_what}: end with num_events")
  else()
    int_expect_no_match("${_text}" "\"ph\":\"X\",\"args\"" "${_what}: spans without args")
  endif()
  int_expect_match("${_text}" "^\\[\n" "${_what}: the [ line")

  int_run(_c COMMAND "${CHECKER}" --expect-counts "${_counts}" ${_files})
  int_expect_success(_c "${_what}: dftracer-check --expect-counts")
  # JSON on stdout only (notes go to stderr).
  foreach(_t cj aj)
    set(_tool "${CHECKER}")
    if(_t STREQUAL "aj")
      set(_tool "${ANALYZER}")
    endif()
    execute_process(COMMAND "${_tool}" --json ${_files}
      OUTPUT_VARIABLE _${_t} ERROR_VARIABLE _err RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      int_fail("${_what}: ${_tool} --json failed (${_rc}):\n${_err}")
    endif()
  endforeach()

  foreach(_t cj aj)
    foreach(_list caveats)
      json_len(_len "${_${_t}}" ${_list})
      if(NOT _len EQUAL 0)
        int_fail("${_what}: ${_t} ${_list}:\n${_${_t}}")
      endif()
    endforeach()
    json_get(_tracer "${_${_t}}" tracer_spans)
    if(NOT _tracer EQUAL 4)
      int_fail("${_what}: ${_t} tracer_spans ${_tracer}, expected 4 (start, end per rank)")
    endif()
  endforeach()
  json_len(_problems "${_cj}" problems)
  json_get(_valid "${_cj}" valid)
  json_get(_issues "${_aj}" issues total)
  if(NOT _problems EQUAL 0 OR NOT _valid OR NOT _issues EQUAL 0)
    int_fail("${_what}: problems ${_problems}, valid ${_valid}, issues ${_issues}")
  endif()

  # Spans: both tools, and the sum of the expected calls.
  json_get(_an_spans "${_aj}" spans)
  json_len(_np "${_cj}" processes)
  set(_check_spans 0)
  math(EXPR _lp "${_np} - 1")
  foreach(_i RANGE ${_lp})
    json_get(_s "${_cj}" processes ${_i} spans)
    math(EXPR _check_spans "${_check_spans} + ${_s}")
  endforeach()
  if(NOT _an_spans EQUAL _want_spans OR NOT _check_spans EQUAL _want_spans)
    int_fail("${_what}: spans: dftracer-analyze ${_an_spans}, dftracer-check "
             "${_check_spans}, expected ${_want_spans}")
  endif()

  # Functions: exactly the expected ones, each with its calls, in both tools.
  foreach(_t cj aj)
    json_len(_n "${_${_t}}" functions)
    math(EXPR _ln "${_n} - 1")
    set(_names)
    foreach(_i RANGE ${_ln})
      json_get(_name "${_${_t}}" functions ${_i} name)
      json_get(_calls "${_${_t}}" functions ${_i} calls)
      list(APPEND _names "${_name}")
      if(NOT DEFINED _want_${_name})
        int_fail("${_what}: ${_t} has function ${_name} (${_calls} calls), not in ${_counts}")
      endif()
      if(NOT _calls EQUAL _want_${_name})
        int_fail("${_what}: ${_t} ${_name} ${_calls} calls, expected ${_want_${_name}}")
      endif()
    endforeach()
    int_expect_list("${_names}" "${_want_names}" "${_what}: ${_t} functions")
  endforeach()
  message(STATUS "${_what}: ${_want_spans} spans, ${_nf} functions, as expected")
endforeach()
