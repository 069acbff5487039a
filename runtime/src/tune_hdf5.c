/*===- tune_hdf5.c - DFTRACER_TUNE at H5Fcreate and H5Fopen ----------------===*
 *
 * tune_hdf5.h says what is done; the property access is
 * tune_hdf5_props.c's, the dataset and transfer keys tune_hdf5_data.c's.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "tune_hdf5.h"

#include "busy.h"
#include "io_filter.h"
#include "io_real.h"
#include "tune_hdf5_props.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#ifdef DFTRACER_HAVE_MPIIO
#include "tune_mpiio.h"
#endif

hid_t H5Fget_create_plist(hid_t);
DECLARE_SLOT(H5Fget_access_plist);
DECLARE_SLOT(H5Fget_create_plist);
enum { MaxSettings = DftTuneMaxSettings };

int dftracer_tune_hdf5_before(const char *Path, hid_t *Fcpl, hid_t *Fapl,
                              struct dftracer_tune_open *St) {
  char Abs[DftPathMax];
  unsigned I;
  memset(St, 0, sizeof(*St));
  St->Fapl = St->Fcpl = -1;
  St->Create = Fcpl != NULL;
  dftracer_tune_flush_invalid();
  if (!(dftracer_tune_lists_ &
        ((1u << DftTuneFapl) | (1u << DftTuneFcpl) | (1u << DftTuneDcpl) |
         (1u << DftTuneDxpl) | (1u << DftTuneMpiio))) ||
      !dftracer_io_absolute_path(AT_FDCWD, Path, Abs))
    return 0;
  for (I = 0; I < dftracer_tune_count_ && I < MaxSettings; ++I) {
    const struct dftracer_tune_setting *S = &dftracer_tune_settings_[I];
    unsigned List = S->Key->List;
    hid_t *Copy, App;
    int IsDefault;
    if (List == DftTuneMpiio || !dftracer_tune_matches(S, Abs, Path))
      continue;
    if (List == DftTuneDcpl || List == DftTuneDxpl) {
      St->DataMask |= 1ull << I;
      continue;
    }
    if (St->N == DftTuneOpenItems)
      break;
    St->Items[St->N].Index = (unsigned char)I;
    if (List == DftTuneFcpl && !St->Create) {
      St->Items[St->N].Status = DftTuneIgnored;
      St->Items[St->N++].Reason =
          "a file creation property: an existing file keeps what it was "
          "created with (H5Fopen cannot change it)";
      continue;
    }
    Copy = List == DftTuneFapl ? &St->Fapl : &St->Fcpl;
    App = List == DftTuneFapl ? *Fapl : *Fcpl;
    if (dftracer_tune_before(I, List, App, St->Items[St->N].Before,
                             sizeof(St->Items[St->N].Before), &IsDefault)) {
      St->Items[St->N++].Status = DftTuneAlready;
      continue;
    }
    if (S->Default && !IsDefault) {
      St->Items[St->N].Status = DftTuneKept;
      St->Items[St->N++].Reason =
          "KEY?=VALUE: the application set its own value";
      continue;
    }
    if (!dftracer_tune_setter(I)) {
      St->Items[St->N].Status = DftTuneIgnored;
      St->Items[St->N++].Reason = "this HDF5 has no such property";
      continue;
    }
    if (*Copy < 0 && (*Copy = dftracer_tune_copy_list(List, App)) < 0) {
      St->Items[St->N].Status = DftTuneIgnored;
      St->Items[St->N++].Reason = "the property list could not be copied";
      continue;
    }
    if (!dftracer_tune_set(I, *Copy)) {
      St->Items[St->N].Status = DftTuneIgnored;
      St->Items[St->N++].Reason = "HDF5 refused the value";
      continue;
    }
    St->Items[St->N++].Status = DftTuneApplied;
  }
#ifdef DFTRACER_HAVE_MPIIO
  /* mpiio.* through an mpio FAPL: into the copy's MPI_Info. */
  if ((dftracer_tune_lists_ & (1u << DftTuneMpiio)) && *Fapl != H5P_DEFAULT) {
    int Mpio = 0;
    dftracer_tune_driver_of(*Fapl, &Mpio);
    if (Mpio && (St->Fapl >= 0 ||
                 (St->Fapl = dftracer_tune_copy_list(DftTuneFapl, *Fapl)) >= 0))
      St->Mpiio = dftracer_tune_mpiio_fapl(Path, St->Fapl);
  }
#endif
  if (St->Fapl >= 0)
    *Fapl = St->Fapl;
  if (St->Fcpl >= 0)
    *Fcpl = St->Fcpl;
  return St->N || St->DataMask || St->Mpiio;
}

herr_t H5Eget_auto2(hid_t, void **, void **);
herr_t H5Eset_auto2(hid_t, void *, void *);
DECLARE_SLOT(H5Eget_auto2);
DECLARE_SLOT(H5Eset_auto2);

void dftracer_tune_hdf5_quiet(struct dftracer_tune_quiet *Q, int On) {
  int Busy = dftracer_busy_enter();
  if (!HELPER(H5Eget_auto2) || !HELPER(H5Eset_auto2))
    Q->Saved = 0;
  else if (On)
    Q->Saved =
        HELPER(H5Eget_auto2)(0 /* H5E_DEFAULT */, &Q->Func, &Q->Data) >= 0 &&
        HELPER(H5Eset_auto2)(0, NULL, NULL) >= 0;
  else if (Q->Saved) {
    HELPER(H5Eset_auto2)(0, Q->Func, Q->Data);
    Q->Saved = 0;
  }
  dftracer_busy_leave(Busy);
}

void dftracer_tune_hdf5_failed(struct dftracer_tune_open *St) {
  St->Failed = 1;
#ifdef DFTRACER_HAVE_MPIIO
  if (St->Mpiio)
    dftracer_tune_mpiio_fapl_cancel();
#endif
}

void dftracer_tune_hdf5_after(uint64_t Fhash, hid_t File,
                              struct dftracer_tune_open *St) {
  hid_t Access = -1, Create = -1;
  const char *Driver = "unknown";
  int Mpio = 0;
  unsigned J;
  dftracer_tune_close_list(St->Fapl);
  dftracer_tune_close_list(St->Fcpl);
#ifdef DFTRACER_HAVE_MPIIO
  if (St->Mpiio)
    dftracer_tune_mpiio_fapl_done(Fhash, File);
#endif
  if (File < 0)
    return;
  if (HELPER(H5Fget_access_plist))
    Access = HELPER(H5Fget_access_plist)(File);
  if (HELPER(H5Fget_create_plist))
    Create = HELPER(H5Fget_create_plist)(File);
  if (Access >= 0)
    Driver = dftracer_tune_driver_of(Access, &Mpio);
  for (J = 0; J < St->N; ++J) {
    unsigned I = St->Items[J].Index;
    const struct dftracer_tune_setting *S = &dftracer_tune_settings_[I];
    struct dftracer_tune_value Now, Want = dftracer_tune_wanted(I);
    char Effect[96] = "";
    int Known = !S->Key->Unreported &&
                dftracer_tune_get(
                    I, S->Key->List == DftTuneFapl ? Access : Create, &Now);
    int Status = St->Items[J].Status;
    const char *Reason = St->Items[J].Reason;
    char Why[160];
    if (Known)
      dftracer_tune_format_of(I, &Now, Effect, sizeof(Effect));
    if (Status == DftTuneIgnored && S->Key->List == DftTuneFcpl &&
        !St->Create && Known && dftracer_tune_equal(S->Key, &Now, &Want)) {
      Status = DftTuneAlready; /* the file was made with it */
      Reason = "a file creation property: the file was created with it";
    }
    if (Status == DftTuneApplied) {
      if (St->Failed) {
        Status = DftTuneIgnored;
        Reason = St->Create ? "H5Fcreate failed with the settings: made "
                              "again with the application's lists"
                            : "H5Fopen failed with the settings: made again "
                              "with the application's lists";
      } else if (!Known)
        Reason = "set on the list given to HDF5; HDF5 does not report it "
                 "back";
      else if (!dftracer_tune_equal(S->Key, &Now, &Want)) {
        Status = DftTuneIgnored;
        snprintf(Why, sizeof(Why), "HDF5 reports %s in effect", Effect);
        Reason = Why;
      }
    }
    dftracer_tune_record(Fhash, S, St->Items[J].Before, Effect,
                         (enum dftracer_tune_status)Status, Reason);
  }
  /* Dataset and transfer settings: remembered for the file's later calls;
   * transfer ones need the mpio driver. */
  if (St->DataMask) {
    uint64_t Mask = St->DataMask;
    for (J = 0; J < MaxSettings; ++J) {
      const struct dftracer_tune_setting *S = &dftracer_tune_settings_[J];
      char Why[160];
      if (!(Mask >> J & 1) || S->Key->List != DftTuneDxpl || Mpio)
        continue;
      Mask &= ~(1ull << J);
      snprintf(Why, sizeof(Why),
               "the file's driver is %s: H5Pset_dxpl_mpio needs the mpio "
               "driver (H5Pset_fapl_mpio)",
               Driver);
      dftracer_tune_record(Fhash, S, "", "", DftTuneIgnored, Why);
    }
    if (Mask)
      dftracer_tune_data_register(Fhash, Mask);
  }
  dftracer_tune_close_list(Access);
  dftracer_tune_close_list(Create);
}
