# What both end-to-end suites (test/e2e, test/e2e_cxx) need from the system:
# MPI, MPICH's parallel HDF5 and the bundled runtime. Sets
#
#   E2E_DEPS_FOUND        TRUE when MPI, mpiexec and HDF5 were all found
#   E2E_NP                ranks of every run (2)
#   E2E_HDF5_INCLUDE_DIR  hdf5.h's directory (cache)
#   E2E_RUNTIME_INCLUDE   runtime/include
#   E2E_INCLUDE_FLAGS     -I for MPI, HDF5 and the runtime: what the
#                         annotator parses the kernels with
#   E2E_LIBS              the shared runtime and HDF5, each with an rpath
#   E2E_MPIEXEC           mpiexec -n E2E_NP [preflags], '|'-joined
#
# and e2e_join(OUT items...): lists travel to the cmake -P phase scripts
# with '|' in place of ';'.
function(e2e_join out)
  string(REPLACE ";" "|" _joined "${ARGN}")
  set(${out} "${_joined}" PARENT_SCOPE)
endfunction()

find_package(MPI COMPONENTS C)
find_path(E2E_HDF5_INCLUDE_DIR hdf5.h
  PATHS /usr/include/hdf5/mpich /usr/include/hdf5/openmpi NO_DEFAULT_PATH)
find_library(E2E_HDF5_LIBRARY NAMES hdf5
  PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/hdf5/mpich
        /usr/lib/x86_64-linux-gnu/hdf5/mpich NO_DEFAULT_PATH)
set(E2E_DEPS_FOUND FALSE)
if(MPI_C_FOUND AND MPIEXEC_EXECUTABLE AND E2E_HDF5_INCLUDE_DIR
   AND E2E_HDF5_LIBRARY)
  set(E2E_DEPS_FOUND TRUE)
endif()

set(E2E_NP 2)
set(E2E_RUNTIME_INCLUDE ${PROJECT_SOURCE_DIR}/runtime/include)
set(E2E_INCLUDE_FLAGS)
foreach(_dir ${MPI_C_INCLUDE_DIRS} ${E2E_HDF5_INCLUDE_DIR} ${E2E_RUNTIME_INCLUDE})
  list(APPEND E2E_INCLUDE_FLAGS -I${_dir})
endforeach()
# The shared runtime is found through an rpath, as an installed one would be
# through the loader's path. It is a C library: C++ programs need no more.
get_filename_component(_hdf5_libdir "${E2E_HDF5_LIBRARY}" DIRECTORY)
set(E2E_LIBS $<TARGET_LINKER_FILE:dftracer_core> -Wl,-rpath,$<TARGET_FILE_DIR:dftracer_core>
  -L${_hdf5_libdir} -Wl,-rpath,${_hdf5_libdir} -lhdf5)
e2e_join(E2E_MPIEXEC ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${E2E_NP}
  ${MPIEXEC_PREFLAGS})
