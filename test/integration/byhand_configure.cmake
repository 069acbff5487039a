# integration.byhand.configure: docs/integration.md's by-hand autotools
# recipe,
#   ./configure CPPFLAGS="-I<annotate>/include" LDFLAGS="-L<annotate>/lib
#     -Wl,-rpath,<annotate>/lib -Wl,--push-state,--no-as-needed
#     -ldftracer_core -Wl,--pop-state"
# through a configure script of autotools' conventions (byhand_project/
# configure, no autotools needed; it puts -lhdf5 in front of LIBS, as
# AC_CHECK_LIB does), gives spans and HDF5, MPI-IO and POSIX events. The
# runtime in LIBS instead lands after -lhdf5: the program links, and the
# runtime says the HDF5 layer is not traced.
include(${CMAKE_CURRENT_LIST_DIR}/byhand_common.cmake)
byhand_annotate()
set(_common "CC=${MPICC}" "CPPFLAGS=-I${RUNTIME_INCLUDE}"
  "HDF5_CPPFLAGS=-I${HDF5_INCLUDE_DIR}" "HDF5_LIBS=${BYHAND_HDF5_LIBS}")

# LIBS: after -lhdf5, the HDF5 layer bypassed, and said.
int_run(_c COMMAND sh ./configure ${_common} "LIBS=${BYHAND_RUNTIME_LIBS}"
  WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_c "./configure CPPFLAGS=... LIBS=...")
int_run(_m COMMAND "${MAKE}" WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_m "make after ./configure LIBS=...")
file(REMOVE_RECURSE "${WORK}/libs-traces")
file(MAKE_DIRECTORY "${WORK}/libs-traces" "${WORK}/out")
set(ENV{DFTRACER_ENABLE} 1)
set(ENV{DFTRACER_LOG_FILE} "${WORK}/libs-traces/trace")
int_run(_r COMMAND "${WORK}/src/app" "${WORK}/out" WORKING_DIRECTORY "${WORK}/src")
unset(ENV{DFTRACER_ENABLE})
unset(ENV{DFTRACER_LOG_FILE})
int_expect_success(_r "app built with LIBS=...")
int_expect_match("${_r_OUT}" "the HDF5 layer is not traced" "the runtime's warning")

# LDFLAGS with --no-as-needed: first, every layer traced.
int_run(_m COMMAND "${MAKE}" clean WORKING_DIRECTORY "${WORK}/src")
int_run(_c COMMAND sh ./configure ${_common}
  "LDFLAGS=-L${RUNTIME_LIBDIR} -Wl,-rpath,${RUNTIME_LIBDIR} -Wl,--push-state,--no-as-needed -ldftracer_core -Wl,--pop-state"
  WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_c "./configure CPPFLAGS=... LDFLAGS=...")
int_run(_m COMMAND "${MAKE}" WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_m "make after ./configure LDFLAGS=...")
byhand_run()
