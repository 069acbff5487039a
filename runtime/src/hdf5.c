/*===- hdf5.c - The HDF5 layer: files, groups, datasets, attributes -------===*
 *
 * The library defines the H5F/H5G/H5D/H5A/H5O functions of io_symbols.def;
 * each forwards to libhdf5's own, found at its first call from each call
 * site where the caller would have found it (real_symbol.h). The runtime
 * neither includes hdf5.h nor links libhdf5 (a
 * dependency Darshan got wrong: `undefined symbol H5Eset_auto2`), so the
 * prototypes are declared here, for HDF5 1.10 and later, where hid_t is 64
 * bits (1.8's 32-bit hid_t is not supported).
 *
 * An object's file is asked of HDF5 (H5Fget_name) when the call is made,
 * so no table of identifiers is kept; the helpers used for that and for the
 * byte count are plain lookups, not intercepted.
 *
 * Events are `cat` "HDF5"; H5Dread/H5Dwrite/H5Aread/H5Awrite carry `bytes`
 * (selected elements x memory type size).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "hdf5_api.h"
#include "hdf5_properties.h"
#include "io_core.h"
#include "io_filter.h"
#include "io_real.h"
#include "real_symbol.h"
#include "tune_hdf5.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <sys/types.h>

#define HDF5 DftLayerHdf5

/* What is wrapped (io_symbols.def). */
hid_t H5Fcreate(const char *, unsigned, hid_t, hid_t);
hid_t H5Fopen(const char *, unsigned, hid_t);
herr_t H5Fflush(hid_t, int);
herr_t H5Fclose(hid_t);
hid_t H5Dcreate1(hid_t, const char *, hid_t, hid_t, hid_t);
hid_t H5Dcreate2(hid_t, const char *, hid_t, hid_t, hid_t, hid_t, hid_t);
hid_t H5Dopen1(hid_t, const char *);
hid_t H5Dopen2(hid_t, const char *, hid_t);
herr_t H5Dread(hid_t, hid_t, hid_t, hid_t, hid_t, void *);
herr_t H5Dwrite(hid_t, hid_t, hid_t, hid_t, hid_t, const void *);
herr_t H5Dclose(hid_t);
hid_t H5Gcreate1(hid_t, const char *, size_t);
hid_t H5Gcreate2(hid_t, const char *, hid_t, hid_t, hid_t);
hid_t H5Gopen1(hid_t, const char *);
hid_t H5Gopen2(hid_t, const char *, hid_t);
herr_t H5Gclose(hid_t);
hid_t H5Acreate1(hid_t, const char *, hid_t, hid_t, hid_t);
hid_t H5Acreate2(hid_t, const char *, hid_t, hid_t, hid_t, hid_t);
hid_t H5Aopen(hid_t, const char *, hid_t);
herr_t H5Aread(hid_t, hid_t, void *);
herr_t H5Awrite(hid_t, hid_t, const void *);
herr_t H5Aclose(hid_t);
hid_t H5Oopen(hid_t, const char *, hid_t);
herr_t H5Oclose(hid_t);
/* The info structs are the caller's, never looked at: void *. H5Oget_info
 * is 1.10's unnumbered symbol (1.12 makes it a macro for one of the
 * numbered ones); 1 and 2 fill H5O_info1_t, 3 (1.12) H5O_info2_t. */
herr_t H5Oget_info(hid_t, void *);
herr_t H5Oget_info1(hid_t, void *);
herr_t H5Oget_info2(hid_t, void *, unsigned);
herr_t H5Oget_info3(hid_t, void *, unsigned);
/* The real N: the libhdf5 the wrapper's caller would have called, also
 * one loaded with RTLD_LOCAL (h5py's; real_symbol.h), NULL if none (said
 * once). Used only in a wrapper's own body. Helpers (HELPER) are in
 * hdf5_api.h. */
#define REAL(N)                                                                \
  ((__typeof__(&N))DFT_REAL_FOR_CALLER(&Slot_##N, #N, "HDF5"))
/* A wrapped call, or -1 (HDF5's failure) without libhdf5. The real
 * function is looked up once per call (a GNU statement expression, which
 * gcc and clang accept in every -std mode under __extension__). */
#define CALL(N, ...)                                                           \
  __extension__({                                                              \
    __typeof__(&N) Real_ = REAL(N);                                            \
    Real_ ? Real_(__VA_ARGS__) : -1;                                           \
  })

DECLARE_SLOT(H5Iis_valid);
DECLARE_SLOT(H5Fget_name);
DECLARE_SLOT(H5Dget_space);
DECLARE_SLOT(H5Aget_space);
DECLARE_SLOT(H5Sget_select_npoints);
DECLARE_SLOT(H5Sclose);
DECLARE_SLOT(H5Tget_size);

/* The hash of the file that holds object Id (0: untraced or unknown). */
static uint64_t objectHash(hid_t Id) {
  char Name[DftPathMax];
  ssize_t Len;
  if (!HELPER(H5Iis_valid) || !HELPER(H5Fget_name) ||
      HELPER(H5Iis_valid)(Id) <= 0)
    return 0;
  Len = HELPER(H5Fget_name)(Id, Name, sizeof(Name));
  if (Len <= 0 || (size_t)Len >= sizeof(Name))
    return 0;
  return dftracer_io_path_hash(AT_FDCWD, Name);
}

/* Selected elements x memory type size, or -1 when HDF5 cannot tell; the
 * elements go to *Elements (-1 too). */
static int64_t bytesOf(hid_t Object, hid_t MemType, hid_t MemSpace,
                       hid_t FileSpace, int IsAttribute, int64_t *Elements) {
  hid_t Space = MemSpace != H5S_ALL ? MemSpace : FileSpace;
  hid_t Own = -1;
  hssize_t Points;
  size_t Size;
  if (!HELPER(H5Sget_select_npoints) || !HELPER(H5Tget_size) ||
      !HELPER(H5Sclose) || !HELPER(H5Dget_space) || !HELPER(H5Aget_space))
    return -1;
  if (Space == H5S_ALL)
    Space = Own = IsAttribute ? HELPER(H5Aget_space)(Object)
                              : HELPER(H5Dget_space)(Object);
  if (Space < 0)
    return -1;
  Points = HELPER(H5Sget_select_npoints)(Space);
  *Elements = Points < 0 ? -1 : (int64_t)Points;
  Size = HELPER(H5Tget_size)(MemType);
  if (Own >= 0)
    HELPER(H5Sclose)(Own);
  return Points < 0 || Size == 0 ? -1 : (int64_t)Points * (int64_t)Size;
}

/* objectHash of a dataset or attribute about to be read or written; when
 * its file is traced, *Bytes gets the transfer's size. Asked before the
 * call, and of traced objects only: HDF5 is not asked about a call that
 * makes no event (nor made to report an invalid identifier twice). */
static uint64_t dataHash(hid_t Object, hid_t MemType, hid_t MemSpace,
                         hid_t FileSpace, int IsAttribute, int64_t *Bytes,
                         int64_t *Elements) {
  uint64_t Hash = objectHash(Object);
  *Elements = -1;
  if (Hash)
    *Bytes =
        bytesOf(Object, MemType, MemSpace, FileSpace, IsAttribute, Elements);
  return Hash;
}

/* The body of a wrapper whose file is HASH (result `Ret`); AFTER runs
 * once the event is written, before the return. */
#define H5_CALL_THEN(RetType, NAME, HASH, CALLEXPR, AFTER, ...)                \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash;                                                               \
  RetType Ret;                                                                 \
  if (DFT_LIKELY(!dftracer_io_on(HDF5)) || !(Hash = (HASH)) ||                 \
      !dftracer_io_begin(&C, HDF5, #NAME, Hash))                               \
    return CALLEXPR;                                                           \
  Ret = CALLEXPR;                                                              \
  DFT_IO_END(&C, __VA_ARGS__);                                                 \
  AFTER;                                                                       \
  return Ret

#define H5_CALL(RetType, NAME, HASH, CALLEXPR, ...)                            \
  H5_CALL_THEN(RetType, NAME, HASH, CALLEXPR, (void)0, __VA_ARGS__)

#define PATH_HASH(P) dftracer_io_path_hash(AT_FDCWD, P)

const char dftracer_hdf5_layer_[] DFT_HIDDEN = "hdf5";

#pragma GCC visibility push(default)

/* H5_CALL that, when Ret is a new identifier, emits RECORD's record of it
 * (hdf5_properties.h) after the event, busy. */
#define H5_CALL_RECORD(RetType, NAME, HASH, CALLEXPR, RECORD, ...)             \
  H5_CALL_THEN(RetType, NAME, HASH, CALLEXPR, H5_RECORD_NEW(RECORD),           \
               __VA_ARGS__)
#define H5_RECORD_NEW(RECORD)                                                  \
  if (Ret >= 0) {                                                              \
    int Busy = dftracer_busy_enter();                                          \
    RECORD(Hash, Ret);                                                         \
    dftracer_busy_leave(Busy);                                                 \
  }

/* A call with tuned lists (COPIED: it has copies), quietly (tune_hdf5.h);
 * should it fail, UNDO puts the application's lists back and the call is
 * made again, FAILED saying so. */
#define H5_TUNED_CALL(CALLEXPR, COPIED, QUIET, UNDO, FAILED)                   \
  do {                                                                         \
    int Copied_ = (COPIED);                                                    \
    if (Copied_)                                                               \
      dftracer_tune_hdf5_quiet(QUIET, 1);                                      \
    Ret = CALLEXPR;                                                            \
    if (Copied_) {                                                             \
      dftracer_tune_hdf5_quiet(QUIET, 0);                                      \
      if (Ret < 0) {                                                           \
        FAILED;                                                                \
        UNDO;                                                                  \
        Ret = CALLEXPR;                                                        \
      }                                                                        \
    }                                                                          \
  } while (0)

/* H5Fcreate and H5Fopen: DFTRACER_TUNE's file settings go into copies of
 * the lists (tune_hdf5.h). The HDF5_FILE record, then the tuning records,
 * follow the event. */
#define H5_FILE_OPEN(NAME, CALLEXPR, FCPL, UNDO_FCPL)                          \
  struct dftracer_io_call C;                                                   \
  struct dftracer_tune_open T;                                                 \
  uint64_t Hash;                                                               \
  hid_t Ret, Fapl = fapl_id;                                                   \
  int Tuned = 0, Traced, Busy;                                                 \
  if (DFT_LIKELY(!dftracer_io_on(HDF5)) || !(Hash = PATH_HASH(filename)))      \
    return CALLEXPR;                                                           \
  if (DFT_UNLIKELY(dftracer_tune_lists_)) {                                    \
    Busy = dftracer_busy_enter();                                              \
    Tuned = dftracer_tune_hdf5_before(filename, FCPL, &Fapl, &T);              \
    dftracer_busy_leave(Busy);                                                 \
  }                                                                            \
  Traced = dftracer_io_begin(&C, HDF5, #NAME, Hash);                           \
  H5_TUNED_CALL(CALLEXPR, Tuned && (T.Fapl >= 0 || T.Fcpl >= 0), &T.Quiet,     \
                (Fapl = fapl_id, UNDO_FCPL), dftracer_tune_hdf5_failed(&T));   \
  if (Traced)                                                                  \
    DFT_IO_END(&C, DFT_ARG(flags, flags), DFT_ARG(ret, Ret));                  \
  Busy = dftracer_busy_enter();                                                \
  if (Traced && Ret >= 0)                                                      \
    dftracer_hdf5_file_record(Hash, Ret);                                      \
  if (Tuned) /* no event: only the copies are closed */                        \
    dftracer_tune_hdf5_after(Traced ? Hash : 0, Traced ? Ret : -1, &T);        \
  dftracer_busy_leave(Busy);                                                   \
  return Ret

DECLARE_SLOT(H5Fcreate);
hid_t H5Fcreate(const char *filename, unsigned flags, hid_t fcpl_id,
                hid_t fapl_id) {
  hid_t Fcpl = fcpl_id;
  H5_FILE_OPEN(H5Fcreate, CALL(H5Fcreate, filename, flags, Fcpl, Fapl), &Fcpl,
               Fcpl = fcpl_id);
}

DECLARE_SLOT(H5Fopen);
hid_t H5Fopen(const char *filename, unsigned flags, hid_t fapl_id) {
  H5_FILE_OPEN(H5Fopen, CALL(H5Fopen, filename, flags, Fapl), NULL, (void)0);
}

DECLARE_SLOT(H5Fflush);
herr_t H5Fflush(hid_t object_id, int scope) {
  H5_CALL(herr_t, H5Fflush, objectHash(object_id),
          CALL(H5Fflush, object_id, scope), DFT_ARG(ret, Ret));
}

/* Creating or opening an object at loc_id: the file of loc_id. */
#define H5_OPEN(N, LOC, ...)                                                   \
  H5_CALL(hid_t, N, objectHash(LOC), CALL(N, LOC, __VA_ARGS__),                \
          DFT_ARG(ret, Ret))
/* Creating or opening a dataset: its HDF5_DSET record follows. */
#define H5_DSET_OPEN(N, LOC, ...)                                              \
  H5_CALL_RECORD(hid_t, N, objectHash(LOC), CALL(N, LOC, __VA_ARGS__),         \
                 dftracer_hdf5_dset_record, DFT_ARG(ret, Ret))
/* Closing (or flushing) object ID. */
#define H5_CLOSE(N, ID)                                                        \
  H5_CALL(herr_t, N, objectHash(ID), CALL(N, ID), DFT_ARG(ret, Ret))

DECLARE_SLOT(H5Fclose);
herr_t H5Fclose(hid_t file_id) { H5_CLOSE(H5Fclose, file_id); }

/* H5Dcreate: DFTRACER_TUNE's dataset settings (fill_time, alloc_time) go
 * into a copy of the DCPL, for files that have them (tune_hdf5.h); should
 * the creation fail with it, it is made again with the application's. */
#define H5_DSET_CREATE(NAME, CALLEXPR)                                         \
  struct dftracer_io_call C;                                                   \
  struct dftracer_tune_data T;                                                 \
  uint64_t Hash;                                                               \
  hid_t Ret, Dcpl = dcpl_id;                                                   \
  int Busy, Tuned = 0, Traced;                                                 \
  if (DFT_LIKELY(!dftracer_io_on(HDF5)) || !(Hash = objectHash(loc_id)))       \
    return CALLEXPR;                                                           \
  if (DFT_UNLIKELY(dftracer_tune_lists_ & (1u << DftTuneDcpl))) {              \
    Busy = dftracer_busy_enter();                                              \
    Dcpl = dftracer_tune_dcpl_begin(Hash, dcpl_id, &T);                        \
    Tuned = 1;                                                                 \
    dftracer_busy_leave(Busy);                                                 \
  }                                                                            \
  Traced = dftracer_io_begin(&C, HDF5, #NAME, Hash);                           \
  H5_TUNED_CALL(CALLEXPR, Tuned &&T.Copy >= 0, &T.Quiet, Dcpl = dcpl_id,       \
                T.Failed = 1);                                                 \
  if (Traced) {                                                                \
    DFT_IO_END(&C, DFT_ARG(ret, Ret));                                         \
    H5_RECORD_NEW(dftracer_hdf5_dset_record);                                  \
  }                                                                            \
  if (Tuned) {                                                                 \
    Busy = dftracer_busy_enter();                                              \
    dftracer_tune_dcpl_end(&T, Ret);                                           \
    dftracer_busy_leave(Busy);                                                 \
  }                                                                            \
  return Ret

DECLARE_SLOT(H5Dcreate2);
hid_t H5Dcreate2(hid_t loc_id, const char *name, hid_t type_id,
                 hid_t space_id, hid_t lcpl_id, hid_t dcpl_id,
                 hid_t dapl_id) {
  H5_DSET_CREATE(H5Dcreate2, CALL(H5Dcreate2, loc_id, name, type_id, space_id,
                                  lcpl_id, Dcpl, dapl_id));
}

/* The 1.6 forms, which H5_USE_16_API (IOR) or an old program calls. */
DECLARE_SLOT(H5Dcreate1);
hid_t H5Dcreate1(hid_t loc_id, const char *name, hid_t type_id,
                 hid_t space_id, hid_t dcpl_id) {
  H5_DSET_CREATE(H5Dcreate1,
                 CALL(H5Dcreate1, loc_id, name, type_id, space_id, Dcpl));
}

DECLARE_SLOT(H5Dopen1);
hid_t H5Dopen1(hid_t loc_id, const char *name) {
  H5_DSET_OPEN(H5Dopen1, loc_id, name);
}

DECLARE_SLOT(H5Dopen2);
hid_t H5Dopen2(hid_t loc_id, const char *name, hid_t dapl_id) {
  H5_DSET_OPEN(H5Dopen2, loc_id, name, dapl_id);
}

/* The end of an H5Dread or H5Dwrite: io_mode when HDF5 told it,
 * mem_align when the buffer is not aligned (MemAlign not 0). */
static void endTransfer(struct dftracer_io_call *C, int64_t Bytes,
                        const struct dftracer_hdf5_xfer *X, herr_t Ret,
                        int64_t MemAlign) {
  struct dftracer_io_arg Args[7] = {
      DFT_ARG(bytes, Bytes), DFT_ARG(dhash, X->Dhash),
      DFT_ARG_STR(xfer, X->Xfer), DFT_ARG(selection, X->Selection)};
  int N = 4;
  if (X->IoMode) {
    struct dftracer_io_arg A = DFT_ARG_STR(io_mode, X->IoMode);
    Args[N++] = A;
  }
  {
    struct dftracer_io_arg A = DFT_ARG(ret, Ret);
    Args[N++] = A;
  }
  if (MemAlign) {
    struct dftracer_io_arg A = DFT_ARG(mem_align, MemAlign);
    Args[N++] = A;
  }
  dftracer_io_end_strings(C, Args, N);
}

/* H5Dread and H5Dwrite: `bytes` and the transfer's facts
 * (hdf5_properties.h), asked busy, before the call and, for io_mode, after
 * it. */
#define H5_TRANSFER(NAME, BUF, CALLEXPR)                                       \
  struct dftracer_io_call C;                                                   \
  struct dftracer_hdf5_xfer X;                                                 \
  struct dftracer_tune_data T;                                                 \
  uint64_t Hash;                                                               \
  int64_t Bytes = 0, Elements;                                                 \
  herr_t Ret;                                                                  \
  hid_t Dxpl = dxpl_id;                                                        \
  int Busy, Tuned = 0;                                                         \
  if (DFT_LIKELY(!dftracer_io_on(HDF5)) ||                                     \
      !(Hash = dataHash(dset_id, mem_type_id, mem_space_id, file_space_id, 0,  \
                        &Bytes, &Elements)))                                   \
    return CALLEXPR;                                                           \
  Busy = dftracer_busy_enter();                                                \
  /* DFTRACER_TUNE's transfer settings: a copy of the DXPL (tune_hdf5.h). */   \
  if (DFT_UNLIKELY(dftracer_tune_lists_ & (1u << DftTuneDxpl))) {              \
    Dxpl = dftracer_tune_xfer_begin(Hash, dxpl_id, &T);                        \
    Tuned = 1;                                                                 \
  }                                                                            \
  dftracer_hdf5_xfer_before(Hash, dset_id, Dxpl, Elements, &X);                \
  dftracer_busy_leave(Busy);                                                   \
  if (!dftracer_io_begin(&C, HDF5, #NAME, Hash)) {                             \
    Ret = CALLEXPR;                                                            \
    if (Tuned)                                                                 \
      TUNE_XFER_END(Ret);                                                      \
    return Ret;                                                                \
  }                                                                            \
  Ret = CALLEXPR;                                                              \
  Busy = dftracer_busy_enter();                                                \
  if (Ret >= 0)                                                                \
    dftracer_hdf5_xfer_after(Dxpl, &X);                                        \
  dftracer_busy_leave(Busy);                                                   \
  endTransfer(&C, Bytes, &X, Ret, dftracer_mem_align((uintptr_t)(BUF)));       \
  if (Tuned)                                                                   \
    TUNE_XFER_END(Ret);                                                        \
  return Ret
#define TUNE_XFER_END(RET)                                                     \
  do {                                                                         \
    int Busy_ = dftracer_busy_enter();                                         \
    dftracer_tune_xfer_end(&T, RET);                                           \
    dftracer_busy_leave(Busy_);                                                \
  } while (0)

DECLARE_SLOT(H5Dread);
herr_t H5Dread(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
               hid_t file_space_id, hid_t dxpl_id, void *buf) {
  H5_TRANSFER(H5Dread, buf,
              CALL(H5Dread, dset_id, mem_type_id, mem_space_id, file_space_id,
                   Dxpl, buf));
}

DECLARE_SLOT(H5Dwrite);
herr_t H5Dwrite(hid_t dset_id, hid_t mem_type_id, hid_t mem_space_id,
                hid_t file_space_id, hid_t dxpl_id, const void *buf) {
  H5_TRANSFER(H5Dwrite, buf,
              CALL(H5Dwrite, dset_id, mem_type_id, mem_space_id, file_space_id,
                   Dxpl, buf));
}

DECLARE_SLOT(H5Dclose);
herr_t H5Dclose(hid_t dset_id) { H5_CLOSE(H5Dclose, dset_id); }

DECLARE_SLOT(H5Gcreate2);
hid_t H5Gcreate2(hid_t loc_id, const char *name, hid_t lcpl_id,
                 hid_t gcpl_id, hid_t gapl_id) {
  H5_OPEN(H5Gcreate2, loc_id, name, lcpl_id, gcpl_id, gapl_id);
}

DECLARE_SLOT(H5Gcreate1);
hid_t H5Gcreate1(hid_t loc_id, const char *name, size_t size_hint) {
  H5_OPEN(H5Gcreate1, loc_id, name, size_hint);
}

DECLARE_SLOT(H5Gopen1);
hid_t H5Gopen1(hid_t loc_id, const char *name) {
  H5_OPEN(H5Gopen1, loc_id, name);
}

DECLARE_SLOT(H5Gopen2);
hid_t H5Gopen2(hid_t loc_id, const char *name, hid_t gapl_id) {
  H5_OPEN(H5Gopen2, loc_id, name, gapl_id);
}

DECLARE_SLOT(H5Gclose);
herr_t H5Gclose(hid_t group_id) { H5_CLOSE(H5Gclose, group_id); }

DECLARE_SLOT(H5Acreate1);
hid_t H5Acreate1(hid_t loc_id, const char *attr_name, hid_t type_id,
                 hid_t space_id, hid_t acpl_id) {
  H5_OPEN(H5Acreate1, loc_id, attr_name, type_id, space_id, acpl_id);
}

DECLARE_SLOT(H5Acreate2);
hid_t H5Acreate2(hid_t loc_id, const char *attr_name, hid_t type_id,
                 hid_t space_id, hid_t acpl_id, hid_t aapl_id) {
  H5_OPEN(H5Acreate2, loc_id, attr_name, type_id, space_id, acpl_id, aapl_id);
}

DECLARE_SLOT(H5Aopen);
hid_t H5Aopen(hid_t obj_id, const char *attr_name, hid_t aapl_id) {
  H5_OPEN(H5Aopen, obj_id, attr_name, aapl_id);
}

DECLARE_SLOT(H5Aread);
herr_t H5Aread(hid_t attr_id, hid_t type_id, void *buf) {
  int64_t Bytes = 0, Elements;
  H5_CALL(herr_t, H5Aread,
          dataHash(attr_id, type_id, H5S_ALL, H5S_ALL, 1, &Bytes, &Elements),
          CALL(H5Aread, attr_id, type_id, buf), DFT_ARG(bytes, Bytes),
          DFT_ARG(ret, Ret));
}

DECLARE_SLOT(H5Awrite);
herr_t H5Awrite(hid_t attr_id, hid_t type_id, const void *buf) {
  int64_t Bytes = 0, Elements;
  H5_CALL(herr_t, H5Awrite,
          dataHash(attr_id, type_id, H5S_ALL, H5S_ALL, 1, &Bytes, &Elements),
          CALL(H5Awrite, attr_id, type_id, buf), DFT_ARG(bytes, Bytes),
          DFT_ARG(ret, Ret));
}

DECLARE_SLOT(H5Aclose);
herr_t H5Aclose(hid_t attr_id) { H5_CLOSE(H5Aclose, attr_id); }

DECLARE_SLOT(H5Oopen);
hid_t H5Oopen(hid_t loc_id, const char *name, hid_t lapl_id) {
  H5_OPEN(H5Oopen, loc_id, name, lapl_id);
}

DECLARE_SLOT(H5Oclose);
herr_t H5Oclose(hid_t object_id) { H5_CLOSE(H5Oclose, object_id); }

/* Object info, in every numbered form the library may export. */
#define H5_INFO(N, LOC, ...)                                                   \
  H5_CALL(herr_t, N, objectHash(LOC), CALL(N, LOC, __VA_ARGS__),               \
          DFT_ARG(ret, Ret))

DECLARE_SLOT(H5Oget_info);
herr_t H5Oget_info(hid_t loc_id, void *oinfo) {
  H5_INFO(H5Oget_info, loc_id, oinfo);
}

DECLARE_SLOT(H5Oget_info1);
herr_t H5Oget_info1(hid_t loc_id, void *oinfo) {
  H5_INFO(H5Oget_info1, loc_id, oinfo);
}

DECLARE_SLOT(H5Oget_info2);
herr_t H5Oget_info2(hid_t loc_id, void *oinfo, unsigned fields) {
  H5_INFO(H5Oget_info2, loc_id, oinfo, fields);
}

DECLARE_SLOT(H5Oget_info3);
herr_t H5Oget_info3(hid_t loc_id, void *oinfo, unsigned fields) {
  H5_INFO(H5Oget_info3, loc_id, oinfo, fields);
}
