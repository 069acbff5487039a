#define _GNU_SOURCE
#include "mpi_flavour.h" /* compiled once per MPI ABI */

#include "mpiio_hints.h"

#include "io_real.h"
#include "json_writer.h"
#include "records.h"

#include <dlfcn.h>
#include <string.h>

#define PMPI(N)                                                                \
  ((__typeof__(&P##N))dftracer_real_lookup_once(&Slot_##N, RTLD_DEFAULT,       \
                                                "P" #N))
#define DECLARE_SLOT(N) static void *Slot_##N
DECLARE_SLOT(MPI_File_get_info);
DECLARE_SLOT(MPI_Info_get_nkeys);
DECLARE_SLOT(MPI_Info_get_nthkey);
DECLARE_SLOT(MPI_Info_get);
DECLARE_SLOT(MPI_Info_free);
DECLARE_SLOT(MPI_Type_size);
DECLARE_SLOT(MPI_Type_get_extent);
DECLARE_SLOT(MPI_Type_get_envelope);

/* A record of ROMIO's ~25 hints is under 2 KiB; keys past the room are
 * left out rather than the record. */
enum { RecordBytes = 16 << 10 };

void dftracer_mpiio_hints(uint64_t Hash, MPI_File Fh, int CommSize,
                          int Amode) {
  char Line[RecordBytes], *Out = Line, *Limit = Line + RecordBytes;
  char Key[MPI_MAX_INFO_KEY + 1], Value[MPI_MAX_INFO_VAL + 1];
  MPI_Info Info = MPI_INFO_NULL;
  int Keys = 0, I, First = 1;
  if (!PMPI(MPI_File_get_info) || !PMPI(MPI_Info_get_nkeys) ||
      !PMPI(MPI_Info_get_nthkey) || !PMPI(MPI_Info_get) ||
      !PMPI(MPI_Info_free))
    return;
  if (PMPI(MPI_File_get_info)(Fh, &Info) != MPI_SUCCESS)
    return;
  if (Info != MPI_INFO_NULL &&
      PMPI(MPI_Info_get_nkeys)(Info, &Keys) != MPI_SUCCESS)
    Keys = 0;
  Out = dftracer_record_head(Out, "MPIIO_HINTS");
  Out = dftracer_record_u64(Out, "fhash", Hash, 1);
  Out = dftracer_record_u64(Out, "comm_size", (unsigned long long)CommSize, 0);
  Out = dftracer_record_u64(Out, "amode", (unsigned long long)Amode, 0);
  Out = DFTRACER_PUT_LIT(Out, ",\"hints\":{");
  for (I = 0; I < Keys; ++I) {
    int Flag = 0;
    size_t KLen, VLen;
    if (PMPI(MPI_Info_get_nthkey)(Info, I, Key) != MPI_SUCCESS ||
        PMPI(MPI_Info_get)(Info, Key, MPI_MAX_INFO_VAL, Value, &Flag) !=
            MPI_SUCCESS ||
        !Flag)
      continue;
    Key[MPI_MAX_INFO_KEY] = Value[MPI_MAX_INFO_VAL] = '\0';
    KLen = strlen(Key);
    VLen = strlen(Value);
    if ((size_t)(Limit - Out) < dftracer_json_string_bound(KLen) +
                                    dftracer_json_string_bound(VLen) + 16)
      break;
    if (!First)
      *Out++ = ',';
    First = 0;
    Out = dftracer_put_string(Out, Key, KLen);
    *Out++ = ':';
    Out = dftracer_put_string(Out, Value, VLen);
  }
  *Out++ = '}';
  Out = dftracer_record_tail(Out);
  if (Info != MPI_INFO_NULL)
    PMPI(MPI_Info_free)(&Info);
  dftracer_record_emit(Line, (size_t)(Out - Line));
}

int dftracer_mpiio_view_facts(MPI_Datatype Etype, MPI_Datatype Filetype,
                              struct dftracer_mpiio_view *View) {
  int Esize = 0, Fsize = 0, Ints = 0, Addrs = 0, Types = 0, Combiner = 0;
  MPI_Aint Lb = 0, Extent = 0;
  if (!PMPI(MPI_Type_size) || !PMPI(MPI_Type_get_extent) ||
      !PMPI(MPI_Type_get_envelope) ||
      PMPI(MPI_Type_size)(Etype, &Esize) != MPI_SUCCESS ||
      PMPI(MPI_Type_size)(Filetype, &Fsize) != MPI_SUCCESS ||
      PMPI(MPI_Type_get_extent)(Filetype, &Lb, &Extent) != MPI_SUCCESS ||
      PMPI(MPI_Type_get_envelope)(Filetype, &Ints, &Addrs, &Types,
                                  &Combiner) != MPI_SUCCESS)
    return 0;
  View->EtypeSize = Esize;
  View->FiletypeSize = Fsize;
  View->FiletypeExtent = (int64_t)Extent;
  /* A named type, or one without holes (a contiguous run of a named type
   * has its size as extent): the file is read as one stream of bytes. */
  View->Contiguous =
      Combiner == MPI_COMBINER_NAMED || ((MPI_Aint)Fsize == Extent && Lb == 0);
  return 1;
}
