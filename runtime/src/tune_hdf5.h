/*===- tune_hdf5.h - DFTRACER_TUNE's HDF5 keys, applied in hdf5.c ---------===*
 *
 * At H5Fcreate/H5Fopen of a traced file the FAPL (and, at create, the
 * FCPL) is copied, the matching settings are set on the copy (`?=` only
 * where the application's value is the library's default, compared with a
 * new list of the same class) and the real call gets the copy: the
 * application's lists are never changed. After the call's event, what is
 * in effect is read back (H5Fget_access_plist, H5Fget_create_plist) and
 * each setting gets its `tuning` record. Should the call fail with the
 * settings, it is made again with the application's lists, and the
 * settings are `ignored`.
 *
 * The dataset keys (fill_time, alloc_time: a copy of the DCPL at
 * H5Dcreate) and the transfer keys (xfer, coll_opt: a copy of the DXPL at
 * each H5Dwrite/H5Dread) are remembered per file at its open, and judged
 * at the first dataset creation or transfer of the file. A call of a file
 * without such settings costs one load of dftracer_tune_lists_.
 *
 * HDF5 is reached as in hdf5_properties.c: dlsym at run time; a function
 * the library lacks makes its setting `ignored`, never a crash. All of it
 * runs busy.
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_TUNE_HDF5_H
#define DFTRACER_RUNTIME_TUNE_HDF5_H

#include "hdf5_api.h"
#include "tune.h"

enum { DftTuneOpenItems = 32 };

/* HDF5's automatic error printing, saved while a call with tuned lists is
 * made (a failure is followed by the call with the application's lists,
 * which prints its errors as usual). */
struct dftracer_tune_quiet {
  int Saved;
  void *Func, *Data; /* H5Eget_auto2's */
};
/* On 1: save and turn the printing off; On 0: back to what was saved. */
void dftracer_tune_hdf5_quiet(struct dftracer_tune_quiet *Q, int On);

/* The settings of one H5Fcreate/H5Fopen, from before the call to after. */
struct dftracer_tune_open {
  unsigned N;
  int Create, Failed;
  int Mpiio; /* mpiio.* hints went into the FAPL copy's MPI_Info */
  struct dftracer_tune_quiet Quiet;
  hid_t Fapl, Fcpl;  /* the copies given to HDF5 (-1: the application's) */
  uint64_t DataMask; /* dataset and transfer settings of the file */
  struct {
    unsigned char Index;  /* in dftracer_tune_settings_ */
    unsigned char Status; /* dftracer_tune_status, or DftTuneApplied: set */
    char Before[96];
    const char *Reason;
  } Items[DftTuneOpenItems];
};

/* Before the open of Path: copies and sets the lists, replacing *Fcpl
 * (create only, else NULL) and *Fapl. 0 when nothing applies. */
int dftracer_tune_hdf5_before(const char *Path, hid_t *Fcpl, hid_t *Fapl,
                              struct dftracer_tune_open *St);
/* The call failed with the settings: it is made again without them. */
void dftracer_tune_hdf5_failed(struct dftracer_tune_open *St);
/* After the call's event, with the file File (< 0: failed) of hash Fhash:
 * the records; closes the copies. */
void dftracer_tune_hdf5_after(uint64_t Fhash, hid_t File,
                              struct dftracer_tune_open *St);

/* At a file's open: its dataset and transfer settings (a bit per
 * setting), for its later calls. */
void dftracer_tune_data_register(uint64_t Fhash, uint64_t Mask);

/* A tuned transfer or dataset creation. */
struct dftracer_tune_data {
  hid_t Copy;       /* -1: nothing applied */
  int Slot;         /* the file's slot */
  uint64_t Mask;    /* settings applied */
  uint64_t Record;  /* settings whose record this call writes */
  uint64_t Already; /* settings the application's list had */
  uint64_t Fhash;
  int Failed; /* the call failed with the copy (made again without) */
  struct dftracer_tune_quiet Quiet;
  unsigned N;
  unsigned char Index[4]; /* the settings of Mask, in order */
  char Before[4][32];     /* the application's value of each */
};
/* The DXPL for an H5Dwrite/H5Dread of file Fhash: a tuned copy, or Dxpl. */
hid_t dftracer_tune_xfer_begin(uint64_t Fhash, hid_t Dxpl,
                               struct dftracer_tune_data *T);
/* After the transfer (Ret: its result) and its event. */
void dftracer_tune_xfer_end(struct dftracer_tune_data *T, herr_t Ret);
/* The DCPL for an H5Dcreate in file Fhash: a tuned copy, or Dcpl. */
hid_t dftracer_tune_dcpl_begin(uint64_t Fhash, hid_t Dcpl,
                               struct dftracer_tune_data *T);
/* After the creation of Dset (< 0: failed) and its event. */
void dftracer_tune_dcpl_end(struct dftracer_tune_data *T, hid_t Dset);

#endif
