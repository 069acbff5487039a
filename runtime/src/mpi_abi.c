/*===- mpi_abi.c - Which MPI the process runs -----------------------------===*
 *
 * The ABI of the MPI library that defines the real PMPI_File_* functions,
 * decided once per process at the first MPI-IO call (mpi_abi.h):
 *
 *  - Open MPI: the library defines `ompi_mpi_comm_world` (the object whose
 *    address is Open MPI's MPI_COMM_WORLD, in every release since 1.0);
 *  - MPICH's ABI: MPI_Get_library_version (callable at any time, MPI 3.0
 *    8.1.1) names MPICH or a derivative that keeps its ABI (MVAPICH,
 *    Intel MPI, Cray MPICH: "CRAY MPICH");
 *  - anything else is passed through untouched.
 *
 * Both are asked in the lookup scope of the object that defines the real
 * function, so a libmpi loaded with RTLD_LOCAL is classified as its
 * callers see it. An ABI this build has no copy of the layer for is said
 * once, tracing on: stderr and a `layer_bypassed` record (layer_check.h),
 * with how to build for it.
 *
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "mpi_abi.h"

#include "busy.h"
#include "config.h"
#include "layer_check.h"
#include "real_symbol.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int Abi; /* enum dftracer_mpi_abi, atomic; DftMpiUnknown: not yet */
static pthread_mutex_t Lock = PTHREAD_MUTEX_INITIALIZER;

/* MPI_MAX_LIBRARY_VERSION_STRING: 8192 in MPICH, 256 in Open MPI. */
enum { VersionMax = 8192 };
static char Version[VersionMax + 1]; /* under Lock */

const char *dftracer_mpi_abi_name(enum dftracer_mpi_abi A) {
  switch (A) {
  case DftMpiMpich:
    return "MPICH";
  case DftMpiOmpi:
    return "Open MPI";
  case DftMpiOther:
    return "an MPI";
  default:
    return "no MPI";
  }
}

/* Symbol in the lookup scope of the object holding Fn (it and its
 * dependencies); the global scope when that object cannot be opened by
 * name (the main program). */
static void *besideOf(const void *Fn, const char *Symbol, Dl_info *Info) {
  void *H, *S;
  if (!dladdr(Fn, Info) || !Info->dli_fname || !*Info->dli_fname ||
      !(H = dlopen(Info->dli_fname, RTLD_NOLOAD | RTLD_LAZY)))
    return dlsym(RTLD_DEFAULT, Symbol);
  S = dlsym(H, Symbol);
  dlclose(H); /* the reference NOLOAD took */
  return S;
}

typedef int (*VersionFn)(char *, int *);

static enum dftracer_mpi_abi classify(const void *Real, Dl_info *Info) {
  VersionFn GetVersion;
  int Len = 0;
  Version[0] = '\0';
  if (besideOf(Real, "ompi_mpi_comm_world", Info))
    return DftMpiOmpi;
  GetVersion = (VersionFn)besideOf(Real, "PMPI_Get_library_version", Info);
  if (GetVersion && GetVersion(Version, &Len) == 0 && Len >= 0 &&
      Len <= VersionMax)
    Version[Len] = '\0';
  else
    Version[0] = '\0';
  /* The first line: "MPICH Version: 4.0.2", "MVAPICH2 Version ...",
   * "Intel(R) MPI Library 2021.6 ...", "MPI VERSION : CRAY MPICH ...". */
  Version[strcspn(Version, "\r\n")] = '\0';
  if (strstr(Version, "MPICH") || strstr(Version, "MVAPICH") ||
      strstr(Version, "Intel(R) MPI"))
    return DftMpiMpich;
  return DftMpiOther;
}

/* Said once, when the process's MPI has no copy of the layer. */
static void sayUntraced(enum dftracer_mpi_abi A, const Dl_info *Info) {
  const struct dftracer_config *Config = &dftracer_process_.Config;
  char Why[1536], Fix[1024];
  const char *Library =
      Info->dli_fname && *Info->dli_fname ? Info->dli_fname : "the program";
  const char *Built =
      dftracer_mpi_abi_built(DftMpiMpich)
          ? (dftracer_mpi_abi_built(DftMpiOmpi) ? "MPICH's and Open MPI's ABIs"
                                                : "MPICH's ABI only")
          : "Open MPI's ABI only";
  if (!Config->Enable || !(Config->IoLayers & DftLayerMpiio))
    return; /* untraced, the runtime stays silent */
  if (A == DftMpiOther) {
    snprintf(Why, sizeof(Why),
             "the program's MPI (%.1000s%s%.200s%s) has neither MPICH's ABI "
             "nor Open "
             "MPI's, and this runtime's MPI-IO layer is built for %s: its "
             "calls pass straight through",
             Library, Version[0] ? ": \"" : "", Version, Version[0] ? "\"" : "",
             Built);
    snprintf(Fix, sizeof(Fix),
             "none in this runtime: trace this MPI's I/O at the POSIX layer "
             "(docs/runtime.md, MPI-IO on MPICH and Open MPI)");
  } else {
    snprintf(Why, sizeof(Why),
             "the program runs %s (%.1000s) and this runtime's MPI-IO layer is "
             "built for %s: its calls pass straight through",
             dftracer_mpi_abi_name(A), Library, Built);
    snprintf(
        Fix, sizeof(Fix),
        "configure the runtime with -DDFTRACER_MPI_OTHER_INCLUDE_DIRS=\"%s\" "
        "and rebuild (docs/runtime.md, MPI-IO on MPICH and Open MPI)",
        A == DftMpiOmpi ? "$(mpicc.openmpi -showme:incdirs)"
                        : "<the directory of MPICH's mpi.h, from "
                          "mpicc.mpich -show>");
  }
  dftracer_layer_not_traced(DftLayerMpiio, "MPI_File_open", Library, Why, Fix);
}

enum dftracer_mpi_abi dftracer_mpi_abi_of(void *Real) {
  int A = __atomic_load_n(&Abi, __ATOMIC_ACQUIRE);
  Dl_info Info;
  int Busy;
  if (DFT_LIKELY(A != DftMpiUnknown))
    return (enum dftracer_mpi_abi)A;
  Busy = dftracer_busy_enter(); /* MPI's own I/O here is not traced */
  pthread_mutex_lock(&Lock);
  A = __atomic_load_n(&Abi, __ATOMIC_ACQUIRE);
  if (A == DftMpiUnknown) {
    memset(&Info, 0, sizeof(Info));
    A = classify(Real, &Info);
    __atomic_store_n(&Abi, A, __ATOMIC_RELEASE);
    if (!dftracer_mpi_abi_built((enum dftracer_mpi_abi)A))
      sayUntraced((enum dftracer_mpi_abi)A, &Info);
  }
  pthread_mutex_unlock(&Lock);
  dftracer_busy_leave(Busy);
  return (enum dftracer_mpi_abi)A;
}

enum dftracer_mpi_abi dftracer_mpi_abi_loaded(void) {
  int A = __atomic_load_n(&Abi, __ATOMIC_ACQUIRE);
  void *Real;
  if (A != DftMpiUnknown)
    return (enum dftracer_mpi_abi)A;
  Real = dlsym(RTLD_DEFAULT, "PMPI_File_open");
  if (!Real)
    Real = dftracer_real_find_loaded("PMPI_File_open");
  return Real ? dftracer_mpi_abi_of(Real) : DftMpiUnknown;
}
