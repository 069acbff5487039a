# e2e phase 2: build the original and the annotated kernel with mpicc.
#   -DMPICC= -DSOURCES=orig.c|annotated.c -DEXES=orig|annotated -DCFLAGS= -DLIBS=
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/E2E.cmake)
e2e_require(MPICC SOURCES EXES)
e2e_split(SOURCES)
e2e_split(EXES)
e2e_split(CFLAGS)
e2e_split(LIBS)
foreach(_src _exe IN ZIP_LISTS SOURCES EXES)
  e2e_compile(${MPICC} ${_src} ${_exe} "${CFLAGS}" "${LIBS}")
  message(STATUS "built ${_exe}")
endforeach()
