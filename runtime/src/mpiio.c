/*===- mpiio.c - The MPI-IO layer, through the profiling interface --------===*
 *
 * The MPI_File_* functions the program calls are mpi_dispatch.c's; each
 * finds its PMPI_File_* twin for its caller (real_symbol.h), so the
 * runtime never links libmpi (a program without MPI never calls these),
 * and calls this file's function of the same name in the copy for the
 * ABI of the library that defines it (mpi_abi.h). A program linked with
 * libdftracer_core before libmpi (mpicc adds -lmpi last), or preloaded
 * with it, calls the wrappers first; HDF5's MPI-IO driver does too, so
 * H5Dwrite > MPI_File_write_at_all > pwrite64 nest.
 *
 * Compiled once per MPI ABI the build found (mpi_flavour.h): the
 * arguments come as words and are read as that mpi.h's handles. MPI_File
 * handles map to the file's hash in a small table filled at MPI_File_open.
 *
 * Events are `cat` "MPIIO"; MPI_File_open carries `comm_size` (the
 * communicator's size, from PMPI_Comm_size); data calls carry `count` and
 * `bytes` (count x the datatype's size, as requested) and `offset` for
 * explicit offsets; the non-blocking forms record the time to post the
 * request.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "mpi_flavour.h"

#include "io_core.h"
#include "io_filter.h"
#include "io_real.h"
#include "real_symbol.h"
#include "mpiio_hints.h"
#include "tune_mpiio.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>

#define MPIIO DftLayerMpiio

void dftracer_probe_rank_(void);

/* --- PMPI functions ------------------------------------------------------ */

/* The wrapper's own real function (REAL, typed) comes from mpi_dispatch.c,
 * found for the program's call site. HELPER(N): another PMPI function the
 * layer asks (MPI_Type_size, ...), from the libmpi the same caller would
 * have called (also one loaded with RTLD_LOCAL: real_symbol.h); calls fail
 * with MPI_ERR_OTHER, said once, if no loaded library defines it (it
 * cannot happen in a program that called MPI_File_open). Both need
 * `Caller` or `Real` in scope. */
#define REAL(N) ((__typeof__(&P##N))Real)
#define HELPER(N)                                                              \
  ((__typeof__(&P##N))dftracer_real_for_caller(&RealSlot_##N, "P" #N, Caller, \
                                               "MPIIO"))
#define DECLARE_SLOT(N) static void *RealSlot_##N
#define HELPER_OR_FAIL(N, ...)                                                 \
  (HELPER(N) ? HELPER(N)(__VA_ARGS__) : MPI_ERR_OTHER)

/* This copy's entry points, as mpi_dispatch.c declares them. */
#define DFT_MPI_FN(N, PARAMS, ...)                                             \
  int DFT_MPI_NAME(N)(const void *Caller, void *Real,                          \
                      DFT_MPI_UNPAREN PARAMS) DFT_HIDDEN;
#include "mpi_functions.def"

/* MPI_ERR_OTHER of this ABI: the dispatcher's failure when no loaded
 * library defines a wrapper's real function. */
const int DFT_MPI_NAME(err_other) DFT_HIDDEN = MPI_ERR_OTHER;

/* --- MPI_File -> file hash ----------------------------------------------- */

enum { FileSlots = 256 };
static struct {
  MPI_File Handle;
  uint64_t Hash;
} Files[FileSlots];
static pthread_mutex_t FilesLock = PTHREAD_MUTEX_INITIALIZER;

static void remember(MPI_File Fh, uint64_t Hash) {
  int I;
  pthread_mutex_lock(&FilesLock);
  for (I = 0; I < FileSlots; ++I) {
    if (!Files[I].Hash) {
      Files[I].Handle = Fh;
      Files[I].Hash = Hash;
      break;
    }
  }
  pthread_mutex_unlock(&FilesLock);
}

/* The hash of Fh (0: untraced); Forget also removes it. */
static uint64_t fileHash(MPI_File Fh, int Forget) {
  uint64_t Hash = 0;
  int I;
  pthread_mutex_lock(&FilesLock);
  for (I = 0; I < FileSlots; ++I) {
    if (Files[I].Hash && Files[I].Handle == Fh) {
      Hash = Files[I].Hash;
      if (Forget)
        Files[I].Hash = 0;
      break;
    }
  }
  pthread_mutex_unlock(&FilesLock);
  return Hash;
}

/* ROMIO accepts a file-system prefix ("ufs:", "nfs:", ...) before the
 * path; the file is the path after it. */
static const char *stripPrefix(const char *Name) {
  const char *Colon = Name ? strchr(Name, ':') : NULL;
  const char *P;
  if (!Colon || Colon - Name < 2)
    return Name;
  for (P = Name; P < Colon; ++P)
    if (!((*P >= 'a' && *P <= 'z') || (*P >= 'A' && *P <= 'Z')))
      return Name;
  return Colon + 1;
}

DECLARE_SLOT(MPI_Type_size);

/* The bytes of a read or write of Count items of Type that returned Ret:
 * asked of MPI after the call, and only when it succeeded. A datatype MPI
 * rejects makes the call fail through the file's error handler (errors
 * return, by default), while MPI_Type_size would raise it on
 * MPI_COMM_WORLD, where the default is to abort. */
static int64_t bytesOf(const void *Caller, int Ret, int Count,
                       MPI_Datatype Type) {
  int Size = 0;
  if (Ret != MPI_SUCCESS || Count <= 0 ||
      HELPER_OR_FAIL(MPI_Type_size, Type, &Size) != MPI_SUCCESS)
    return 0;
  return (int64_t)Count * Size;
}

/* The body of a wrapper whose file's hash is HASH (0: untraced; result
 * `Ret`), and whose buffer is at address ADDR (its mem_align, io_core.h;
 * 0: no buffer, and no test). */
#define HASH_CALL_ALIGNED(NAME, HASH, ADDR, CALL, ...)                         \
  struct dftracer_io_call C;                                                   \
  uint64_t Hash;                                                               \
  int Ret;                                                                     \
  if (DFT_LIKELY(!dftracer_io_on(MPIIO)) || !(Hash = (HASH)) ||                \
      !dftracer_io_begin(&C, MPIIO, #NAME, Hash))                              \
    return CALL;                                                               \
  Ret = CALL;                                                                  \
  DFT_IO_END_ALIGNED(&C, ADDR, __VA_ARGS__);                                   \
  return Ret
#define HASH_CALL(NAME, HASH, CALL, ...)                                       \
  HASH_CALL_ALIGNED(NAME, HASH, 0, CALL, __VA_ARGS__)

/* A call on file FH. */
#define FILE_CALL(NAME, FH, CALL, ...)                                         \
  HASH_CALL(NAME, fileHash(FH, 0), CALL, __VA_ARGS__)

/* A read or write of COUNT items of TYPE at BUF. */
#define DATA_CALL(NAME, FH, BUF, COUNT, TYPE, CALL)                            \
  HASH_CALL_ALIGNED(NAME, fileHash(FH, 0), (uintptr_t)(BUF), CALL,           \
                    DFT_ARG(count, COUNT),                                     \
                    DFT_ARG(bytes, bytesOf(Caller, Ret, COUNT, TYPE)),         \
                    DFT_ARG(ret, Ret))
#define DATA_AT_CALL(NAME, FH, OFFSET, BUF, COUNT, TYPE, CALL)                 \
  HASH_CALL_ALIGNED(NAME, fileHash(FH, 0), (uintptr_t)(BUF), CALL,           \
                    DFT_ARG(count, COUNT),                                     \
                    DFT_ARG(bytes, bytesOf(Caller, Ret, COUNT, TYPE)),         \
                    DFT_ARG(offset, OFFSET), DFT_ARG(ret, Ret))

/* The handles of a wrapper's words. */
#define COMM(W) dftracer_mpi_comm_(W)
#define INFO(W) dftracer_mpi_info_(W)
#define FILE_OF(W) dftracer_mpi_file_(W)
#define TYPE(W) dftracer_mpi_type_(W)

/* --- Opening and closing ------------------------------------------------- */

DECLARE_SLOT(MPI_Comm_size);
DECLARE_SLOT(MPI_Error_class);

/* The size of the communicator a file was opened on (or failed to open
 * on: a missing file, a denied access), asked after the open, which has
 * checked the communicator: MPI_Comm_size on an invalid one raises on
 * MPI_COMM_WORLD, whose default is to abort, where the open only returned
 * MPI_ERR_COMM (a file's errors return). ROMIO and Open MPI's ompio check
 * the communicator before any other argument, so an open that failed with
 * another class had a valid one. 0: MPI_COMM_NULL, or an open that failed
 * with MPI_ERR_COMM (or whose error class MPI cannot give). */
static int commSize(const void *Caller, int Ret, MPI_Comm Comm) {
  int Size = 0, Class = MPI_SUCCESS;
  if (Comm == MPI_COMM_NULL)
    return 0;
  if (Ret != MPI_SUCCESS &&
      (HELPER_OR_FAIL(MPI_Error_class, Ret, &Class) != MPI_SUCCESS ||
       Class == MPI_ERR_COMM))
    return 0;
  if (HELPER_OR_FAIL(MPI_Comm_size, Comm, &Size) != MPI_SUCCESS)
    return 0;
  return Size;
}

int DFT_MPI_NAME(MPI_File_open)(const void *Caller, void *Real,
                                dft_mpi_word CommW, const char *filename,
                                int amode, dft_mpi_word InfoW, void *FhP) {
  struct dftracer_io_call C;
  struct dftracer_tune_mpiio T;
  uint64_t Hash;
  int Ret, Size = 0, Tuned = 0, Busy;
  MPI_Comm comm = COMM(CommW);
  MPI_Info info = INFO(InfoW), Info = info;
  MPI_File *fh = (MPI_File *)FhP;
  if (DFT_LIKELY(!dftracer_io_on(MPIIO)))
    return REAL(MPI_File_open)(comm, filename, amode, info, fh);
  dftracer_probe_rank_(); /* MPI is up: an unannotated program's rank */
  Hash = dftracer_io_path_hash(AT_FDCWD, stripPrefix(filename));
  if (!Hash)
    return REAL(MPI_File_open)(comm, filename, amode, info, fh);
  /* DFTRACER_TUNE's hints go into a duplicate of info (tune_mpiio.h). */
  if (DFT_UNLIKELY(dftracer_tune_lists_)) {
    Busy = dftracer_busy_enter();
    Tuned = dftracer_tune_mpiio_before(stripPrefix(filename), info, &Info, &T);
    dftracer_busy_leave(Busy);
  }
  if (!dftracer_io_begin(&C, MPIIO, "MPI_File_open", Hash)) {
    Ret = REAL(MPI_File_open)(comm, filename, amode, Info, fh);
    Hash = 0; /* no event: the tuning records are not written either */
  } else {
    Ret = REAL(MPI_File_open)(comm, filename, amode, Info, fh);
    if (Ret == MPI_SUCCESS)
      remember(*fh, Hash);
    Size = commSize(Caller, Ret, comm);
    DFT_IO_END(&C, DFT_ARG(amode, amode), DFT_ARG(comm_size, Size),
               DFT_ARG(ret, Ret));
  }
  Busy = dftracer_busy_enter();
  /* The hints in effect, after the event (mpiio_hints.h); the calls the
   * runtime makes for them are not traced. */
  if (Hash && Ret == MPI_SUCCESS)
    dftracer_mpiio_hints(Hash, *fh, Size, amode);
  if (Tuned)
    dftracer_tune_mpiio_after(Hash, Ret == MPI_SUCCESS ? *fh : MPI_FILE_NULL,
                              &T);
  dftracer_busy_leave(Busy);
  return Ret;
}

int DFT_MPI_NAME(MPI_File_close)(const void *Caller, void *Real, void *FhP) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret;
  MPI_File *fh = (MPI_File *)FhP;
  (void)Caller;
  if (DFT_LIKELY(!dftracer_io_on(MPIIO)) || !fh ||
      !(Hash = fileHash(*fh, 1)) ||
      !dftracer_io_begin(&C, MPIIO, "MPI_File_close", Hash))
    return REAL(MPI_File_close)(fh);
  Ret = REAL(MPI_File_close)(fh);
  DFT_IO_END(&C, DFT_ARG(ret, Ret));
  return Ret;
}

int DFT_MPI_NAME(MPI_File_delete)(const void *Caller, void *Real,
                                  const char *filename, dft_mpi_word InfoW) {
  struct dftracer_io_call C;
  uint64_t Hash;
  int Ret;
  MPI_Info info = INFO(InfoW);
  (void)Caller;
  if (DFT_LIKELY(!dftracer_io_on(MPIIO)) ||
      !(Hash = dftracer_io_path_hash(AT_FDCWD, stripPrefix(filename))) ||
      !dftracer_io_begin(&C, MPIIO, "MPI_File_delete", Hash))
    return REAL(MPI_File_delete)(filename, info);
  Ret = REAL(MPI_File_delete)(filename, info);
  DFT_IO_END(&C, DFT_ARG(ret, Ret));
  return Ret;
}

/* --- File state ----------------------------------------------------------- */

int DFT_MPI_NAME(MPI_File_set_size)(const void *Caller, void *Real,
                                    dft_mpi_word FhW, long long size) {
  MPI_File fh = FILE_OF(FhW);
  (void)Caller;
  FILE_CALL(MPI_File_set_size, fh, REAL(MPI_File_set_size)(fh, size),
            DFT_ARG(size, size), DFT_ARG(ret, Ret));
}

int DFT_MPI_NAME(MPI_File_sync)(const void *Caller, void *Real,
                                dft_mpi_word FhW) {
  MPI_File fh = FILE_OF(FhW);
  (void)Caller;
  FILE_CALL(MPI_File_sync, fh, REAL(MPI_File_sync)(fh), DFT_ARG(ret, Ret));
}

int DFT_MPI_NAME(MPI_File_set_view)(const void *Caller, void *Real,
                                    dft_mpi_word FhW, long long disp,
                                    dft_mpi_word EtypeW,
                                    dft_mpi_word FiletypeW,
                                    const char *datarep, dft_mpi_word InfoW) {
  struct dftracer_io_call C;
  struct dftracer_mpiio_view View;
  uint64_t Hash;
  int Ret, Known = 0;
  MPI_File fh = FILE_OF(FhW);
  MPI_Datatype etype = TYPE(EtypeW), filetype = TYPE(FiletypeW);
  MPI_Info info = INFO(InfoW);
  (void)Caller;
  if (DFT_LIKELY(!dftracer_io_on(MPIIO)) || !(Hash = fileHash(fh, 0)) ||
      !dftracer_io_begin(&C, MPIIO, "MPI_File_set_view", Hash))
    return REAL(MPI_File_set_view)(fh, disp, etype, filetype, datarep, info);
  Ret = REAL(MPI_File_set_view)(fh, disp, etype, filetype, datarep, info);
  if (Ret == MPI_SUCCESS) {
    int Busy = dftracer_busy_enter();
    Known = dftracer_mpiio_view_facts(etype, filetype, &View);
    dftracer_busy_leave(Busy);
  }
  if (Known)
    DFT_IO_END(&C, DFT_ARG(offset, disp), DFT_ARG(etype_size, View.EtypeSize),
               DFT_ARG(filetype_size, View.FiletypeSize),
               DFT_ARG(filetype_extent, View.FiletypeExtent),
               DFT_ARG(contiguous, View.Contiguous), DFT_ARG(ret, Ret));
  else
    DFT_IO_END(&C, DFT_ARG(offset, disp), DFT_ARG(ret, Ret));
  return Ret;
}

int DFT_MPI_NAME(MPI_File_seek)(const void *Caller, void *Real,
                                dft_mpi_word FhW, long long offset,
                                int whence) {
  MPI_File fh = FILE_OF(FhW);
  (void)Caller;
  FILE_CALL(MPI_File_seek, fh, REAL(MPI_File_seek)(fh, offset, whence),
            DFT_ARG(offset, offset), DFT_ARG(whence, whence),
            DFT_ARG(ret, Ret));
}

int DFT_MPI_NAME(MPI_File_seek_shared)(const void *Caller, void *Real,
                                       dft_mpi_word FhW, long long offset,
                                       int whence) {
  MPI_File fh = FILE_OF(FhW);
  (void)Caller;
  FILE_CALL(MPI_File_seek_shared, fh,
            REAL(MPI_File_seek_shared)(fh, offset, whence),
            DFT_ARG(offset, offset), DFT_ARG(whence, whence),
            DFT_ARG(ret, Ret));
}

/* --- Data ----------------------------------------------------------------- */

/* At the file pointer (individual, shared or ordered), blocking (LAST:
 * MPI_Status *) or not (MPI_Request *). */
#define DFT_MPI_RW(N, BUF_T)                                                   \
  int DFT_MPI_NAME(N)(const void *Caller, void *Real, dft_mpi_word FhW,        \
                      BUF_T buf, int count, dft_mpi_word TypeW, void *last) {  \
    MPI_File fh = FILE_OF(FhW);                                                \
    MPI_Datatype datatype = TYPE(TypeW);                                       \
    DATA_CALL(N, fh, buf, count, datatype,                                     \
              REAL(N)(fh, buf, count, datatype, last));                        \
  }
/* At an explicit offset. */
#define DFT_MPI_RW_AT(N, BUF_T)                                                \
  int DFT_MPI_NAME(N)(const void *Caller, void *Real, dft_mpi_word FhW,        \
                      long long offset, BUF_T buf, int count,                  \
                      dft_mpi_word TypeW, void *last) {                        \
    MPI_File fh = FILE_OF(FhW);                                                \
    MPI_Datatype datatype = TYPE(TypeW);                                       \
    DATA_AT_CALL(N, fh, offset, buf, count, datatype,                          \
                 REAL(N)(fh, offset, buf, count, datatype, last));             \
  }
#define DFT_MPI_FN(N, PARAMS, ...) /* defined above */
#include "mpi_functions.def"
