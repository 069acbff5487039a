/*===- tune_hdf5_props.c - Getting and setting DFTRACER_TUNE's HDF5 keys ---===*
 *
 * The HDF5 functions of each key (the table in tune.c) are looked up with
 * dlsym and called through the signature its Access names; lists are
 * created from the class globals H5open sets (H5P_CLS_*_ID_g).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "tune_hdf5_props.h"

#include "io_real.h"

#include <stdio.h>
#include <string.h>

herr_t H5open(void);
hid_t H5Pcreate(hid_t);
hid_t H5Pcopy(hid_t);
herr_t H5get_libversion(unsigned *, unsigned *, unsigned *);
DECLARE_SLOT(H5open);
DECLARE_SLOT(H5Pcreate);
DECLARE_SLOT(H5Pcopy);
DECLARE_SLOT(H5Pclose);
DECLARE_SLOT(H5Pget_driver);
DECLARE_SLOT(H5get_libversion);
DECLARE_SLOT(H5FD_mpio_init);
DECLARE_SLOT(H5FD_sec2_init);

static const char *const ClassNames[] = {
    "H5P_CLS_FILE_ACCESS_ID_g", "H5P_CLS_FILE_CREATE_ID_g",
    "H5P_CLS_DATASET_CREATE_ID_g", "H5P_CLS_DATASET_XFER_ID_g"};
static void *ClassSlots[4];

/* A new list of class List (dftracer_tune_list), or -1. */
hid_t dftracer_tune_new_list(unsigned List) {
  hid_t *Class;
  if (List > DftTuneDxpl || !HELPER(H5open) || !HELPER(H5Pcreate) ||
      HELPER(H5open)() < 0)
    return -1;
  Class = (hid_t *)dftracer_real_lookup_once(&ClassSlots[List], RTLD_DEFAULT,
                                             ClassNames[List]);
  return Class ? HELPER(H5Pcreate)(*Class) : -1;
}

/* A copy of the application's list App (H5P_DEFAULT: a new list). */
hid_t dftracer_tune_copy_list(unsigned List, hid_t App) {
  if (App == H5P_DEFAULT)
    return dftracer_tune_new_list(List);
  return HELPER(H5Pcopy) ? HELPER(H5Pcopy)(App) : -1;
}

void dftracer_tune_close_list(hid_t L) {
  if (L >= 0 && HELPER(H5Pclose))
    HELPER(H5Pclose)(L);
}

/* Set and get functions by setting (the key table names them). */
static void *SetSlots[DftTuneMaxSettings], *GetSlots[DftTuneMaxSettings];

void *dftracer_tune_setter(unsigned I) {
  const struct dftracer_tune_key *K = dftracer_tune_settings_[I].Key;
  return K->Set ? dftracer_real_lookup_once(&SetSlots[I], RTLD_DEFAULT, K->Set)
                : NULL;
}
void *dftracer_tune_getter(unsigned I) {
  const struct dftracer_tune_key *K = dftracer_tune_settings_[I].Key;
  return K->Get ? dftracer_real_lookup_once(&GetSlots[I], RTLD_DEFAULT, K->Get)
                : NULL;
}

/* hbool_t (bool since HDF5 1.10, one byte) goes in as an int 0 or 1 and
 * comes back in the low byte of a zeroed int, as in hdf5_properties.c. */

/* The value of setting I's key on list L; 0 when HDF5 cannot tell. */
int dftracer_tune_get(unsigned I, hid_t L, struct dftracer_tune_value *V) {
  void *F = dftracer_tune_getter(I);
  memset(V, 0, sizeof(*V));
  if (!F || L < 0)
    return 0;
  switch ((enum dftracer_tune_access)dftracer_tune_settings_[I].Key->Access) {
  case DftAccHsize: {
    hsize_t A;
    if (((herr_t(*)(hid_t, hsize_t *))F)(L, &A) < 0)
      return 0;
    V->U[0] = A;
    return 1;
  }
  case DftAccHsize2: {
    hsize_t A, B;
    if (((herr_t(*)(hid_t, hsize_t *, hsize_t *))F)(L, &A, &B) < 0)
      return 0;
    V->U[0] = A;
    V->U[1] = B;
    return 1;
  }
  case DftAccSize: {
    size_t A;
    if (((herr_t(*)(hid_t, size_t *))F)(L, &A) < 0)
      return 0;
    V->U[0] = A;
    return 1;
  }
  case DftAccBool: {
    int A = 0;
    if (((herr_t(*)(hid_t, int *))F)(L, &A) < 0)
      return 0;
    V->U[0] = (A & 0xff) != 0;
    return 1;
  }
  case DftAccInt: {
    int A;
    if (((herr_t(*)(hid_t, int *))F)(L, &A) < 0 || A < 0)
      return 0;
    V->U[0] = (unsigned)A;
    return 1;
  }
  case DftAccInt2: {
    int A, B;
    if (((herr_t(*)(hid_t, int *, int *))F)(L, &A, &B) < 0 || A < 0 || B < 0)
      return 0;
    V->U[0] = (unsigned)A;
    V->U[1] = (unsigned)B;
    return 1;
  }
  case DftAccPageBuf: {
    size_t A;
    unsigned M, R;
    if (((herr_t(*)(hid_t, size_t *, unsigned *, unsigned *))F)(L, &A, &M, &R) <
        0)
      return 0;
    V->U[0] = A;
    return 1;
  }
  case DftAccCache: {
    int Mdc;
    size_t Slots, Bytes;
    double W0;
    if (((herr_t(*)(hid_t, int *, size_t *, size_t *, double *))F)(
            L, &Mdc, &Slots, &Bytes, &W0) < 0)
      return 0;
    V->U[0] = Slots;
    V->U[1] = Bytes;
    V->W = W0;
    return 1;
  }
  case DftAccLocking: {
    int Use = 0, Ignore = 0;
    if (((herr_t(*)(hid_t, int *, int *))F)(L, &Use, &Ignore) < 0)
      return 0;
    V->U[0] = (Use & 0xff) != 0;
    return 1;
  }
  case DftAccStrategy: {
    int S;
    int Persist = 0;
    hsize_t Threshold;
    if (((herr_t(*)(hid_t, int *, int *, hsize_t *))F)(L, &S, &Persist,
                                                       &Threshold) < 0 ||
        S < 0)
      return 0;
    V->U[0] = (unsigned)S;
    return 1;
  }
  case DftAccSetOnly:
  case DftAccNone:
    break;
  }
  return 0;
}

/* libver's "latest": the newest format this library writes (1.10: v110,
 * 1.12: v112, 1.14: v114). */
static unsigned long long latestLibver(void) {
  unsigned Major = 1, Minor = 10, Release = 0;
  if (HELPER(H5get_libversion))
    HELPER(H5get_libversion)(&Major, &Minor, &Release);
  return Minor >= 10 ? 2 + (Minor - 10) / 2 : 1;
}

/* Setting I's value, "latest" resolved. */
struct dftracer_tune_value dftracer_tune_wanted(unsigned I) {
  struct dftracer_tune_value V = dftracer_tune_settings_[I].Value;
  if (dftracer_tune_settings_[I].Key->Access == DftAccInt2) {
    if (V.U[0] == 1000)
      V.U[0] = latestLibver();
    if (V.U[1] == 1000)
      V.U[1] = latestLibver();
  }
  return V;
}

/* Set setting I's value on list L; 0 when HDF5 refused or lacks it. The
 * parts of a property the key does not name keep L's values. */
int dftracer_tune_set(unsigned I, hid_t L) {
  void *F = dftracer_tune_setter(I), *G = dftracer_tune_getter(I);
  struct dftracer_tune_value V = dftracer_tune_wanted(I);
  if (!F)
    return 0;
  switch ((enum dftracer_tune_access)dftracer_tune_settings_[I].Key->Access) {
  case DftAccHsize:
    return ((herr_t(*)(hid_t, hsize_t))F)(L, V.U[0]) >= 0;
  case DftAccHsize2:
    return ((herr_t(*)(hid_t, hsize_t, hsize_t))F)(L, V.U[0], V.U[1]) >= 0;
  case DftAccSize:
    return ((herr_t(*)(hid_t, size_t))F)(L, (size_t)V.U[0]) >= 0;
  case DftAccBool:
    return ((herr_t(*)(hid_t, int))F)(L, V.U[0] != 0) >= 0;
  case DftAccInt:
  case DftAccSetOnly:
    return ((herr_t(*)(hid_t, int))F)(L, (int)V.U[0]) >= 0;
  case DftAccInt2:
    return ((herr_t(*)(hid_t, int, int))F)(L, (int)V.U[0], (int)V.U[1]) >= 0;
  case DftAccPageBuf: {
    size_t A;
    unsigned M = 0, R = 0;
    if (G)
      ((herr_t(*)(hid_t, size_t *, unsigned *, unsigned *))G)(L, &A, &M, &R);
    return ((herr_t(*)(hid_t, size_t, unsigned, unsigned))F)(L, (size_t)V.U[0],
                                                             M, R) >= 0;
  }
  case DftAccCache: {
    int Mdc = 0;
    size_t Slots, Bytes;
    double W0;
    if (G)
      ((herr_t(*)(hid_t, int *, size_t *, size_t *, double *))G)(
          L, &Mdc, &Slots, &Bytes, &W0);
    return ((herr_t(*)(hid_t, int, size_t, size_t, double))F)(
               L, Mdc, (size_t)V.U[0], (size_t)V.U[1], V.W) >= 0;
  }
  case DftAccLocking: {
    int Use = 0, Ignore = 0;
    if (G)
      ((herr_t(*)(hid_t, int *, int *))G)(L, &Use, &Ignore);
    return ((herr_t(*)(hid_t, int, int))F)(L, V.U[0] != 0,
                                           (Ignore & 0xff) != 0) >= 0;
  }
  case DftAccStrategy: {
    int S;
    int Persist = 0;
    hsize_t Threshold = 1;
    if (G)
      ((herr_t(*)(hid_t, int *, int *, hsize_t *))G)(L, &S, &Persist,
                                                     &Threshold);
    return ((herr_t(*)(hid_t, int, int, hsize_t))F)(
               L, (int)V.U[0], (Persist & 0xff) != 0, Threshold) >= 0;
  }
  case DftAccNone:
    break;
  }
  return 0;
}

void dftracer_tune_format_of(unsigned I, const struct dftracer_tune_value *V,
                             char *Out, size_t Size) {
  dftracer_tune_format(dftracer_tune_settings_[I].Key, V, Out, Size);
}

/* The application's value of setting I (list App, H5P_DEFAULT: the
 * default) into Before; *IsDefault when it equals a new list's. Returns
 * whether it is the requested value already. */
int dftracer_tune_before(unsigned I, unsigned List, hid_t App, char *Before,
                         size_t Size, int *IsDefault) {
  struct dftracer_tune_value Mine, Def, Want = dftracer_tune_wanted(I);
  hid_t Fresh = dftracer_tune_new_list(List);
  int HaveMine, HaveDef;
  HaveDef = dftracer_tune_get(I, Fresh, &Def);
  HaveMine = App == H5P_DEFAULT ? (Mine = Def, HaveDef)
                                : dftracer_tune_get(I, App, &Mine);
  dftracer_tune_close_list(Fresh);
  Before[0] = '\0';
  *IsDefault = 1;
  if (!HaveMine)
    return 0;
  dftracer_tune_format_of(I, &Mine, Before, Size);
  if (HaveDef)
    *IsDefault =
        dftracer_tune_equal(dftracer_tune_settings_[I].Key, &Mine, &Def);
  return dftracer_tune_equal(dftracer_tune_settings_[I].Key, &Mine, &Want);
}

const char *dftracer_tune_driver_of(hid_t Fapl, int *Mpio) {
  hid_t (*Mp)(void) = (hid_t(*)(void))dftracer_real_lookup_once(
      &Slot_H5FD_mpio_init, RTLD_DEFAULT, "H5FD_mpio_init");
  hid_t (*Sec2)(void) = (hid_t(*)(void))dftracer_real_lookup_once(
      &Slot_H5FD_sec2_init, RTLD_DEFAULT, "H5FD_sec2_init");
  hid_t D = HELPER(H5Pget_driver) ? HELPER(H5Pget_driver)(Fapl) : -1;
  *Mpio = D >= 0 && Mp && Mp() == D;
  if (*Mpio)
    return "mpio";
  return D >= 0 && Sec2 && Sec2() == D ? "sec2" : "another driver";
}
