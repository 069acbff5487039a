/*===- mpi_dispatch.c - The exported MPI_File_* functions, for any ABI ----===*
 *
 * The functions the program's MPI-IO calls reach (mpi_abi.h). Written
 * without mpi.h: each handle is a word (mpi_functions.def). Each finds its
 * real PMPI_File_* function for its caller (real_symbol.h: also in a
 * library loaded with RTLD_LOCAL), then hands the call to the copy of the
 * layer for the ABI of the library that defines it (mpiio.c compiled for
 * MPICH's or Open MPI's mpi.h: dftracer_mpich_*, dftracer_ompi_*), or,
 * when this build has no copy for it, calls the real function with the
 * words as they came (mpi_abi.c said why, once). The copies are
 * compiled in when DFTRACER_MPIIO_MPICH and DFTRACER_MPIIO_OMPI are set
 * (runtime/CMakeLists.txt).
 *
 * A real function no loaded library defines makes the call fail with
 * MPI_ERR_OTHER (said once by real_symbol.c), as the layer always did.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "mpi_abi.h"

#include "io_core.h"
#include "real_symbol.h"
#include "tune_mpiio.h"

#if !defined(DFTRACER_MPIIO_MPICH) && !defined(DFTRACER_MPIIO_OMPI)
#error "the MPI-IO layer is built for MPICH's ABI, Open MPI's, or both"
#endif

/* --- The copies' entry points -------------------------------------------- */

#define DECLARE_COPY(F)                                                        \
  extern const int dftracer_##F##_err_other DFT_HIDDEN;                        \
  int dftracer_##F##_tune_mpiio_fapl(const char *, int64_t) DFT_HIDDEN;        \
  void dftracer_##F##_tune_mpiio_fapl_done(uint64_t, int64_t) DFT_HIDDEN;      \
  void dftracer_##F##_tune_mpiio_fapl_cancel(void) DFT_HIDDEN;
#ifdef DFTRACER_MPIIO_MPICH
DECLARE_COPY(mpich)
#define DFT_MPI_FN(N, PARAMS, ...)                                             \
  int dftracer_mpich_##N(const void *Caller, void *Real,                       \
                         DFT_MPI_UNPAREN PARAMS) DFT_HIDDEN;
#include "mpi_functions.def"
#define IF_MPICH(...) __VA_ARGS__
#else
#define IF_MPICH(...)
#endif
#ifdef DFTRACER_MPIIO_OMPI
DECLARE_COPY(ompi)
#define DFT_MPI_FN(N, PARAMS, ...)                                             \
  int dftracer_ompi_##N(const void *Caller, void *Real,                        \
                        DFT_MPI_UNPAREN PARAMS) DFT_HIDDEN;
#include "mpi_functions.def"
#define IF_OMPI(...) __VA_ARGS__
#else
#define IF_OMPI(...)
#endif

/* The failure of a call whose real function no library defines: there is
 * no MPI to ask, so the first copy's MPI_ERR_OTHER. */
#ifdef DFTRACER_MPIIO_MPICH
#define ERR_OTHER dftracer_mpich_err_other
#else
#define ERR_OTHER dftracer_ompi_err_other
#endif

int dftracer_mpi_abi_built(enum dftracer_mpi_abi Abi) {
  IF_MPICH(if (Abi == DftMpiMpich) return 1;)
  IF_OMPI(if (Abi == DftMpiOmpi) return 1;)
  return 0;
}

/* --- The wrappers -------------------------------------------------------- */

/* io_symbols.def's MPI-IO list and mpi_functions.def name the same
 * functions (the names are checked by runtime.io_symbols_documented and
 * the e2e kernels' imports; here, their number). */
enum {
  ListedInIoSymbols = 0
#define DFT_MPIIO(N) +1
#include "io_symbols.def"
  ,
  DefinedHere = 0
#define DFT_MPI_FN(N, PARAMS, ...) +1
#include "mpi_functions.def"
};
_Static_assert(ListedInIoSymbols == DefinedHere,
               "io_symbols.def and mpi_functions.def list the same MPI-IO "
               "functions");

/* Each layer's object holds one of these (io_core.c refers to them, so a
 * static link takes the layer along). */
const char dftracer_mpiio_layer_[] DFT_HIDDEN = "mpiio";

void dftracer_probe_rank_(void);

/* A call passed through: MPI is up, so an unannotated program's rank is
 * recorded all the same (as the copies do at MPI_File_open). */
static void passedThrough(void) {
  if (dftracer_io_on(DftLayerMpiio))
    dftracer_probe_rank_();
}

#pragma GCC visibility push(default)

#define DFT_MPI_FN(N, PARAMS, ...)                                             \
  static void *RealSlot_##N;                                                   \
  int N PARAMS {                                                               \
    const void *Caller = __builtin_return_address(0);                          \
    void *Real =                                                               \
        dftracer_real_for_caller(&RealSlot_##N, "P" #N, Caller, "MPIIO");      \
    if (!Real)                                                                 \
      return ERR_OTHER;                                                        \
    switch (dftracer_mpi_abi_of(Real)) {                                       \
      IF_MPICH(case DftMpiMpich                                                \
               : return dftracer_mpich_##N(Caller, Real, __VA_ARGS__);)        \
      IF_OMPI(case DftMpiOmpi                                                  \
              : return dftracer_ompi_##N(Caller, Real, __VA_ARGS__);)          \
    default: /* not this build's: the words go through as they came */         \
      passedThrough();                                                         \
      return ((int(*) PARAMS)Real)(__VA_ARGS__);                               \
    }                                                                          \
  }
#include "mpi_functions.def"

#pragma GCC visibility pop

/* --- The HDF5 layer's tuning through an mpio FAPL (tune_mpiio.h) ---------- */

/* A copy's entry points for the HDF5 layer; NULL: no copy for the ABI. */
struct faplCopy {
  int (*Fapl)(const char *, int64_t);
  void (*Done)(uint64_t, int64_t);
  void (*Cancel)(void);
};
static const struct faplCopy *faplCopy(enum dftracer_mpi_abi Abi) {
  IF_MPICH(static const struct faplCopy Mpich =
               {dftracer_mpich_tune_mpiio_fapl,
                dftracer_mpich_tune_mpiio_fapl_done,
                dftracer_mpich_tune_mpiio_fapl_cancel};
           if (Abi == DftMpiMpich) return &Mpich;)
  IF_OMPI(static const struct faplCopy Ompi =
              {dftracer_ompi_tune_mpiio_fapl,
               dftracer_ompi_tune_mpiio_fapl_done,
               dftracer_ompi_tune_mpiio_fapl_cancel};
          if (Abi == DftMpiOmpi) return &Ompi;)
  return NULL;
}

/* The copy that took the FAPL's settings, for _done and _cancel. */
static _Thread_local const struct faplCopy *Fapl;

int dftracer_tune_mpiio_fapl(const char *Path, int64_t Copy) {
  Fapl = faplCopy(dftracer_mpi_abi_loaded());
  return Fapl ? Fapl->Fapl(Path, Copy) : 0; /* no copy: nothing changes */
}

void dftracer_tune_mpiio_fapl_done(uint64_t Fhash, int64_t File) {
  if (Fapl)
    Fapl->Done(Fhash, File);
}

void dftracer_tune_mpiio_fapl_cancel(void) {
  if (Fapl)
    Fapl->Cancel();
}
