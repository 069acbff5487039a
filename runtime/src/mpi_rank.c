#include "mpi_rank.h"

#include "run_config.h"

#include <stddef.h>
#include <string.h>

/* Declared with the generic function type on purpose: the real prototypes
 * live in mpi.h, which this library must not need, and MPI_Comm differs
 * between implementations (an int in MPICH, a pointer in Open MPI). Casting
 * from void (*)(void) to the real type is the documented way to do that
 * without -Wcast-function-type warnings. */
extern void MPI_Initialized(void) __attribute__((weak));
extern void MPI_Finalized(void) __attribute__((weak));
extern void MPI_Comm_rank(void) __attribute__((weak));
extern void MPI_Comm_size(void) __attribute__((weak));
extern void MPI_Get_library_version(void) __attribute__((weak));
/* Open MPI's MPI_COMM_WORLD is the address of this object. */
extern char ompi_mpi_comm_world[] __attribute__((weak));

typedef int (*FlagFn)(int *);
typedef int (*RankIntFn)(int, int *);
typedef int (*RankPtrFn)(void *, int *);
typedef int (*VersionFn)(char *, int *);

/* MPICH (and its derivatives: Intel MPI, MVAPICH, Cray MPICH) define
 * MPI_COMM_WORLD as this integer handle. */
enum { MpichCommWorld = 0x44000000 };

/* MPI_MAX_LIBRARY_VERSION_STRING: 8192 in MPICH, 256 in Open MPI. */
enum { LibraryVersionMax = 8192 };

/* Without Open MPI's object, MPI_COMM_WORLD is MpichCommWorld only in an
 * MPI that keeps MPICH's ABI (MPICH, MVAPICH, Intel MPI, Cray MPICH: its
 * MPI_Get_library_version names one). Any other (an MPI with pointer
 * handles that is not Open MPI) is never given that integer. Asked once. */
static int mpichAbi(void) {
  static int Known = -1;
  static char Version[LibraryVersionMax + 1];
  VersionFn GetVersion = (VersionFn)MPI_Get_library_version;
  int Len = 0;
  if (Known >= 0)
    return Known;
  Known = 0;
  if (GetVersion && GetVersion(Version, &Len) == 0 && Len >= 0 &&
      Len <= LibraryVersionMax) {
    Version[Len] = '\0';
    Known = strstr(Version, "MPICH") || strstr(Version, "MVAPICH") ||
            strstr(Version, "Intel(R) MPI");
  }
  return Known;
}

/* The rank is known: the job's size and MPI's version go into the trace
 * (MPI_JOB, VERSION; run_config.h), once. MPI_Get_library_version may be
 * called at any time (MPI 3.0, 8.1.1). */
static void reportJob(int Rank, void *WorldPtr) {
  static int Reported;
  static char Version[LibraryVersionMax + 1];
  RankIntFn SizeOfInt = (RankIntFn)MPI_Comm_size;
  RankPtrFn SizeOfPtr = (RankPtrFn)MPI_Comm_size;
  VersionFn GetVersion = (VersionFn)MPI_Get_library_version;
  int Size = 0, Len = 0;
  if (Reported)
    return;
  Reported = 1;
  if (SizeOfInt && (WorldPtr ? SizeOfPtr(WorldPtr, &Size)
                             : SizeOfInt(MpichCommWorld, &Size)) != 0)
    Size = 0;
  if (GetVersion && GetVersion(Version, &Len) == 0 && Len >= 0 &&
      Len <= LibraryVersionMax)
    Version[Len] = '\0';
  else
    Version[0] = '\0'; /* no VERSION record of MPI */
  dftracer_run_config_mpi_job(Rank, Size, Version);
}

int dftracer_mpi_rank(int *Never) {
  /* Through variables: calling a cast of the function name directly makes
   * GCC warn about a call through a non-compatible type. */
  FlagFn Initialized = (FlagFn)MPI_Initialized;
  FlagFn Finalized = (FlagFn)MPI_Finalized;
  RankIntFn RankOfInt = (RankIntFn)MPI_Comm_rank;
  RankPtrFn RankOfPtr = (RankPtrFn)MPI_Comm_rank;
  int Flag = 0, Rank = -1;
  *Never = 0;
  if (!Initialized || !Finalized || !RankOfInt) {
    *Never = 1;
    return -1;
  }
  if (Initialized(&Flag) != 0 || !Flag)
    return -1;
  Flag = 0;
  if (Finalized(&Flag) != 0 || Flag) {
    *Never = 1;
    return -1;
  }
  if (ompi_mpi_comm_world != NULL) {
    if (RankOfPtr((void *)ompi_mpi_comm_world, &Rank) != 0)
      return -1;
  } else if (!mpichAbi()) {
    *Never = 1; /* handles the runtime does not know */
    return -1;
  } else if (RankOfInt(MpichCommWorld, &Rank) != 0) {
    return -1;
  }
  reportJob(Rank, ompi_mpi_comm_world != NULL ? (void *)ompi_mpi_comm_world
                                              : NULL);
  return Rank;
}
