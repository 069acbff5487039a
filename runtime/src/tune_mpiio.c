#define _GNU_SOURCE
#include "mpi_flavour.h" /* compiled once per MPI ABI */

#include "tune_mpiio.h"

#include "io_filter.h"
#include "io_real.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define PMPI(N)                                                                \
  ((__typeof__(&P##N))dftracer_real_lookup_once(&Slot_##N, RTLD_DEFAULT,       \
                                                "P" #N))
#define DECLARE_SLOT(N) static void *Slot_##N
DECLARE_SLOT(MPI_Info_create);
DECLARE_SLOT(MPI_Info_dup);
DECLARE_SLOT(MPI_Info_set);
DECLARE_SLOT(MPI_Info_get);
DECLARE_SLOT(MPI_Info_free);
DECLARE_SLOT(MPI_File_get_info);

enum { MaxSettings = DftTuneMaxSettings };

/* The hints an H5Fcreate/H5Fopen of this thread put into its FAPL's
 * MPI_Info, with the application's values, for the MPI_File_open HDF5
 * makes inside it. */
static _Thread_local struct {
  int Active, Consumed;
  struct dftracer_tune_mpiio St;
} Fapl;

/* Whether setting I is one of Fapl's; *Item: it. */
static int viaFapl(unsigned I, unsigned *Item) {
  unsigned J;
  if (!Fapl.Active)
    return 0;
  for (J = 0; J < Fapl.St.N; ++J)
    if (Fapl.St.Items[J].Index == I) {
      *Item = J;
      return 1;
    }
  return 0;
}

/* Hint Key of Info into Value (Size bytes); 0 when absent. */
static int hint(MPI_Info Info, const char *Key, char *Value, int Size) {
  int Flag = 0;
  if (Info == MPI_INFO_NULL || !PMPI(MPI_Info_get) ||
      PMPI(MPI_Info_get)(Info, Key, Size - 1, Value, &Flag) != MPI_SUCCESS ||
      !Flag)
    return 0;
  Value[Size - 1] = '\0';
  return 1;
}

/* dftracer_tune_mpiio_before, for DFTRACER_TUNE's settings only when
 * TuneOnly (an HDF5 FAPL: the environment is the MPI library's). */
static int before(const char *Name, MPI_Info Info, MPI_Info *Use,
                  struct dftracer_tune_mpiio *St, int TuneOnly) {
  char Abs[DftPathMax];
  unsigned I, Item;
  St->Dup = MPI_INFO_NULL;
  St->N = 0;
  *Use = Info;
  if (!dftracer_io_absolute_path(AT_FDCWD, Name, Abs))
    return 0;
  for (I = 0; I < dftracer_tune_count_ && I < MaxSettings; ++I) {
    const struct dftracer_tune_setting *S = &dftracer_tune_settings_[I];
    char *Before;
    int Had;
    if (S->Key->List != DftTuneMpiio || !dftracer_tune_matches(S, Abs, Name) ||
        St->N == DftTuneMpiioItems || (TuneOnly && S->Source != DftSrcTune))
      continue;
    if (viaFapl(I, &Item)) {
      /* Set by the H5Fcreate/H5Fopen making this open: its values. */
      St->Items[St->N++] = Fapl.St.Items[Item];
      Fapl.Consumed = 1;
      continue;
    }
    St->Items[St->N].Index = (unsigned char)I;
    St->Items[St->N].Reason = NULL;
    Before = St->Items[St->N].Before;
    Had = hint(Info, S->Hint, Before, sizeof(St->Items[0].Before));
    if (!Had)
      Before[0] = '\0';
    if (S->Invalid) {
      St->Items[St->N].Status = DftTuneInvalid;
      St->Items[St->N++].Reason = S->Invalid;
      continue;
    }
    if (Had && strcasecmp(Before, S->Requested) == 0) {
      St->Items[St->N++].Status = DftTuneAlready;
      continue;
    }
    if (Had && (S->Default || S->Source == DftSrcRomioHints)) {
      St->Items[St->N].Status = DftTuneKept;
      St->Items[St->N++].Reason =
          S->Source == DftSrcRomioHints
              ? "the application's MPI_Info sets it: ROMIO_HINTS only fills "
                "the hints the application did not set"
              : "KEY?=VALUE: the application's MPI_Info sets its own value";
      continue;
    }
    St->Items[St->N].Status = DftTuneApplied; /* judged after the open */
    if (S->Source != DftSrcTune) {
      ++St->N; /* the library applies it, or not */
      continue;
    }
    if (St->Dup == MPI_INFO_NULL) {
      int Rc = Info == MPI_INFO_NULL
                   ? (PMPI(MPI_Info_create) ? PMPI(MPI_Info_create)(&St->Dup)
                                            : MPI_ERR_OTHER)
                   : (PMPI(MPI_Info_dup) ? PMPI(MPI_Info_dup)(Info, &St->Dup)
                                         : MPI_ERR_OTHER);
      if (Rc != MPI_SUCCESS)
        St->Dup = MPI_INFO_NULL;
    }
    if (St->Dup == MPI_INFO_NULL || !PMPI(MPI_Info_set) ||
        PMPI(MPI_Info_set)(St->Dup, S->Hint, S->Requested) != MPI_SUCCESS) {
      St->Items[St->N].Status = DftTuneIgnored;
      St->Items[St->N].Reason = "MPI_Info_set refused it";
    }
    ++St->N;
  }
  if (St->Dup != MPI_INFO_NULL)
    *Use = St->Dup;
  return St->N != 0;
}

int dftracer_tune_mpiio_before(const char *Name, MPI_Info Info, MPI_Info *Use,
                               struct dftracer_tune_mpiio *St) {
  dftracer_tune_flush_invalid();
  if (!(dftracer_tune_lists_ & (1u << DftTuneMpiio))) {
    St->Dup = MPI_INFO_NULL;
    St->N = 0;
    *Use = Info;
    return 0;
  }
  return before(Name, Info, Use, St, 0);
}

void dftracer_tune_mpiio_after(uint64_t Fhash, MPI_File Fh,
                               struct dftracer_tune_mpiio *St) {
  MPI_Info Now = MPI_INFO_NULL;
  unsigned J;
  if (Fh != MPI_FILE_NULL && PMPI(MPI_File_get_info) &&
      PMPI(MPI_File_get_info)(Fh, &Now) != MPI_SUCCESS)
    Now = MPI_INFO_NULL;
  for (J = 0; Fhash && J < St->N; ++J) {
    const struct dftracer_tune_setting *S =
        &dftracer_tune_settings_[St->Items[J].Index];
    char Effect[96] = "", Why[192];
    int Status = St->Items[J].Status, Known;
    const char *Reason = St->Items[J].Reason;
    Known = hint(Now, S->Hint, Effect, sizeof(Effect));
    if (Status == DftTuneApplied) {
      if (Fh == MPI_FILE_NULL) {
        Status = DftTuneIgnored;
        Reason = "MPI_File_open failed";
      } else if (!Known) {
        Status = DftTuneIgnored;
        Reason = "MPI_File_get_info does not list it: the MPI library "
                 "dropped the hint (unknown to it, or not for this file "
                 "system)";
      } else if (strcasecmp(Effect, S->Requested) != 0) {
        Status = DftTuneIgnored;
        snprintf(Why, sizeof(Why), "MPI_File_get_info reports %s=%s", S->Hint,
                 Effect);
        Reason = Why;
      }
    }
    dftracer_tune_record(Fhash, S, St->Items[J].Before, Effect,
                         (enum dftracer_tune_status)Status, Reason);
  }
  if (Now != MPI_INFO_NULL && PMPI(MPI_Info_free))
    PMPI(MPI_Info_free)(&Now);
  if (St->Dup != MPI_INFO_NULL && PMPI(MPI_Info_free))
    PMPI(MPI_Info_free)(&St->Dup);
}

/* --- Through an HDF5 FAPL ----------------------------------------------------
 */

typedef int64_t hid_t;
int H5Pget_fapl_mpio(hid_t, MPI_Comm *, MPI_Info *);
int H5Pset_fapl_mpio(hid_t, MPI_Comm, MPI_Info);
int H5Fget_vfd_handle(hid_t, hid_t, void **);
#define H5(N)                                                                  \
  ((__typeof__(&N))dftracer_real_lookup_once(&Slot_##N, RTLD_DEFAULT, #N))
DECLARE_SLOT(H5Pget_fapl_mpio);
DECLARE_SLOT(H5Pset_fapl_mpio);
DECLARE_SLOT(H5Fget_vfd_handle);
DECLARE_SLOT(MPI_Comm_free);

int dftracer_tune_mpiio_fapl(const char *Path, int64_t Copy) {
  MPI_Comm Comm = MPI_COMM_NULL;
  MPI_Info Info = MPI_INFO_NULL, Use;
  Fapl.Active = Fapl.Consumed = 0;
  if (!H5(H5Pget_fapl_mpio) || !H5(H5Pset_fapl_mpio) ||
      H5(H5Pget_fapl_mpio)(Copy, &Comm, &Info) < 0)
    return 0;
  Fapl.Active = 0; /* the FAPL's own hints are the application's */
  if (before(Path, Info, &Use, &Fapl.St, 1) && Fapl.St.Dup != MPI_INFO_NULL &&
      H5(H5Pset_fapl_mpio)(Copy, Comm, Fapl.St.Dup) < 0) {
    unsigned J;
    for (J = 0; J < Fapl.St.N; ++J)
      if (Fapl.St.Items[J].Status == DftTuneApplied) {
        Fapl.St.Items[J].Status = DftTuneIgnored;
        Fapl.St.Items[J].Reason = "H5Pset_fapl_mpio refused the MPI_Info";
      }
  }
  /* HDF5 keeps duplicates of the communicator and the info. */
  if (Fapl.St.Dup != MPI_INFO_NULL && PMPI(MPI_Info_free))
    PMPI(MPI_Info_free)(&Fapl.St.Dup);
  Fapl.St.Dup = MPI_INFO_NULL;
  if (Info != MPI_INFO_NULL && PMPI(MPI_Info_free))
    PMPI(MPI_Info_free)(&Info);
  if (Comm != MPI_COMM_NULL && PMPI(MPI_Comm_free))
    PMPI(MPI_Comm_free)(&Comm);
  Fapl.Active = Fapl.St.N != 0;
  return Fapl.Active;
}

void dftracer_tune_mpiio_fapl_cancel(void) { Fapl.Active = 0; }

void dftracer_tune_mpiio_fapl_done(uint64_t Fhash, int64_t File) {
  void *Handle = NULL;
  int Was = Fapl.Active && !Fapl.Consumed;
  Fapl.Active = 0;
  if (!Was)
    return;
  /* No traced MPI_File_open wrote them (DFTRACER_DISABLE_MPIIO): asked of
   * the file HDF5 opened. */
  if (File < 0 || !H5(H5Fget_vfd_handle) ||
      H5(H5Fget_vfd_handle)(File, 0 /* H5P_DEFAULT */, &Handle) < 0 || !Handle)
    dftracer_tune_mpiio_after(Fhash, MPI_FILE_NULL, &Fapl.St);
  else
    dftracer_tune_mpiio_after(Fhash, *(MPI_File *)Handle, &Fapl.St);
}
