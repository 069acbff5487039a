# e2e.openmpi.fapl_tuning: DFTRACER_TUNE's MPI-IO hint through HDF5's mpio
# driver under Open MPI (tune_mpiio.c's FAPL path: H5Pget_fapl_mpio and
# H5Pset_fapl_mpio with Open MPI's MPI_Comm and MPI_Info, the hint read back
# through H5Fget_vfd_handle's MPI_File), with the MPI-IO layer off so that
# only that path can write the records: the annotated h5_metadata_stress
# (built by e2e.openmpi.h5_metadata_stress.build) must still verify, and
# each rank's trace must say the hint was applied.
#   -DMPIEXEC=a|b -DWORK= -DSRC=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../E2E.cmake)
e2e_require(MPIEXEC WORK SRC)
e2e_split(MPIEXEC)
set(_v ${WORK}/fapl_tuning)
file(REMOVE_RECURSE ${_v})
file(MAKE_DIRECTORY ${_v}/annotated)
file(COPY ${WORK}/annotated/h5_metadata_stress DESTINATION ${_v}/annotated)
set(_mpiexec ${MPIEXEC} -x DFTRACER_DISABLE_MPIIO=1
  -x DFTRACER_TUNE=mpiio.cb_buffer_size=2097152)
e2e_run_kernel(h5_metadata_stress ${_v} ${WORK}/.. ${SRC} "${_mpiexec}"
  annotated ${_v}/traces/trace)
e2e_traces(_traces ${_v}/traces/trace)
list(LENGTH _traces _n)
if(NOT _n EQUAL 2)
  message(FATAL_ERROR "expected a trace per rank, found ${_n}")
endif()
foreach(_t ${_traces})
  file(READ ${_t} _text)
  if(_text MATCHES "\"cat\":\"MPIIO\"" OR NOT _text MATCHES
     "\"name\":\"tuning\"[^\n]*\"key\":\"mpiio.cb_buffer_size\"[^\n]*\"effect\":\"2097152\",\"status\":\"applied\"")
    message(FATAL_ERROR "${_t}: MPI-IO events, or no applied tuning record "
      "of mpiio.cb_buffer_size")
  endif()
endforeach()
message(STATUS "the hint went through HDF5's mpio FAPL under Open MPI")
