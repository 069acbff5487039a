/*===- tune_mpiio.h - MPI-IO hints applied and judged at MPI_File_open ----===*
 *
 * DFTRACER_TUNE's `mpiio.HINT=VALUE` settings go into a duplicate of the
 * application's MPI_Info (MPI_INFO_NULL: a new one) given to the real
 * MPI_File_open; `mpiio.HINT?=VALUE` only where the application's info
 * lacks the hint. HDF5's mpio driver opens its files with MPI_File_open,
 * so an HDF5 file gets them through the same wrapper. The hints of the
 * MPI library's environment (ROMIO_HINTS, MPICH_MPIIO_HINTS, MPIIO_HINTS)
 * are left to the library and only judged. After the call's event, each
 * setting's `tuning` record compares the request with what
 * MPI_File_get_info reports. All of it runs busy; the application's info
 * is never changed.
 *
 * Compiled once per MPI ABI, like mpiio.c (mpi_flavour.h). The HDF5
 * layer's entry points (dftracer_tune_mpiio_fapl*) take no MPI type: in
 * the runtime they are mpi_dispatch.c's, which call the copy for the
 * process's MPI; the MPI_File_open side is declared only inside a copy.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_TUNE_MPIIO_H
#define DFTRACER_RUNTIME_TUNE_MPIIO_H

#include "tune.h"

#include <stdint.h>

/* Through HDF5: before an H5Fcreate/H5Fopen whose FAPL copy Copy (hid_t)
 * uses the mpio driver, put DFTRACER_TUNE's hints for Path into the copy's
 * MPI_Info (H5Pget_fapl_mpio, H5Pset_fapl_mpio). The wrapped MPI_File_open
 * HDF5 then makes on this thread records them with the application's
 * values as `before`. 0 when none applies. */
int dftracer_tune_mpiio_fapl(const char *Path, int64_t Copy);
/* After that call and its event (File: the HDF5 file, < 0: failed): the
 * hints' records, read back through the file's MPI_File
 * (H5Fget_vfd_handle), unless the MPI_File_open wrapper wrote them. */
void dftracer_tune_mpiio_fapl_done(uint64_t Fhash, int64_t File);
/* The call failed with the settings and is made again without them. */
void dftracer_tune_mpiio_fapl_cancel(void);

#ifdef DFT_MPI_FLAVOUR /* a copy of the layer */
#include "mpi_flavour.h"

enum { DftTuneMpiioItems = 32 };

struct dftracer_tune_mpiio {
  MPI_Info Dup; /* given to MPI (MPI_INFO_NULL: the application's) */
  unsigned N;
  struct {
    unsigned char Index, Status;
    char Before[96];
    const char *Reason;
  } Items[DftTuneMpiioItems];
};

/* Before MPI_File_open of Name with the application's Info: the info to
 * give MPI into *Use. 0 when no setting concerns the file. */
int dftracer_tune_mpiio_before(const char *Name, MPI_Info Info, MPI_Info *Use,
                               struct dftracer_tune_mpiio *St);
/* After the open's event: Fh, or MPI_FILE_NULL when it failed. Frees the
 * duplicate. */
void dftracer_tune_mpiio_after(uint64_t Fhash, MPI_File Fh,
                               struct dftracer_tune_mpiio *St);

#endif

#endif
