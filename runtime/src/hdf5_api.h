/*===- hdf5_api.h - The part of HDF5's API the runtime calls --------------===*
 *
 * The runtime neither includes hdf5.h nor links libhdf5 (hdf5.c): the
 * types and the functions it asks HDF5 are declared here, as HDF5 1.10 to
 * 1.14 define them (hid_t is 64 bits since 1.10), and looked up with dlsym
 * when first used. The enums' values are HDF5's.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_HDF5_API_H
#define DFTRACER_RUNTIME_HDF5_API_H

#include "io_real.h"

#include <dlfcn.h>
#include <stdint.h>
#include <sys/types.h>

typedef int64_t hid_t; /* HDF5 >= 1.10 */
typedef int herr_t;
typedef int htri_t;
typedef long long hssize_t;
typedef unsigned long long hsize_t;
enum { H5S_ALL = 0, H5P_DEFAULT = 0, H5S_MAX_RANK = 32 };
/* H5D_layout_t, H5D_fill_time_t, H5FD_mpio_xfer_t,
 * H5D_mpio_actual_io_mode_t */
enum { H5D_COMPACT = 0, H5D_CONTIGUOUS = 1, H5D_CHUNKED = 2, H5D_VIRTUAL = 3 };
enum {
  H5D_FILL_TIME_ALLOC = 0,
  H5D_FILL_TIME_NEVER = 1,
  H5D_FILL_TIME_IFSET = 2
};
enum { H5FD_MPIO_INDEPENDENT = 0, H5FD_MPIO_COLLECTIVE = 1 };
enum {
  H5D_MPIO_NO_COLLECTIVE = 0,
  H5D_MPIO_CHUNK_INDEPENDENT = 1,
  H5D_MPIO_CHUNK_COLLECTIVE = 2,
  H5D_MPIO_CHUNK_MIXED = 3,
  H5D_MPIO_CONTIGUOUS_COLLECTIVE = 4
};

/* Helpers, called as they are. hbool_t arguments are passed as pointers to
 * a zeroed int: HDF5 writes one byte (bool) of it. */
htri_t H5Iis_valid(hid_t);
ssize_t H5Iget_name(hid_t, char *, size_t);
ssize_t H5Fget_name(hid_t, char *, size_t);
hid_t H5Fget_access_plist(hid_t);
hid_t H5Dget_space(hid_t);
hid_t H5Aget_space(hid_t);
hid_t H5Dget_type(hid_t);
hid_t H5Dget_create_plist(hid_t);
hssize_t H5Sget_select_npoints(hid_t);
int H5Sget_simple_extent_dims(hid_t, hsize_t *, hsize_t *);
herr_t H5Sclose(hid_t);
size_t H5Tget_size(hid_t);
herr_t H5Tclose(hid_t);
herr_t H5Pclose(hid_t);
hid_t H5Pget_driver(hid_t);
herr_t H5Pget_alignment(hid_t, hsize_t *, hsize_t *);
herr_t H5Pget_meta_block_size(hid_t, hsize_t *);
herr_t H5Pget_all_coll_metadata_ops(hid_t, void *);
herr_t H5Pget_coll_metadata_write(hid_t, void *);
herr_t H5Pget_page_buffer_size(hid_t, size_t *, unsigned *, unsigned *);
herr_t H5Pget_sieve_buf_size(hid_t, size_t *);
int H5Pget_layout(hid_t);
int H5Pget_chunk(hid_t, int, hsize_t *);
herr_t H5Pget_fill_time(hid_t, int *);
herr_t H5Pget_dxpl_mpio(hid_t, int *);
herr_t H5Pget_mpio_actual_io_mode(hid_t, int *);
/* The drivers' identifiers (what H5FD_SEC2, H5FD_MPIO... expand to). */
hid_t H5FD_sec2_init(void);
hid_t H5FD_mpio_init(void);
hid_t H5FD_core_init(void);
hid_t H5FD_stdio_init(void);
hid_t H5FD_family_init(void);
hid_t H5FD_log_init(void);
hid_t H5FD_multi_init(void);
hid_t H5FD_direct_init(void);

/* HELPER(N): HDF5's N, looked up once (slot Slot_N, DECLARE_SLOT(N)). */
#define DECLARE_SLOT(N) static void *Slot_##N
#define HELPER(N)                                                              \
  ((__typeof__(&N))dftracer_real_lookup_once(&Slot_##N, RTLD_DEFAULT, #N))

#endif
