/*===- mpi_flavour.h - One ABI's copy of the MPI-IO layer -----------------===*
 *
 * The first include of mpiio.c, mpiio_hints.c and tune_mpiio.c, which are
 * compiled once per MPI ABI the build found (mpi_abi.h), each time with
 * DFT_MPI_FLAVOUR set to the copy's name (`mpich`, `ompi`) and that MPI's
 * include directory first (runtime/CMakeLists.txt). It gives the copy's
 * functions names of their own, so the copies link side by side, and turns
 * the words of the exported wrappers (mpi_functions.def) into this MPI's
 * handles.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_MPI_FLAVOUR_H
#define DFTRACER_RUNTIME_MPI_FLAVOUR_H

#ifndef DFT_MPI_FLAVOUR
#error                                                                         \
    "compiled once per MPI ABI, with DFT_MPI_FLAVOUR (runtime/CMakeLists.txt)"
#endif

#include "mpi_abi.h"

#include <mpi.h>
#include <string.h>

#ifdef OPEN_MPI
/* Open MPI's predefined handles are the addresses of objects in libmpi
 * (MPI_COMM_NULL is &ompi_mpi_comm_null). Referred to weakly, so that the
 * runtime loads, and programs link, without Open MPI: this copy runs only
 * in a process whose libmpi defines them. Every one the layer uses must be
 * here (`nm -u` of the ompi copies lists no strong ompi_ symbol). */
#pragma weak ompi_mpi_comm_null
#pragma weak ompi_mpi_file_null
#pragma weak ompi_mpi_info_null
#endif

#define DFT_MPI_CAT_(A, B, C) A##B##C
#define DFT_MPI_CAT(A, B, C) DFT_MPI_CAT_(A, B, C)
/* dftracer_<flavour>_N */
#define DFT_MPI_NAME(N) DFT_MPI_CAT(dftracer_, DFT_MPI_FLAVOUR, _##N)

/* This copy's names of the layer's functions (mpiio_hints.h,
 * tune_mpiio.h); mpi_dispatch.c calls them by these names. */
#define dftracer_mpiio_hints DFT_MPI_NAME(mpiio_hints)
#define dftracer_mpiio_view_facts DFT_MPI_NAME(mpiio_view_facts)
#define dftracer_tune_mpiio_before DFT_MPI_NAME(tune_mpiio_before)
#define dftracer_tune_mpiio_after DFT_MPI_NAME(tune_mpiio_after)
#define dftracer_tune_mpiio_fapl DFT_MPI_NAME(tune_mpiio_fapl)
#define dftracer_tune_mpiio_fapl_done DFT_MPI_NAME(tune_mpiio_fapl_done)
#define dftracer_tune_mpiio_fapl_cancel DFT_MPI_NAME(tune_mpiio_fapl_cancel)

/* The words carry what the wrappers' callers passed in these types. */
_Static_assert(sizeof(MPI_Offset) == sizeof(long long),
               "MPI_Offset is passed as a long long");
_Static_assert(sizeof(MPI_Comm) == sizeof(int) ||
                   sizeof(MPI_Comm) == sizeof(dft_mpi_word),
               "an MPI handle is an int or a pointer");

/* The handle of Size bytes in word W: its low int for an integer handle
 * (the slot's upper half is undefined), the whole word for a pointer. */
static inline void dftracer_mpi_handle_(void *Handle, size_t Size,
                                        dft_mpi_word W) {
  if (Size == sizeof(int)) {
    int I = (int)W;
    memcpy(Handle, &I, sizeof I);
  } else {
    memcpy(Handle, &W, Size < sizeof W ? Size : sizeof W);
  }
}
#define DFT_MPI_HANDLE_OF(T, Fn)                                               \
  static inline T Fn(dft_mpi_word W) {                                         \
    T H;                                                                       \
    dftracer_mpi_handle_(&H, sizeof H, W);                                     \
    return H;                                                                  \
  }
DFT_MPI_HANDLE_OF(MPI_Comm, dftracer_mpi_comm_)
DFT_MPI_HANDLE_OF(MPI_Info, dftracer_mpi_info_)
DFT_MPI_HANDLE_OF(MPI_File, dftracer_mpi_file_)
DFT_MPI_HANDLE_OF(MPI_Datatype, dftracer_mpi_type_)
#undef DFT_MPI_HANDLE_OF

#endif
