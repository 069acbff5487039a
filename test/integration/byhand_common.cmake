# Helpers of integration.byhand.*: byhand_project/ annotated once in place
# (annotate -i), then built by its own Makefile with the runtime linked by
# hand as docs/integration.md says, run under mpiexec with 2 ranks, and its
# traces checked for spans and for HDF5, MPI-IO and POSIX events.
include(${CMAKE_CURRENT_LIST_DIR}/h5bench_common.cmake)
int_require(WORK SOURCE_DIR ANNOTATE MAKE MPICC MPIEXEC CHECKER
  RUNTIME_INCLUDE RUNTIME_LIBDIR HDF5_INCLUDE_DIR HDF5_LIBRARY)

get_filename_component(HDF5_LIBDIR "${HDF5_LIBRARY}" DIRECTORY)
# What the recipe's <annotate>/include and <annotate>/lib are here.
set(BYHAND_RUNTIME_LIBS
  "-L${RUNTIME_LIBDIR} -ldftracer_core -Wl,-rpath,${RUNTIME_LIBDIR}")
set(BYHAND_HDF5_LIBS "-L${HDF5_LIBDIR} -lhdf5 -Wl,-rpath,${HDF5_LIBDIR}")

# byhand_annotate(): a fresh copy of the project in WORK/src, its sources
# annotated in place with the flags its build uses (mpicc's -I).
function(byhand_annotate)
  file(REMOVE_RECURSE "${WORK}")
  int_copy_project(byhand_project "${WORK}/src")
  int_run(_s COMMAND "${MPICC}" -show)
  string(REGEX MATCHALL "-I[^ \n]+" _mpi_includes "${_s_OUT}")
  int_run(_a COMMAND "${ANNOTATE}" -i h5io.c util.c --
    "-I${HDF5_INCLUDE_DIR}" ${_mpi_includes} WORKING_DIRECTORY "${WORK}/src")
  int_expect_success(_a "annotate -i h5io.c util.c")
  file(READ "${WORK}/src/h5io.c" _text)
  int_expect_match("${_text}" "DFTRACER_C_INIT" "annotated h5io.c")
endfunction()

# byhand_run(): the program built, run traced with 2 ranks, its traces
# checked: valid, spans of the annotated functions, every layer's events,
# no layer bypassed.
function(byhand_run)
  if(NOT EXISTS "${WORK}/src/app")
    int_fail("the recipe built no program (${WORK}/src/app)")
  endif()
  file(MAKE_DIRECTORY "${WORK}/out")
  int_mpirun(_r "${WORK}/traces" "${WORK}/src/app" "${WORK}/out")
  int_expect_match("${_r_OUT}" "rank 1: sum [0-9]+" "program output")
  int_run(_c COMMAND "${CHECKER}" "${WORK}/traces")
  int_expect_success(_c "dftracer-check ${WORK}/traces")
  file(GLOB _traces "${WORK}/traces/*.pfw")
  list(LENGTH _traces _n)
  if(NOT _n EQUAL 2)
    int_fail("expected one trace per rank (2), found ${_n}: ${_traces}")
  endif()
  foreach(_t IN LISTS _traces)
    h5_grep(_bypassed "${_t}" "layer_bypassed")
    if(_bypassed)
      int_fail("${_t}: ${_bypassed}")
    endif()
    foreach(_event "write_read\",\"cat\":\"C_APP" "fill\",\"cat\":\"C_APP"
                   "H5Dwrite\",\"cat\":\"HDF5" "H5Dread\",\"cat\":\"HDF5"
                   "MPI_File_[a-z_]+\",\"cat\":\"MPIIO"
                   "[a-z0-9_]+\",\"cat\":\"POSIX")
      h5_grep(_hit "${_t}" "\"name\":\"${_event}\"")
      if(NOT _hit)
        int_fail("${_t}: no event ${_event}")
      endif()
    endforeach()
  endforeach()
  message(STATUS "two ranks: spans, HDF5 + MPI-IO + POSIX events")
endfunction()
