/*===- mpiio_hints.h - What an MPI-IO file was opened and viewed with -----===*
 *
 * After each successful MPI_File_open, an `MPIIO_HINTS` record
 * (docs/trace-format.md): the communicator's size, the access mode and
 * every hint MPI_File_get_info reports (ROMIO's cb_nodes, romio_cb_write,
 * romio_ds_write, cb_buffer_size, striping_factor, ...), values as the
 * strings MPI gives. For MPI_File_set_view, the etype's size, the
 * filetype's size and extent and whether the view is contiguous.
 *
 * The MPI functions are PMPI's, looked up at run time like the rest of the
 * layer (mpiio.c), and asked only after the call succeeded (MPI raises
 * errors about invalid handles on MPI_COMM_WORLD, which aborts by default).
 * Compiled once per MPI ABI, like mpiio.c (mpi_flavour.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_MPIIO_HINTS_H
#define DFTRACER_RUNTIME_MPIIO_HINTS_H

#include "mpi_flavour.h"

#include <stdint.h>

/* Emit the MPIIO_HINTS record of Fh (file hash Hash) on this thread. */
void dftracer_mpiio_hints(uint64_t Hash, MPI_File Fh, int CommSize, int Amode);

struct dftracer_mpiio_view {
  int64_t EtypeSize, FiletypeSize, FiletypeExtent;
  int Contiguous;
};
/* The view's facts; 0 when MPI cannot tell. */
int dftracer_mpiio_view_facts(MPI_Datatype Etype, MPI_Datatype Filetype,
                              struct dftracer_mpiio_view *View);

#endif
