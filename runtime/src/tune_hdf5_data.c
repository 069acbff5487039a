/*===- tune_hdf5_data.c - DFTRACER_TUNE's dataset and transfer keys ------===*
 *
 * A file's dataset (DCPL) and transfer (DXPL) settings are remembered at
 * its open (dftracer_tune_data_register), applied on a copy of the list at
 * every H5Dcreate or H5Dwrite/H5Dread of the file and judged at the first
 * (tune_hdf5.h).
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "tune_hdf5.h"

#include "io_real.h"
#include "tune_hdf5_props.h"

#include <string.h>

DECLARE_SLOT(H5Dget_create_plist);
DECLARE_SLOT(H5Pget_mpio_actual_io_mode);
enum { MaxSettings = DftTuneMaxSettings };

/* --- Files with dataset or transfer settings
 * ------------------------------------ */

enum { DataSlots = 256 };
static struct {
  uint64_t Fhash;
  uint64_t Mask;     /* settings that apply to the file */
  uint64_t Recorded; /* settings whose record is written */
} Data[DataSlots];

/* The slot of Fhash (Claim: take a free one), or -1. */
static int dataSlot(uint64_t Fhash, int Claim) {
  int I;
  for (I = 0; I < DataSlots; ++I) {
    uint64_t Cur = __atomic_load_n(&Data[I].Fhash, __ATOMIC_ACQUIRE);
    if (Cur == Fhash)
      return I;
    if (Cur == 0) {
      if (!Claim)
        return -1;
      if (__atomic_compare_exchange_n(&Data[I].Fhash, &Cur, Fhash, 0,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ||
          Cur == Fhash)
        return I;
    }
  }
  return -1;
}

void dftracer_tune_data_register(uint64_t Fhash, uint64_t Mask) {
  int Slot = dataSlot(Fhash, 1);
  if (Slot >= 0)
    __atomic_store_n(&Data[Slot].Mask, Mask, __ATOMIC_RELEASE);
}

/* --- Transfers and dataset creation
 * ------------------------------------------------ */

/* The settings of list List for the file Fhash into T; the copy of App
 * with them set, or App. */
static hid_t dataBegin(uint64_t Fhash, unsigned List, hid_t App,
                       struct dftracer_tune_data *T) {
  uint64_t Mask, Done;
  unsigned I;
  int Slot;
  memset(T, 0, sizeof(*T));
  T->Copy = -1;
  T->Slot = -1;
  if ((Slot = dataSlot(Fhash, 0)) < 0)
    return App;
  Mask = __atomic_load_n(&Data[Slot].Mask, __ATOMIC_ACQUIRE);
  Done = __atomic_load_n(&Data[Slot].Recorded, __ATOMIC_ACQUIRE);
  for (I = 0; I < MaxSettings && Mask >> I; ++I) {
    int IsDefault = 1;
    char Before[32];
    if (!(Mask >> I & 1) || dftracer_tune_settings_[I].Key->List != List)
      continue;
    if (dftracer_tune_settings_[I].Key->Access == DftAccSetOnly)
      Before[0] = '\0';
    else if ((!(Done >> I & 1) || dftracer_tune_settings_[I].Default) &&
             dftracer_tune_before(I, List, App, Before, sizeof(Before),
                                  &IsDefault))
      T->Already |= 1ull << I;
    if (dftracer_tune_settings_[I].Default && !IsDefault)
      continue; /* kept: the record says so below */
    if (T->Copy < 0 && (T->Copy = dftracer_tune_copy_list(List, App)) < 0)
      return App;
    if (dftracer_tune_set(I, T->Copy))
      T->Mask |= 1ull << I;
    if (!(Done >> I & 1) && T->N < 4) {
      T->Record |= 1ull << I;
      T->Index[T->N] = (unsigned char)I;
      strcpy(T->Before[T->N++], Before);
    }
  }
  /* A `?=` kept on its first call is recorded too. */
  for (I = 0; I < MaxSettings && Mask >> I; ++I)
    if ((Mask >> I & 1) && dftracer_tune_settings_[I].Key->List == List &&
        !(Done >> I & 1) && !(T->Record >> I & 1) && T->N < 4) {
      T->Record |= 1ull << I;
      T->Index[T->N] = (unsigned char)I;
      int IsDefault;
      dftracer_tune_before(I, List, App, T->Before[T->N], sizeof(T->Before[0]),
                           &IsDefault);
      ++T->N;
    }
  T->Slot = dataSlot(Fhash, 0);
  T->Fhash = Fhash;
  return T->Copy >= 0 ? T->Copy : App;
}

/* The records of T's first call in the file; Now reads the value in
 * effect of setting I into Effect (0: unknown), and may set Why. */
static void dataEnd(struct dftracer_tune_data *T, int Failed,
                    int (*Now)(unsigned I, struct dftracer_tune_data *T,
                               char *Effect, size_t Size, const char **Why)) {
  unsigned J;
  if (T->Record && T->Slot >= 0) {
    uint64_t Old =
        __atomic_fetch_or(&Data[T->Slot].Recorded, T->Record, __ATOMIC_ACQ_REL);
    for (J = 0; J < T->N; ++J) {
      unsigned I = T->Index[J];
      const struct dftracer_tune_setting *S = &dftracer_tune_settings_[I];
      char Effect[96] = "";
      const char *Why = NULL;
      int Status;
      if (Old >> I & 1)
        continue; /* another thread wrote it */
      if (!(T->Mask >> I & 1)) {
        Status = S->Default ? DftTuneKept : DftTuneIgnored;
        Why = S->Default ? "KEY?=VALUE: the application set its own value"
                         : "HDF5 refused the value";
      } else if (Failed) {
        Status = DftTuneIgnored;
        Why = T->Failed ? "H5Dcreate failed with the setting: made again "
                          "with the application's list"
                        : "the call failed with the setting";
      } else {
        int Known = Now(I, T, Effect, sizeof(Effect), &Why);
        if (Known < 0)
          Status = DftTuneIgnored;
        else if ((T->Already >> I & 1) && S->Key->List == DftTuneDcpl)
          Status = DftTuneAlready; /* a transfer setting applies to every
                                      call, whatever the first one had */
        else
          Status = DftTuneApplied;
      }
      dftracer_tune_record(T->Fhash, S, T->Before[J], Effect,
                           (enum dftracer_tune_status)Status, Why);
    }
  }
  dftracer_tune_close_list(T->Copy);
}

hid_t dftracer_tune_xfer_begin(uint64_t Fhash, hid_t Dxpl,
                               struct dftracer_tune_data *T) {
  return dataBegin(Fhash, DftTuneDxpl, Dxpl, T);
}

/* An xfer/coll_opt's effect: the copy's mode and, for a collective one,
 * what HDF5 did (H5Pget_mpio_actual_io_mode); -1 when it did not. */
static int xferNow(unsigned I, struct dftracer_tune_data *T, char *Effect,
                   size_t Size, const char **Why) {
  static const char *const Modes[] = {"none", "chunk independent",
                                      "chunk collective", "chunk mixed",
                                      "contiguous collective"};
  int Mode = -1, Wanted = (int)dftracer_tune_settings_[I].Value.U[0];
  int IsXfer = dftracer_tune_settings_[I].Key->Access != DftAccSetOnly;
  struct dftracer_tune_value V;
  if (HELPER(H5Pget_mpio_actual_io_mode))
    HELPER(H5Pget_mpio_actual_io_mode)(T->Copy, &Mode);
  if (IsXfer && dftracer_tune_get(I, T->Copy, &V))
    dftracer_tune_format_of(I, &V, Effect, Size);
  if (Mode >= 0 && Mode <= 4) {
    size_t Len = strlen(Effect);
    snprintf(Effect + Len, Size - Len, "%sio_mode=%s", Len ? "; " : "",
             Modes[Mode]);
  }
  if (IsXfer && Wanted == H5FD_MPIO_COLLECTIVE &&
      Mode == H5D_MPIO_NO_COLLECTIVE) {
    *Why = "HDF5 broke the collective transfer into independent ones "
           "(H5Pget_mpio_actual_io_mode: none)";
    return -1;
  }
  if (!IsXfer)
    *Why = "set on each transfer's list; HDF5 does not report it back "
           "(io_mode says the transfer's kind, not its I/O)";
  return IsXfer ? 1 : 0;
}

void dftracer_tune_xfer_end(struct dftracer_tune_data *T, herr_t Ret) {
  dataEnd(T, Ret < 0, xferNow);
}

hid_t dftracer_tune_dcpl_begin(uint64_t Fhash, hid_t Dcpl,
                               struct dftracer_tune_data *T) {
  return dataBegin(Fhash, DftTuneDcpl, Dcpl, T);
}

/* dcplNow's list: the new dataset's creation list (busy, this thread). */
static _Thread_local hid_t DcplOfDset = -1;

static int dcplNow(unsigned I, struct dftracer_tune_data *T, char *Effect,
                   size_t Size, const char **Why) {
  struct dftracer_tune_value V, Want = dftracer_tune_wanted(I);
  (void)T;
  if (DcplOfDset < 0 || !dftracer_tune_get(I, DcplOfDset, &V))
    return 0;
  dftracer_tune_format_of(I, &V, Effect, Size);
  if (!dftracer_tune_equal(dftracer_tune_settings_[I].Key, &V, &Want)) {
    *Why = "HDF5 reports another value in effect";
    return -1;
  }
  return 1;
}

void dftracer_tune_dcpl_end(struct dftracer_tune_data *T, hid_t Dset) {
  DcplOfDset = -1;
  if (T->Record && Dset >= 0 && HELPER(H5Dget_create_plist))
    DcplOfDset = HELPER(H5Dget_create_plist)(Dset);
  dataEnd(T, T->Failed || Dset < 0, dcplNow);
  dftracer_tune_close_list(DcplOfDset);
  DcplOfDset = -1;
}
