# Steps of the end-to-end pipeline, shared by the cmake -P scripts beside it
# (annotate.cmake, build.cmake, run.cmake, check.cmake, broken.cmake,
# update_goldens.cmake) and by scripts/demo.sh. Every function stops the
# script with FATAL_ERROR and the tool's own output when a step fails.
include(${CMAKE_CURRENT_LIST_DIR}/kernels.cmake)

# Lists arrive on the command line with '|' in place of ';'.
macro(e2e_split var)
  string(REPLACE "|" ";" ${var} "${${var}}")
endmacro()

function(e2e_require)
  foreach(_var ${ARGN})
    if("${${_var}}" STREQUAL "")
      message(FATAL_ERROR "e2e: -D${_var}=... is required")
    endif()
  endforeach()
endfunction()

# e2e_annotate(ANNOTATE SRC OUT FLAGS [NAME]) writes the annotated SRC to OUT.
# The kernel's name becomes app metadata (--meta app=NAME).
function(e2e_annotate annotate src out flags name)
  get_filename_component(_dir ${out} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
  execute_process(
    COMMAND ${annotate} ${src} --meta app=${name} -- ${flags}
    OUTPUT_FILE ${out}.tmp ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "annotate ${src} exited with ${_rc}:\n${_err}")
  endif()
  if(_err)
    message(STATUS "annotate ${src} reported:\n${_err}")
  endif()
  file(RENAME ${out}.tmp ${out})
endfunction()

# e2e_compile(MPICC SRC EXE CFLAGS LIBS) builds one program with mpicc.
function(e2e_compile mpicc src exe cflags libs)
  get_filename_component(_dir ${exe} DIRECTORY)
  file(MAKE_DIRECTORY ${_dir})
  execute_process(COMMAND ${mpicc} ${cflags} ${src} -o ${exe} ${libs}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "mpicc failed on ${src} (${_rc}):\n${_out}")
  endif()
endfunction()

# e2e_kernel_args(OUT_VAR NAME OUT E2E VARIANT SRC): the kernel's command
# line (kernels.cmake) with its {OUT}, {E2E}, {VARIANT} and {SRC} filled in.
function(e2e_kernel_args var name out e2e variant src)
  set(_args ${E2E_ARGS_${name}})
  list(TRANSFORM _args REPLACE "{OUT}" "${out}")
  list(TRANSFORM _args REPLACE "{E2E}" "${e2e}")
  list(TRANSFORM _args REPLACE "{VARIANT}" "${variant}")
  list(TRANSFORM _args REPLACE "{SRC}" "${src}")
  set(${var} ${_args} PARENT_SCOPE)
endfunction()

# e2e_run_kernel(NAME WORK E2E SRC MPIEXEC VARIANT [TRACE_PREFIX])
# Runs WORK/VARIANT/NAME under MPIEXEC in a fresh WORK/VARIANT/out, with
# stdout and stderr in WORK/VARIANT/{stdout,stderr}.txt. With TRACE_PREFIX,
# tracing is on (DFTRACER_ENABLE=1, DFTRACER_LOG_FILE=TRACE_PREFIX) and the
# prefix's folder is emptied first; without, every DFTRACER_ variable is unset.
function(e2e_run_kernel name work e2e src mpiexec variant)
  set(_prefix "${ARGV6}")
  set(_out ${work}/${variant}/out)
  file(REMOVE_RECURSE ${_out})
  file(MAKE_DIRECTORY ${_out})
  e2e_kernel_args(_args ${name} ${_out} ${e2e} ${variant} ${src})
  set(_env --unset=DFTRACER_ENABLE --unset=DFTRACER_LOG_FILE
      --unset=DFTRACER_INC_METADATA --unset=DFTRACER_TRACE_COMPRESSION)
  if(_prefix)
    get_filename_component(_tdir ${_prefix} DIRECTORY)
    file(REMOVE_RECURSE ${_tdir})
    file(MAKE_DIRECTORY ${_tdir})
    list(APPEND _env DFTRACER_ENABLE=1 DFTRACER_LOG_FILE=${_prefix})
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env ${_env}
            ${mpiexec} ${work}/${variant}/${name} ${_args}
    WORKING_DIRECTORY ${_out}
    OUTPUT_FILE ${work}/${variant}/stdout.txt
    ERROR_FILE ${work}/${variant}/stderr.txt
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    file(READ ${work}/${variant}/stdout.txt _o)
    file(READ ${work}/${variant}/stderr.txt _e)
    string(JOIN " " _cmd ${mpiexec} ${work}/${variant}/${name} ${_args})
    message(FATAL_ERROR "${variant} ${name} failed (${_rc}): ${_cmd}\n"
                        "--- stdout\n${_o}--- stderr\n${_e}")
  endif()
endfunction()

# e2e_traces(OUT_VAR PREFIX) lists the traces written with DFTRACER_LOG_FILE=PREFIX.
function(e2e_traces var prefix)
  file(GLOB _t "${prefix}-*-app.pfw" "${prefix}-*-app.pfw.gz")
  list(SORT _t)
  set(${var} ${_t} PARENT_SCOPE)
endfunction()

# e2e_compare_outputs(WORK) fails unless WORK/original and WORK/annotated
# printed the same stdout and left the same files with the same bytes.
function(e2e_compare_outputs work)
  set(_o ${work}/original)
  set(_a ${work}/annotated)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
                  ${_o}/stdout.txt ${_a}/stdout.txt RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    file(READ ${_o}/stdout.txt _os)
    file(READ ${_a}/stdout.txt _as)
    message(FATAL_ERROR "stdout differs\n--- original\n${_os}--- annotated\n${_as}")
  endif()
  file(GLOB_RECURSE _ofiles RELATIVE ${_o}/out ${_o}/out/*)
  file(GLOB_RECURSE _afiles RELATIVE ${_a}/out ${_a}/out/*)
  list(SORT _ofiles)
  list(SORT _afiles)
  if(NOT _ofiles STREQUAL _afiles)
    message(FATAL_ERROR "output files differ: original wrote [${_ofiles}], "
                        "annotated wrote [${_afiles}]")
  endif()
  if(NOT _ofiles)
    message(FATAL_ERROR "the kernel wrote no output file in ${_o}/out")
  endif()
  foreach(_f ${_ofiles})
    execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files
                    ${_o}/out/${_f} ${_a}/out/${_f} RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "${_f} differs between the original and the "
                          "annotated run (${_o}/out, ${_a}/out)")
    endif()
  endforeach()
  list(LENGTH _ofiles _n)
  message(STATUS "stdout and ${_n} output file(s) byte-identical: ${_ofiles}")
endfunction()

# e2e_check_traces(CHECKER PREFIX NP COUNTS RESULT_VAR OUTPUT_VAR) runs
# dftracer-check --expect-counts COUNTS on the traces of PREFIX, after
# checking there is exactly one per rank.
function(e2e_check_traces checker prefix np counts rc_var out_var)
  e2e_traces(_traces ${prefix})
  list(LENGTH _traces _n)
  if(NOT _n EQUAL np)
    message(FATAL_ERROR "expected ${np} traces (one per rank) for ${prefix}, "
                        "found ${_n}: ${_traces}")
  endif()
  if(NOT EXISTS ${counts})
    message(FATAL_ERROR "${counts} is missing: run `ninja e2e-update-goldens` "
                        "and review it")
  endif()
  execute_process(COMMAND ${checker} --expect-counts ${counts} ${_traces}
    OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
  set(${rc_var} ${_rc} PARENT_SCOPE)
  set(${out_var} "${_out}" PARENT_SCOPE)
endfunction()

# e2e_check_processes(CHECKER PREFIX NP APP [RANK_OPTIONAL]) fails unless
# the NP traces of PREFIX each carry the app metadata that `annotate --meta
# app=APP` put in main, and come from ranks 0..NP-1, one each. With
# RANK_OPTIONAL, traces without rank metadata are accepted (with a note).
function(e2e_check_processes checker prefix np app)
  set(_rank_optional "${ARGV4}")
  e2e_traces(_traces ${prefix})
  execute_process(COMMAND ${checker} --json ${_traces}
    OUTPUT_VARIABLE _report ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  string(JSON _n ERROR_VARIABLE _jerr LENGTH "${_report}" processes)
  if(_jerr)
    message(FATAL_ERROR "dftracer-check --json gave no process list (${_rc}):\n${_err}${_report}")
  endif()
  set(_ranks)
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _file GET "${_report}" processes ${_i} file)
    string(JSON _app ERROR_VARIABLE _e2 GET "${_report}" processes ${_i} metadata app)
    if(_e2 OR NOT _app STREQUAL app)
      message(FATAL_ERROR "${_file}: expected metadata app=${app}, got '${_app}'")
    endif()
    string(JSON _rank ERROR_VARIABLE _e1 GET "${_report}" processes ${_i} metadata rank)
    if(_e1 AND _rank_optional)
      message(STATUS "note: ${_file} records no rank (${_rank_optional})")
      continue()
    elseif(_e1)
      message(FATAL_ERROR "${_file}: no rank metadata")
    endif()
    list(APPEND _ranks ${_rank})
  endforeach()
  if(_rank_optional AND NOT _ranks)
    return()
  endif()
  list(SORT _ranks COMPARE NATURAL)
  math(EXPR _top "${np} - 1")
  set(_want)
  foreach(_r RANGE ${_top})
    list(APPEND _want ${_r})
  endforeach()
  if(NOT _ranks STREQUAL _want)
    message(FATAL_ERROR "traces come from ranks [${_ranks}], expected [${_want}]")
  endif()
  message(STATUS "one trace per rank (${_ranks}), each with app=${app}")
endfunction()
