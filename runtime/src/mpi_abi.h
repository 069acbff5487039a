/*===- mpi_abi.h - The MPI-IO layer on MPICH's ABI and on Open MPI's ------===*
 *
 * MPI fixes the API, not the ABI: MPICH and its derivatives (Intel MPI,
 * MVAPICH, Cray MPICH) make MPI_Comm, MPI_Info and MPI_Datatype integers,
 * Open MPI makes every handle a pointer. A wrapper compiled against one
 * mpi.h misreads the other's handles (a crash, even untraced). Yet on
 * every System V ABI each such argument occupies one register or stack
 * slot of the same size in both, so:
 *
 *  - mpi_dispatch.c defines the exported MPI_File_* functions without
 *    mpi.h, each handle a pointer-wide word (mpi_functions.def). It finds
 *    the real PMPI_File_* function for its caller (real_symbol.h) and
 *    dispatches on the ABI of the library that defines it;
 *  - mpiio.c, mpiio_hints.c and tune_mpiio.c are compiled once per ABI
 *    whose mpi.h the build found (runtime/CMakeLists.txt), each copy with
 *    its own names (mpi_flavour.h: dftracer_mpich_*, dftracer_ompi_*); a
 *    copy narrows each word to its handle type (an int for MPICH's);
 *  - a process whose MPI has no copy (an ABI the build did not find, or
 *    neither) gets its calls passed straight through, the words
 *    unchanged, and is told so once, on stderr and in a `layer_bypassed`
 *    record, with how to build for it (mpi_abi.c, layer_check.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_MPI_ABI_H
#define DFTRACER_RUNTIME_MPI_ABI_H

#include "internal.h"

#include <stdint.h>

/* An MPI handle as its argument slot holds it: MPICH's int in the low
 * half, or Open MPI's pointer. */
typedef uintptr_t dft_mpi_word;

enum dftracer_mpi_abi {
  DftMpiUnknown = 0, /* no MPI library seen yet */
  DftMpiMpich = 1,   /* integer handles */
  DftMpiOmpi = 2,    /* pointer handles */
  DftMpiOther = 3    /* neither that the runtime knows: passed through */
};

/* The ABI of the process's MPI, from the library that defines Real (a real
 * PMPI_File_* function). Classified at the first call, then one load.
 * When no copy of the layer serves it, says so once (tracing on). */
enum dftracer_mpi_abi dftracer_mpi_abi_of(void *Real) DFT_HIDDEN;

/* The same for a caller that holds no MPI function (the HDF5 layer's
 * tuning): from the first loaded library that defines PMPI_File_open;
 * DftMpiUnknown when none does. */
enum dftracer_mpi_abi dftracer_mpi_abi_loaded(void) DFT_HIDDEN;

/* Does this build hold a copy of the layer for Abi? */
int dftracer_mpi_abi_built(enum dftracer_mpi_abi Abi) DFT_HIDDEN;

/* "MPICH", "Open MPI", ... */
const char *dftracer_mpi_abi_name(enum dftracer_mpi_abi Abi) DFT_HIDDEN;

/* (a, b) -> a, b: a parameter list of mpi_functions.def spliced. */
#define DFT_MPI_UNPAREN(...) __VA_ARGS__

#endif
