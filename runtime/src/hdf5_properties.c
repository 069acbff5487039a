#define _GNU_SOURCE
#include "hdf5_properties.h"

#include "io_core.h"
#include "io_filter.h"
#include "json_writer.h"
#include "records.h"

#include <fcntl.h>
#include <string.h>

DECLARE_SLOT(H5Iget_name);
DECLARE_SLOT(H5Fget_name);
DECLARE_SLOT(H5Fget_access_plist);
DECLARE_SLOT(H5Dget_space);
DECLARE_SLOT(H5Dget_type);
DECLARE_SLOT(H5Dget_create_plist);
DECLARE_SLOT(H5Sget_simple_extent_dims);
DECLARE_SLOT(H5Sclose);
DECLARE_SLOT(H5Tget_size);
DECLARE_SLOT(H5Tclose);
DECLARE_SLOT(H5Pclose);
DECLARE_SLOT(H5Pget_driver);
DECLARE_SLOT(H5Pget_alignment);
DECLARE_SLOT(H5Pget_meta_block_size);
DECLARE_SLOT(H5Pget_all_coll_metadata_ops);
DECLARE_SLOT(H5Pget_coll_metadata_write);
DECLARE_SLOT(H5Pget_page_buffer_size);
DECLARE_SLOT(H5Pget_sieve_buf_size);
DECLARE_SLOT(H5Pget_layout);
DECLARE_SLOT(H5Pget_chunk);
DECLARE_SLOT(H5Pget_fill_time);
DECLARE_SLOT(H5Pget_dxpl_mpio);
DECLARE_SLOT(H5Pget_mpio_actual_io_mode);
DECLARE_SLOT(H5FD_sec2_init);
DECLARE_SLOT(H5FD_mpio_init);
DECLARE_SLOT(H5FD_core_init);
DECLARE_SLOT(H5FD_stdio_init);
DECLARE_SLOT(H5FD_family_init);
DECLARE_SLOT(H5FD_log_init);
DECLARE_SLOT(H5FD_multi_init);
DECLARE_SLOT(H5FD_direct_init);

enum { RecordBytes = 8192 };

/* The VFD of the files opened so far, by hash: H5Dwrite asks io_mode only
 * of an mpio file. Slots are claimed with a compare-and-swap; past 256
 * files the VFD is not remembered (and io_mode not asked). */
enum { VfdSlots = 256 };
static struct {
  uint64_t Fhash;
  int Mpio;
} Vfds[VfdSlots];

static void rememberVfd(uint64_t Fhash, int Mpio) {
  unsigned I;
  for (I = 0; I < VfdSlots; ++I) {
    uint64_t Cur = __atomic_load_n(&Vfds[I].Fhash, __ATOMIC_ACQUIRE);
    if (Cur == Fhash ||
        (Cur == 0 && __atomic_compare_exchange_n(&Vfds[I].Fhash, &Cur, Fhash,
                                                 0, __ATOMIC_ACQ_REL,
                                                 __ATOMIC_ACQUIRE))) {
      __atomic_store_n(&Vfds[I].Mpio, Mpio, __ATOMIC_RELEASE);
      return;
    }
  }
}

static int isMpio(uint64_t Fhash) {
  unsigned I;
  for (I = 0; I < VfdSlots; ++I) {
    uint64_t Cur = __atomic_load_n(&Vfds[I].Fhash, __ATOMIC_ACQUIRE);
    if (Cur == 0)
      return 0;
    if (Cur == Fhash)
      return __atomic_load_n(&Vfds[I].Mpio, __ATOMIC_ACQUIRE);
  }
  return 0;
}

/* The name of driver Id: compared with the identifiers of the drivers
 * HDF5 has (an unregistered one registers, as H5FD_SEC2 in a program
 * does). */
static const char *driverName(hid_t Id) {
  static const struct {
    const char *Name;
    void **Slot;
    const char *Symbol;
  } Drivers[] = {
      {"sec2", &Slot_H5FD_sec2_init, "H5FD_sec2_init"},
      {"mpio", &Slot_H5FD_mpio_init, "H5FD_mpio_init"},
      {"core", &Slot_H5FD_core_init, "H5FD_core_init"},
      {"stdio", &Slot_H5FD_stdio_init, "H5FD_stdio_init"},
      {"family", &Slot_H5FD_family_init, "H5FD_family_init"},
      {"log", &Slot_H5FD_log_init, "H5FD_log_init"},
      {"multi", &Slot_H5FD_multi_init, "H5FD_multi_init"},
      {"direct", &Slot_H5FD_direct_init, "H5FD_direct_init"},
  };
  size_t I;
  if (Id < 0)
    return "unknown";
  for (I = 0; I < sizeof(Drivers) / sizeof(Drivers[0]); ++I) {
    hid_t (*Init)(void) = (hid_t(*)(void))dftracer_real_lookup_once(
        Drivers[I].Slot, RTLD_DEFAULT, Drivers[I].Symbol);
    if (Init && Init() == Id)
      return Drivers[I].Name;
  }
  return "other";
}

static char *putU(char *Out, const char *Key, unsigned long long V) {
  return dftracer_record_u64(Out, Key, V, 0);
}

void dftracer_hdf5_file_record(uint64_t Fhash, hid_t File) {
  char Line[RecordBytes], *Out = Line;
  const char *Vfd;
  hid_t Fapl;
  if (!HELPER(H5Fget_access_plist) || !HELPER(H5Pclose) ||
      (Fapl = HELPER(H5Fget_access_plist)(File)) < 0)
    return;
  Vfd = HELPER(H5Pget_driver) ? driverName(HELPER(H5Pget_driver)(Fapl))
                              : "unknown";
  rememberVfd(Fhash, strcmp(Vfd, "mpio") == 0);
  Out = dftracer_record_head(Out, "HDF5_FILE");
  Out = dftracer_record_u64(Out, "fhash", Fhash, 1);
  Out = dftracer_record_str(Out, "vfd", Vfd, 0);
  {
    hsize_t Threshold, Alignment;
    if (HELPER(H5Pget_alignment) &&
        HELPER(H5Pget_alignment)(Fapl, &Threshold, &Alignment) >= 0) {
      Out = putU(Out, "alignment_threshold", Threshold);
      Out = putU(Out, "alignment", Alignment);
    }
  }
  {
    hsize_t Size;
    if (HELPER(H5Pget_meta_block_size) &&
        HELPER(H5Pget_meta_block_size)(Fapl, &Size) >= 0)
      Out = putU(Out, "meta_block_size", Size);
  }
  {
    int Read = 0, Write = 0;
    if (HELPER(H5Pget_all_coll_metadata_ops) &&
        HELPER(H5Pget_all_coll_metadata_ops)(Fapl, &Read) >= 0)
      Out = putU(Out, "coll_metadata_read", (Read & 0xff) != 0);
    if (HELPER(H5Pget_coll_metadata_write) &&
        HELPER(H5Pget_coll_metadata_write)(Fapl, &Write) >= 0)
      Out = putU(Out, "coll_metadata_write", (Write & 0xff) != 0);
  }
  {
    size_t Size;
    unsigned MinMeta, MinRaw;
    if (HELPER(H5Pget_page_buffer_size) &&
        HELPER(H5Pget_page_buffer_size)(Fapl, &Size, &MinMeta, &MinRaw) >= 0)
      Out = putU(Out, "page_buffer_size", Size);
    if (HELPER(H5Pget_sieve_buf_size) &&
        HELPER(H5Pget_sieve_buf_size)(Fapl, &Size) >= 0)
      Out = putU(Out, "sieve_buf_size", Size);
  }
  Out = dftracer_record_tail(Out);
  HELPER(H5Pclose)(Fapl);
  dftracer_record_emit(Line, (size_t)(Out - Line));
}

/* The dataset's path in its file into Name (DftPathMax bytes); its length,
 * 0 when HDF5 cannot tell. */
static size_t datasetName(hid_t Dset, char *Name) {
  ssize_t Len;
  if (!HELPER(H5Iget_name))
    return 0;
  Len = HELPER(H5Iget_name)(Dset, Name, DftPathMax);
  return Len > 0 && Len < DftPathMax ? (size_t)Len : 0;
}

/* dhash: the file hash function of "<FH path>:<dataset path>". */
static uint64_t datasetHash(hid_t Dset, const char *Dname, size_t DLen) {
  char File[DftPathMax], Abs[2 * DftPathMax];
  ssize_t FLen;
  size_t ALen;
  if (!DLen || !HELPER(H5Fget_name))
    return 0;
  FLen = HELPER(H5Fget_name)(Dset, File, sizeof(File));
  if (FLen <= 0 || (size_t)FLen >= sizeof(File))
    return 0;
  ALen = dftracer_io_absolute_path(AT_FDCWD, File, Abs);
  if (!ALen || ALen + 1 + DLen >= sizeof(Abs))
    return 0;
  Abs[ALen] = ':';
  memcpy(Abs + ALen + 1, Dname, DLen);
  return dftracer_io_path_hash_of(Abs, ALen + 1 + DLen);
}

static char *putDims(char *Out, const char *Key, const hsize_t *Dims,
                     int Rank) {
  int I;
  *Out++ = ',';
  Out = dftracer_put_string(Out, Key, strlen(Key));
  Out = DFTRACER_PUT_LIT(Out, ":[");
  for (I = 0; I < Rank; ++I) {
    if (I)
      *Out++ = ',';
    Out = dftracer_put_u64(Out, Dims[I]);
  }
  *Out++ = ']';
  return Out;
}

void dftracer_hdf5_dset_record(uint64_t Fhash, hid_t Dset) {
  char Line[RecordBytes + 6 * DftPathMax], *Out = Line, Name[DftPathMax];
  size_t NameLen = datasetName(Dset, Name);
  hid_t Dcpl = HELPER(H5Dget_create_plist) ? HELPER(H5Dget_create_plist)(Dset)
                                           : -1;
  Name[NameLen] = '\0';
  Out = dftracer_record_head(Out, "HDF5_DSET");
  Out = dftracer_record_u64(Out, "fhash", Fhash, 1);
  Out = putU(Out, "dhash", datasetHash(Dset, Name, NameLen));
  Out = dftracer_record_str(Out, "dset", Name, 0);
  if (Dcpl >= 0) {
    int Layout = HELPER(H5Pget_layout) ? HELPER(H5Pget_layout)(Dcpl) : -1;
    int Fill = -1;
    hsize_t Chunk[H5S_MAX_RANK];
    int Rank = 0;
    static const char *const Layouts[] = {"compact", "contiguous", "chunked",
                                          "virtual"};
    if (Layout >= 0 && Layout <= H5D_VIRTUAL)
      Out = dftracer_record_str(Out, "layout", Layouts[Layout], 0);
    if (Layout == H5D_CHUNKED && HELPER(H5Pget_chunk))
      Rank = HELPER(H5Pget_chunk)(Dcpl, H5S_MAX_RANK, Chunk);
    Out = putDims(Out, "chunk", Chunk, Rank > 0 ? Rank : 0);
    if (HELPER(H5Pget_fill_time) && HELPER(H5Pget_fill_time)(Dcpl, &Fill) >= 0 &&
        Fill >= 0 && Fill <= H5D_FILL_TIME_IFSET) {
      static const char *const Fills[] = {"alloc", "never", "ifset"};
      Out = dftracer_record_str(Out, "fill_time", Fills[Fill], 0);
    }
    if (HELPER(H5Pclose))
      HELPER(H5Pclose)(Dcpl);
  }
  if (HELPER(H5Dget_space) && HELPER(H5Sget_simple_extent_dims) &&
      HELPER(H5Sclose)) {
    hid_t Space = HELPER(H5Dget_space)(Dset);
    if (Space >= 0) {
      hsize_t Dims[H5S_MAX_RANK];
      int Rank = HELPER(H5Sget_simple_extent_dims)(Space, Dims, NULL);
      if (Rank >= 0 && Rank <= H5S_MAX_RANK)
        Out = putDims(Out, "dims", Dims, Rank);
      HELPER(H5Sclose)(Space);
    }
  }
  if (HELPER(H5Dget_type) && HELPER(H5Tget_size) && HELPER(H5Tclose)) {
    hid_t Type = HELPER(H5Dget_type)(Dset);
    if (Type >= 0) {
      Out = putU(Out, "type_size", HELPER(H5Tget_size)(Type));
      HELPER(H5Tclose)(Type);
    }
  }
  Out = dftracer_record_tail(Out);
  dftracer_record_emit(Line, (size_t)(Out - Line));
}

void dftracer_hdf5_xfer_before(uint64_t Fhash, hid_t Dset, hid_t Dxpl,
                               int64_t Points, struct dftracer_hdf5_xfer *X) {
  char Name[DftPathMax];
  size_t Len = datasetName(Dset, Name);
  int Mode = H5FD_MPIO_INDEPENDENT;
  X->Dhash = datasetHash(Dset, Name, Len);
  X->Mpio = isMpio(Fhash);
  /* The default list is independent; HDF5 refuses to be asked of it. */
  if (Dxpl != H5P_DEFAULT && HELPER(H5Pget_dxpl_mpio) &&
      HELPER(H5Pget_dxpl_mpio)(Dxpl, &Mode) < 0)
    Mode = H5FD_MPIO_INDEPENDENT;
  X->Xfer = Mode == H5FD_MPIO_COLLECTIVE ? "collective" : "independent";
  X->Selection = Points;
  X->IoMode = NULL;
}

void dftracer_hdf5_xfer_after(hid_t Dxpl, struct dftracer_hdf5_xfer *X) {
  int Mode = -1;
  if (!X->Mpio || Dxpl == H5P_DEFAULT || !HELPER(H5Pget_mpio_actual_io_mode) ||
      HELPER(H5Pget_mpio_actual_io_mode)(Dxpl, &Mode) < 0)
    return;
  switch (Mode) {
  case H5D_MPIO_NO_COLLECTIVE:
    X->IoMode = "none";
    break;
  case H5D_MPIO_CHUNK_INDEPENDENT:
    X->IoMode = "independent";
    break;
  case H5D_MPIO_CHUNK_COLLECTIVE:
  case H5D_MPIO_CONTIGUOUS_COLLECTIVE:
    X->IoMode = "collective";
    break;
  case H5D_MPIO_CHUNK_MIXED:
    X->IoMode = "mixed";
    break;
  default:
    break;
  }
}
