# One DFTRACER_TUNE test (CMakeLists.txt beside this file says what each
# MODE checks).
#   -DMODE= -DSRC= -DMPICC= -DCFLAGS=a|b -DLIBS=a|b -DMPIEXEC= -DPREFLAGS=
#   -DANALYZE= -DVPIC_CFG= -DWORK=
cmake_minimum_required(VERSION 3.20)
string(REPLACE "|" ";" CFLAGS "${CFLAGS}")
string(REPLACE "|" ";" LIBS "${LIBS}")
function(fail)
  string(JOIN "" _message ${ARGN})
  message(FATAL_ERROR "tuning.${MODE}: ${_message}")
endfunction()

# build(VARIANT [defines...]): WORK/VARIANT/prog from SRC.
function(build variant)
  set(_w ${WORK}/${variant})
  file(REMOVE_RECURSE ${_w})
  file(MAKE_DIRECTORY ${_w}/out ${_w}/traces)
  execute_process(COMMAND ${MPICC} ${CFLAGS} ${ARGN} ${SRC} -o ${_w}/prog
                          ${LIBS}
    RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  if(NOT _rc EQUAL 0)
    fail("${variant}: build failed: ${_err}")
  endif()
endfunction()

# run(VARIANT EXPORTS): run WORK/VARIANT/prog traced under mpiexec -n 2
# after the shell lines EXPORTS (one string: the values keep their ';');
# its stderr goes to VARIANT_STDERR.
function(run variant exports)
  set(_w ${WORK}/${variant})
  file(WRITE ${_w}/env.sh "${exports}\nexec \"$@\"\n")
  set(_args ${_w}/out)
  if(MODE STREQUAL "xfer")
    list(APPEND _args ${VPIC_CFG})
  endif()
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env DFTRACER_ENABLE=1
            DFTRACER_LOG_FILE=${_w}/traces/prog --unset=DFTRACER_DATA_DIR
            --unset=DFTRACER_TUNE --unset=ROMIO_HINTS
            --unset=MPICH_MPIIO_HINTS --unset=MPIIO_HINTS
            sh ${_w}/env.sh ${MPIEXEC} -n 2 ${PREFLAGS} ${_w}/prog ${_args}
    WORKING_DIRECTORY ${_w}/out
    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_VARIABLE _err)
  file(WRITE ${_w}/stderr.txt "${_err}")
  if(NOT _rc EQUAL 0)
    fail("${variant}: run failed (${_rc}): ${_err}")
  endif()
  set(${variant}_STDERR "${_err}" PARENT_SCOPE)
endfunction()

# lines(OUT VARIANT): the trace lines of VARIANT, each ';' in them read as
# ',' (CMake's list separator).
function(lines out variant)
  file(GLOB _files ${WORK}/${variant}/traces/*.pfw)
  if(NOT _files)
    fail("${variant}: no trace in ${WORK}/${variant}/traces")
  endif()
  set(_all)
  foreach(_f ${_files})
    file(READ ${_f} _text)
    string(REPLACE ";" "," _text "${_text}")
    get_filename_component(_name ${_f} NAME)
    file(WRITE ${WORK}/lines/${variant}/${_name} "${_text}")
    file(STRINGS ${WORK}/lines/${variant}/${_name} _l REGEX "^{")
    list(APPEND _all ${_l})
  endforeach()
  set(${out} "${_all}" PARENT_SCOPE)
endfunction()

# tuning(OUT VARIANT): one "NAME|key|status|before|effect|reason|setting|
# source" per tuning record (NAME: the base name of the file, "-" process-wide).
function(tuning out variant)
  lines(_lines ${variant})
  set(_paths)
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "\"name\":\"FH\".*\"name\":\"([^\"]*)\",\"value\":([0-9]+)")
      get_filename_component(_base "${CMAKE_MATCH_1}" NAME)
      set(_path_${CMAKE_MATCH_2} "${_base}")
    endif()
  endforeach()
  set(_records)
  foreach(_l IN LISTS _lines)
    if(NOT _l MATCHES "\"name\":\"tuning\"")
      continue()
    endif()
    string(JSON _h ERROR_VARIABLE _e GET "${_l}" args fhash)
    set(_name "-")
    if(NOT _e AND DEFINED _path_${_h})
      set(_name "${_path_${_h}}")
    endif()
    set(_r "${_name}")
    foreach(_k key status before effect reason setting source)
      string(JSON _v GET "${_l}" args ${_k})
      string(APPEND _r "|${_v}")
    endforeach()
    list(APPEND _records "${_r}")
  endforeach()
  set(${out} "${_records}" PARENT_SCOPE)
endfunction()

# expect(RECORDS REGEX WHAT): some record matches REGEX.
function(expect records regex what)
  foreach(_r IN LISTS records)
    if(_r MATCHES "${regex}")
      return()
    endif()
  endforeach()
  string(REPLACE ";" "\n  " _all "${records}")
  fail("${what}: no tuning record matches '${regex}'; records:\n  ${_all}")
endfunction()
function(expect_none records regex what)
  foreach(_r IN LISTS records)
    if(_r MATCHES "${regex}")
      fail("${what}: a tuning record matches '${regex}': ${_r}")
    endif()
  endforeach()
endfunction()

if(MODE STREQUAL "alignment")
  # No rebuild: the problem program, the alignment from the environment;
  # its twin sets the same alignment in its source (-DFIXED).
  build(tuned)
  build(twin -DFIXED)
  execute_process(COMMAND stat -f -c %s ${WORK}/tuned/out
    OUTPUT_VARIABLE _b OUTPUT_STRIP_TRAILING_WHITESPACE)
  run(tuned "export DFTRACER_TUNE=hdf5.alignment=${_b},${_b}")
  run(twin "")
  tuning(_rec tuned)
  expect("${_rec}" "^fields\\.h5\\.[01]\\|hdf5\\.alignment\\|applied\\|1,1\\|${_b},${_b}\\|"
         "hdf5.alignment=${_b},${_b}")
  lines(_lines tuned)
  set(_aligned 0)
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "\"name\":\"HDF5_FILE\".*\"alignment\":${_b}[,}]")
      math(EXPR _aligned "${_aligned} + 1")
    endif()
  endforeach()
  if(NOT _aligned EQUAL 2)
    fail("${_aligned} HDF5_FILE records show alignment ${_b}, not 2")
  endif()
  execute_process(COMMAND ${ANALYZE} --diagnose --json ${WORK}/tuned/traces
    OUTPUT_VARIABLE _json RESULT_VARIABLE _rc ERROR_VARIABLE _err)
  file(WRITE ${WORK}/tuned.json "${_json}")
  if(NOT _rc EQUAL 0)
    fail("dftracer-analyze --diagnose failed (${_rc}): ${_err}")
  endif()
  if(_json MATCHES "\"kind\": *\"hdf5_unaligned\"")
    fail("the tuned run still has an hdf5_unaligned finding; see "
         "${WORK}/tuned.json")
  endif()
  # The same POSIX writes as the twin: file, size and offset of each, on
  # the program's files (not MPI's shared-memory segments, whose names and
  # writes differ from run to run: MPICH's mpich_shar_tmp*, UCX's
  # ucx_shm_posix_*, traced since the runtime classifies descriptors it did
  # not open).
  foreach(_v tuned twin)
    lines(_lines ${_v})
    set(_paths)
    foreach(_l IN LISTS _lines)
      if(_l MATCHES "\"name\":\"FH\".*\"name\":\"([^\"]*)\",\"value\":([0-9]+)")
        get_filename_component(_base "${CMAKE_MATCH_1}" NAME)
        set(_path_${CMAKE_MATCH_2} "${_base}")
      endif()
    endforeach()
    set(_writes_${_v})
    foreach(_l IN LISTS _lines)
      if(_l MATCHES "\"name\":\"(pwrite|pwrite64|write)\",\"cat\":\"POSIX\".*\"fhash\":([0-9]+).*\"count\":([0-9]+),\"offset\":([0-9]+)")
        set(_w "${_path_${CMAKE_MATCH_2}}:${CMAKE_MATCH_3}@${CMAKE_MATCH_4}")
        if(NOT _w MATCHES "^(mpich_shar_tmp|ucx_shm_posix_)")
          list(APPEND _writes_${_v} "${_w}")
        endif()
      endif()
    endforeach()
    list(SORT _writes_${_v})
    string(REPLACE ";" "\n" _t "${_writes_${_v}}")
    file(WRITE ${WORK}/${_v}_writes.txt "${_t}\n")
  endforeach()
  list(LENGTH _writes_tuned _n)
  if(_n LESS 48)
    fail("only ${_n} POSIX writes with offsets in the tuned run")
  endif()
  if(NOT _writes_tuned STREQUAL _writes_twin)
    fail("the tuned run's POSIX writes differ from the twin's: see "
         "${WORK}/tuned_writes.txt and ${WORK}/twin_writes.txt")
  endif()
  message(STATUS "alignment ${_b} applied without a rebuild: ${_n} writes "
                 "as the twin's, no hdf5_unaligned finding")

elseif(MODE STREQUAL "xfer")
  build(tuned)
  run(tuned "export DFTRACER_TUNE=hdf5.xfer=collective")
  tuning(_rec tuned)
  expect("${_rec}" "^particles\\.h5\\|hdf5\\.xfer\\|applied\\|"
         "hdf5.xfer=collective")
  lines(_lines tuned)
  set(_all 0)
  foreach(_l IN LISTS _lines)
    if(_l MATCHES "\"name\":\"(MPI_File_(i?write|i?read)[a-z_]*)\"")
      set(_n "${CMAKE_MATCH_1}")
      if(NOT _n MATCHES "_all$")
        fail("an independent MPI-IO transfer (${_n}) under "
             "hdf5.xfer=collective: ${_l}")
      endif()
      math(EXPR _all "${_all} + 1")
    endif()
    if(_l MATCHES "\"name\":\"H5D(write|read)\"" AND
       NOT _l MATCHES "\"xfer\":\"collective\"")
      fail("an H5Dwrite not made collective: ${_l}")
    endif()
  endforeach()
  if(_all EQUAL 0)
    fail("no collective MPI-IO transfer in the trace")
  endif()
  message(STATUS "hdf5.xfer=collective: ${_all} MPI-IO transfers, all "
                 "collective")

elseif(MODE STREQUAL "hints")
  build(tuned)
  file(WRITE ${WORK}/romio_hints.txt "cb_buffer_size 8388608\nromio_no_such_hint 1\n")
  run(tuned "export DFTRACER_TUNE=mpiio.dftracer_no_such_hint=1
export MPICH_MPIIO_HINTS='*:romio_cb_write=enable;romio_ds_write=disable'
export ROMIO_HINTS=${WORK}/romio_hints.txt")
  tuning(_rec tuned)
  expect("${_rec}" "\\|mpiio\\.dftracer_no_such_hint\\|ignored\\|[^|]*\\|\\|MPI_File_get_info does not list it"
         "an MPI-IO hint ROMIO drops")
  expect("${_rec}" "\\|mpiio\\.romio_cb_write\\|invalid\\|[^|]*\\|[^|]*\\|the value has ','"
         "a MPICH_MPIIO_HINTS value with ';'")
  # ROMIO_HINTS, read by ROMIO itself: one taken, one dropped.
  expect("${_rec}" "\\|mpiio\\.cb_buffer_size\\|applied\\|\\|8388608\\|.*\\|ROMIO_HINTS$"
         "cb_buffer_size from ROMIO_HINTS")
  expect("${_rec}" "\\|mpiio\\.romio_no_such_hint\\|ignored\\|.*\\|ROMIO_HINTS$"
         "an unknown key in ROMIO_HINTS")
  foreach(_what "DFTRACER_TUNE 'mpiio.dftracer_no_such_hint=1' ignored"
                "MPICH_MPIIO_HINTS 'romio_cb_write=enable;romio_ds_write=disable' invalid")
    string(FIND "${tuned_STDERR}" "${_what}" _at)
    if(_at LESS 0)
      fail("stderr does not say \"${_what}\": ${tuned_STDERR}")
    endif()
  endforeach()
  message(STATUS "a dropped hint is ignored, a ';' in MPICH_MPIIO_HINTS "
                 "invalid, on stderr and in the trace")

elseif(MODE STREQUAL "files" OR MODE STREQUAL "fapl_hints")
  build(tuned)
  # The settings as a file (@PATH), one a line, with a comment.
  file(WRITE ${WORK}/tune.txt "# tried on tune_files
hdf5.alignment?=4096,4096
*/b.h5*:hdf5.meta_block_size=8192   # b.h5 only
*/a.h5*:hdf5.file_space_strategy=page
*/a.h5*:hdf5.file_space_page_size?=16K  # a.h5 sets its own
hdf5.meta_block_size=lots
*/shared.h5:mpiio.romio_cb_write=disable
*/own.h5*:hdf5.page_buffer_size=64K   # parallel HDF5 refuses it
hdf5.fill_time=never
")
  set(_exports "export DFTRACER_TUNE=@${WORK}/tune.txt")
  if(MODE STREQUAL "fapl_hints")
    # No MPI-IO layer: the hint reaches MPI only through the FAPL's MPI_Info.
    string(APPEND _exports "\nexport DFTRACER_DISABLE_MPIIO=1")
  endif()
  run(tuned "${_exports}")
  tuning(_rec tuned)
  # ?= : the defaults are changed, the application's own value is kept.
  expect("${_rec}" "^a\\.h5\\.0\\|hdf5\\.alignment\\|applied\\|1,1\\|4096,4096\\|"
         "hdf5.alignment?= on a sec2 file")
  expect("${_rec}" "^shared\\.h5\\|hdf5\\.alignment\\|applied\\|1,1\\|4096,4096\\|"
         "hdf5.alignment?= on a file created through H5Pset_fapl_mpio")
  expect("${_rec}" "^own\\.h5\\.1\\|hdf5\\.alignment\\|kept\\|512,512\\|512,512\\|"
         "hdf5.alignment?= on a file with the application's alignment")
  expect_none("${_rec}" "^own\\.h5\\.[01]\\|hdf5\\.alignment\\|applied"
              "hdf5.alignment?= on own.h5")
  # A glob: b.h5 only.
  expect("${_rec}" "^b\\.h5\\.0\\|hdf5\\.meta_block_size\\|applied\\|2048\\|8192\\|"
         "*/b.h5*:hdf5.meta_block_size=8192")
  expect_none("${_rec}" "^(a|own|shared)\\.h5[.0-9]*\\|hdf5\\.meta_block_size"
              "*/b.h5*:hdf5.meta_block_size=8192 on another file")
  # Creation keys: applied at H5Fcreate; at H5Fopen `already` when the
  # file was made with the value, else ignored with the reason.
  expect("${_rec}" "^a\\.h5\\.1\\|hdf5\\.file_space_strategy\\|applied\\|fsm_aggr\\|page\\|"
         "hdf5.file_space_strategy=page at H5Fcreate")
  expect("${_rec}" "^a\\.h5\\.1\\|hdf5\\.file_space_strategy\\|already\\|[^|]*\\|page\\|a file creation property: the file was created with it"
         "hdf5.file_space_strategy=page at H5Fopen")
  expect("${_rec}" "^a\\.h5\\.0\\|hdf5\\.file_space_page_size\\|kept\\|8192\\|8192\\|"
         "hdf5.file_space_page_size?=16K at H5Fcreate of a file that sets its own")
  expect("${_rec}" "^a\\.h5\\.0\\|hdf5\\.file_space_page_size\\|ignored\\|[^|]*\\|8192\\|a file creation property: an existing file keeps"
         "hdf5.file_space_page_size?=16K at H5Fopen")
  # A malformed setting: process-wide, invalid, on stderr; the run went on.
  expect("${_rec}" "^-\\|hdf5\\.meta_block_size\\|invalid\\|\\|\\|expected a byte count"
         "hdf5.meta_block_size=lots")
  string(FIND "${tuned_STDERR}" "DFTRACER_TUNE 'hdf5.meta_block_size=lots' invalid: expected a byte count" _at)
  if(_at LESS 0)
    fail("stderr does not report the malformed setting: ${tuned_STDERR}")
  endif()
  # A setting HDF5 refuses at the open: the call is made again with the
  # application's lists (the run went on), quietly.
  expect("${_rec}" "^own\\.h5\\.0\\|hdf5\\.page_buffer_size\\|ignored\\|0\\|[^|]*\\|H5Fcreate failed with the settings"
         "a page buffer parallel HDF5 refuses")
  if(tuned_STDERR MATCHES "HDF5-DIAG")
    fail("HDF5 printed the tuned attempt's errors: ${tuned_STDERR}")
  endif()
  # A dataset key: applied at the file's first H5Dcreate; where HDF5
  # refuses it (a variable-length type), the creation is made again
  # without it.
  expect("${_rec}" "^a\\.h5\\.0\\|hdf5\\.fill_time\\|applied\\|ifset\\|never\\|"
         "hdf5.fill_time=never")
  expect("${_rec}" "^b\\.h5\\.1\\|hdf5\\.fill_time\\|ignored\\|ifset\\|\\|H5Dcreate failed with the setting"
         "hdf5.fill_time=never on a variable-length dataset")
  # mpiio.* on an HDF5 file opened through H5Pset_fapl_mpio(MPI_INFO_NULL).
  expect("${_rec}" "^shared\\.h5\\|mpiio\\.romio_cb_write\\|applied\\|\\|disable\\|"
         "mpiio.romio_cb_write=disable through the FAPL")
  message(STATUS "?= kept the application's alignment, the glob scoped, "
                 "H5Fopen ignored the creation key, sec2 and mpio tuned")
else()
  fail("unknown MODE '${MODE}'")
endif()
