# integration.byhand.make: docs/integration.md's by-hand Make recipe,
#   make CFLAGS="-O2 -I<annotate>/include" LIBS="-L<annotate>/lib
#        -ldftracer_core -Wl,-rpath,<annotate>/lib"
# on sources annotated once, gives spans and HDF5, MPI-IO and POSIX events.
include(${CMAKE_CURRENT_LIST_DIR}/byhand_common.cmake)
byhand_annotate()
int_run(_m COMMAND "${MAKE}" "CC=${MPICC}" "CFLAGS=-O2 -I${RUNTIME_INCLUDE}"
  "LIBS=${BYHAND_RUNTIME_LIBS}" "HDF5_CPPFLAGS=-I${HDF5_INCLUDE_DIR}"
  "HDF5_LIBS=${BYHAND_HDF5_LIBS}" WORKING_DIRECTORY "${WORK}/src")
int_expect_success(_m "make CFLAGS=... LIBS=...")
byhand_run()
