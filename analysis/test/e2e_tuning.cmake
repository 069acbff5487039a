# The tuning records (issue 22) in the e2e kernels' real traces (two ranks,
# test/e2e), as the trace holds them and as dftracer-analyze --json reports
# them per file and per dataset:
#   mpiio_shared    both opens pass an MPI_Info (romio_cb_write=enable,
#                   romio_cb_read=enable, cb_buffer_size=4194304,
#                   striping_unit=1048576): every MPIIO_HINTS record and the
#                   file's mpiio.hints hold them, from 4 opens (2 per rank);
#                   the file is on the build directory's file system (df).
#   vpic_writer     its e2e run (vpic_writer.cfg, ALIGNMENT = 0: no
#                   H5Pset_alignment) has HDF5's default alignment, 1 and 1;
#                   run again here with ALIGNMENT = 65536 and ALIGN_THRESHOLD
#                   = 4096 (and 1 timestep, not 5) in a directory on
#                   /dev/shm: its HDF5_FILE records (the file's
#                   hdf5.properties) say 65536 and 4096, and its fs_type is
#                   tmpfs. The runs' 40 and 8 datasets are contiguous, 2 x
#                   8192 elements.
#   h5_metadata_stress  (h5_metadata_stress.ini: 16 x 8 datasets, chunks of
#                   4 rows) compact, contiguous and chunked datasets, 16 of
#                   each, dims [16,8]; the chunked ones have chunk [4,8].
#   -DANALYZE= -DWORK=<dir> -DSHM=<dir on a tmpfs> -DE2E_DIR=<test/e2e>
#   -DE2E=<e2e work> -DSRC=<kernel sources> -DMPIEXEC=mpiexec|-n|2
include(${CMAKE_CURRENT_LIST_DIR}/run_common.cmake)
include(${E2E_DIR}/E2E.cmake)
e2e_split(MPIEXEC)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# fs_type_of(OUT DIR): DIR's file system type as df names it.
function(fs_type_of out dir)
  execute_process(COMMAND df --output=fstype ${dir} OUTPUT_VARIABLE _df
    RESULT_VARIABLE _rc ERROR_QUIET)
  string(REGEX REPLACE ".*\n([a-z0-9.]+)\n$" "\\1" _df "${_df}")
  if(NOT _rc EQUAL 0 OR _df STREQUAL "")
    analysis_fail("df --output=fstype ${dir} failed")
  endif()
  set(${out} ${_df} PARENT_SCOPE)
endfunction()

# analyze(OUT NAME TRACES...): dftracer-analyze --strict --json --all-files,
# kept as WORK/NAME.json.
function(analyze out name)
  analysis_run(_json _rc ${ANALYZE} --strict --json --all-files -j 1 ${ARGN})
  if(NOT _rc EQUAL 0)
    analysis_fail("dftracer-analyze --strict on ${ARGN} failed (${_rc}): ${_json}")
  endif()
  file(WRITE ${WORK}/${name}.json "${_json}")
  set(${out} "${_json}" PARENT_SCOPE)
endfunction()

# file_record(OUT REPORT SUFFIX): the files_all entry whose path ends in SUFFIX.
function(file_record out report suffix)
  string(JSON _all GET "${report}" files_all)
  string(JSON _n LENGTH "${_all}")
  math(EXPR _last "${_n} - 1")
  foreach(_i RANGE ${_last})
    string(JSON _f GET "${_all}" ${_i})
    string(JSON _path GET "${_f}" path)
    if(_path MATCHES "${suffix}$")
      set(${out} "${_f}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  analysis_fail("no file ending in ${suffix} in files_all")
endfunction()

# expect(JSON WANT WHAT KEY...): the value at KEY... is WANT.
function(expect json want what)
  string(JSON _got ERROR_VARIABLE _err GET "${json}" ${ARGN})
  if(_err)
    set(_got "absent")
  endif()
  if(NOT _got STREQUAL want)
    string(JOIN "." _keys ${ARGN})
    analysis_fail("${what}: ${_keys} is '${_got}', expected '${want}'")
  endif()
endfunction()

# records(OUT NAME TRACES...): the args of every NAME metadata record.
function(records out name)
  set(_all)
  foreach(_t ${ARGN})
    file(STRINGS ${_t} _lines REGEX "\"name\":\"${name}\"")
    foreach(_l IN LISTS _lines)
      string(JSON _args GET "${_l}" args)
      list(APPEND _all "${_args}")
    endforeach()
  endforeach()
  set(${out} "${_all}" PARENT_SCOPE)
endfunction()

# ---- mpiio_shared: the hints it set, and the build directory's fs_type.
set(_hints romio_cb_write=enable romio_cb_read=enable
    cb_buffer_size=4194304 striping_unit=1048576)
e2e_traces(_traces ${E2E}/mpiio_shared/traces/mpiio_shared)
records(_recs MPIIO_HINTS ${_traces})
list(LENGTH _recs _n)
if(NOT _n EQUAL 4)
  analysis_fail("mpiio_shared: ${_n} MPIIO_HINTS records in ${_traces}, expected 4 (2 opens per rank)")
endif()
foreach(_r IN LISTS _recs)
  foreach(_h ${_hints})
    string(REPLACE "=" ";" _kv ${_h})
    list(GET _kv 0 _k)
    list(GET _kv 1 _v)
    expect("${_r}" ${_v} "mpiio_shared's MPIIO_HINTS record" hints ${_k})
  endforeach()
  expect("${_r}" 2 "mpiio_shared's MPIIO_HINTS record" comm_size)
endforeach()
analyze(_report mpiio_shared ${_traces})
file_record(_f "${_report}" "/shared.dat")
expect("${_f}" 4 "mpiio_shared's shared.dat" mpiio opens_with_hints)
foreach(_h ${_hints})
  string(REPLACE "=" ";" _kv ${_h})
  list(GET _kv 0 _k)
  list(GET _kv 1 _v)
  expect("${_f}" ${_v} "mpiio_shared's shared.dat" mpiio hints ${_k})
endforeach()
fs_type_of(_work_fs ${E2E}/mpiio_shared/annotated/out)
expect("${_f}" ${_work_fs} "mpiio_shared's shared.dat" fs_type)
message(STATUS "mpiio_shared: hints ${_hints} in 4 MPIIO_HINTS records and "
               "in the report; fs_type ${_work_fs}")

# expect_datasets(REPORT FILE_SUFFIX LAYOUT COUNT DIMS [CHUNK]): COUNT
# datasets of the file have LAYOUT, each with dims DIMS and chunk CHUNK (as
# text, e.g. [4,8]; no chunk key without CHUNK: the report leaves out the
# record's empty chunk list of a dataset that is not chunked).
function(expect_datasets report suffix layout count dims)
  set(_chunk "${ARGV5}")
  string(JSON _all GET "${report}" datasets)
  string(JSON _n LENGTH "${_all}")
  math(EXPR _last "${_n} - 1")
  set(_seen 0)
  foreach(_i RANGE ${_last})
    string(JSON _d GET "${_all}" ${_i})
    string(JSON _file GET "${_d}" file)
    string(JSON _layout ERROR_VARIABLE _err GET "${_d}" properties layout)
    if(NOT _file MATCHES "${suffix}$" OR NOT _layout STREQUAL layout)
      continue()
    endif()
    expect("${_d}" "${dims}" "${_file} dataset ${_i}" properties dims)
    if(_chunk)
      expect("${_d}" "${_chunk}" "${_file} dataset ${_i}" properties chunk)
    else()
      string(JSON _c ERROR_VARIABLE _none GET "${_d}" properties chunk)
      if(NOT _none)
        analysis_fail("${_file} dataset ${_i} (${layout}) has chunk ${_c}")
      endif()
    endif()
    math(EXPR _seen "${_seen} + 1")
  endforeach()
  if(NOT _seen EQUAL count)
    analysis_fail("${suffix}: ${_seen} ${layout} datasets, expected ${count}")
  endif()
endfunction()

# ---- vpic_writer, as test/e2e ran it: no H5Pset_alignment.
e2e_traces(_traces ${E2E}/vpic_writer/traces/vpic_writer)
analyze(_report vpic_writer ${_traces})
file_record(_f "${_report}" "/particles.h5")
expect("${_f}" 2 "vpic_writer (ALIGNMENT = 0): HDF5_FILE records" hdf5 opens)
expect("${_f}" 1 "vpic_writer (ALIGNMENT = 0)" hdf5 properties alignment)
expect("${_f}" 1 "vpic_writer (ALIGNMENT = 0)" hdf5 properties alignment_threshold)
expect("${_f}" mpio "vpic_writer (ALIGNMENT = 0)" hdf5 properties vfd)
expect("${_f}" 4096 "vpic_writer (ALIGNMENT = 0)" hdf5 properties meta_block_size)
expect("${_f}" ${_work_fs} "vpic_writer (ALIGNMENT = 0)" fs_type)
expect_datasets("${_report}" "/particles.h5" contiguous 40 "[16384]")
expect_datasets("${_report}" "/particles.h5" chunked 0 "")

# ---- vpic_writer again, with H5Pset_alignment, on /dev/shm.
get_filename_component(_shm_parent ${SHM} DIRECTORY)
fs_type_of(_shm_fs ${_shm_parent})
if(NOT _shm_fs STREQUAL "tmpfs")
  analysis_fail("${_shm_parent} is ${_shm_fs}, not a tmpfs")
endif()
file(REMOVE_RECURSE ${SHM})
file(MAKE_DIRECTORY ${SHM}/aligned)
file(READ ${SRC}/vpic_writer.cfg _cfg)
# One timestep instead of 5 (8 datasets), to keep the run and its trace
# small.
string(REGEX REPLACE "\nALIGNMENT = 0\n" "\nALIGNMENT = 65536\nALIGN_THRESHOLD = 4096\n"
  _aligned "${_cfg}")
string(REGEX REPLACE "\nTIMESTEPS = [0-9]+\n" "\nTIMESTEPS = 1\n" _aligned "${_aligned}")
if(NOT _aligned MATCHES "ALIGN_THRESHOLD" OR NOT _aligned MATCHES "TIMESTEPS = 1\n")
  analysis_fail("${SRC}/vpic_writer.cfg has no 'ALIGNMENT = 0' or 'TIMESTEPS = ' line to change")
endif()
file(WRITE ${SHM}/vpic_writer_aligned.cfg "${_aligned}")
set(E2E_ARGS_vpic_writer "{OUT}" "${SHM}/vpic_writer_aligned.cfg")
configure_file(${E2E}/vpic_writer/annotated/vpic_writer
  ${SHM}/aligned/vpic_writer COPYONLY)
e2e_run_kernel(vpic_writer ${SHM} ${E2E} ${SRC} "${MPIEXEC}" aligned
  ${SHM}/traces/vpic_writer)
e2e_traces(_traces ${SHM}/traces/vpic_writer)
analyze(_report vpic_writer_aligned ${_traces})
file_record(_f "${_report}" "${SHM}/aligned/out/particles.h5")
expect("${_f}" 65536 "vpic_writer (ALIGNMENT = 65536)" hdf5 properties alignment)
expect("${_f}" 4096 "vpic_writer (ALIGNMENT = 65536)" hdf5 properties alignment_threshold)
expect("${_f}" 2 "vpic_writer (ALIGNMENT = 65536): HDF5_FILE records" hdf5 opens)
expect("${_f}" tmpfs "vpic_writer on ${SHM}" fs_type)
expect_datasets("${_report}" "/particles.h5" contiguous 8 "[16384]")
file(REMOVE_RECURSE ${SHM})
message(STATUS "vpic_writer: alignment 1/1 without H5Pset_alignment, "
               "65536/4096 with it; fs_type ${_work_fs} and tmpfs")

# ---- h5_metadata_stress: the three layouts.
e2e_traces(_traces ${E2E}/h5_metadata_stress/traces/h5_metadata_stress)
analyze(_report h5_metadata_stress ${_traces})
expect_datasets("${_report}" ".h5" chunked 16 "[16,8]" "[4,8]")
expect_datasets("${_report}" ".h5" contiguous 16 "[16,8]")
expect_datasets("${_report}" ".h5" compact 16 "[16,8]")
message(STATUS "h5_metadata_stress: 16 chunked datasets with chunk [4,8], "
               "16 contiguous, 16 compact")
