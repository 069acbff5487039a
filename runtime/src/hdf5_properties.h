/*===- hdf5_properties.h - What HDF5 files and datasets were made with ----===*
 *
 * The facts tuning work names (docs/trace-format.md): per H5Fcreate/H5Fopen
 * that succeeds, an `HDF5_FILE` record with the file access properties in
 * effect (H5Fget_access_plist: the VFD, alignment threshold and size,
 * metadata block size, collective metadata reads and writes, page buffer
 * size, sieve buffer size); per H5Dcreate/H5Dopen that succeeds, an
 * `HDF5_DSET` record (layout, chunk and dataspace dimensions, datatype
 * size, fill time, the dataset's path and its `dhash`); per H5Dread and
 * H5Dwrite, `dhash`, `xfer` (the transfer property list's MPI-IO mode),
 * `selection` (elements) and, after the call on an mpio file, `io_mode`
 * (H5Pget_mpio_actual_io_mode).
 *
 * Everything is asked of HDF5 (looked up with dlsym, hdf5_api.h) while the
 * thread is busy, so what HDF5 does for it is not traced; a property HDF5
 * does not have (an older version) is left out.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_HDF5_PROPERTIES_H
#define DFTRACER_RUNTIME_HDF5_PROPERTIES_H

#include "hdf5_api.h"

/* Emit HDF5_FILE for File (hash Fhash) on this thread; busy. */
void dftracer_hdf5_file_record(uint64_t Fhash, hid_t File);
/* Emit HDF5_DSET for Dset of the file Fhash; busy. */
void dftracer_hdf5_dset_record(uint64_t Fhash, hid_t Dset);

/* The transfer facts of an H5Dread/H5Dwrite. */
struct dftracer_hdf5_xfer {
  uint64_t Dhash;        /* 0: unknown */
  const char *Xfer;      /* "collective" | "independent" */
  const char *IoMode;    /* after the call; NULL: not asked or unknown */
  int64_t Selection;     /* elements, -1: unknown */
  int Mpio;              /* the file's VFD is mpio */
};
/* Before the call: everything but IoMode. Points: the selection's
 * elements as hdf5.c counted them (-1: unknown). */
void dftracer_hdf5_xfer_before(uint64_t Fhash, hid_t Dset, hid_t Dxpl,
                               int64_t Points, struct dftracer_hdf5_xfer *X);
/* After the call: IoMode on an mpio file. */
void dftracer_hdf5_xfer_after(hid_t Dxpl, struct dftracer_hdf5_xfer *X);

#endif
