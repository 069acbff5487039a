#include "mpi_rank.h"

#include <stddef.h>

/* Declared with the generic function type on purpose: the real prototypes
 * live in mpi.h, which this library must not need, and MPI_Comm differs
 * between implementations (an int in MPICH, a pointer in Open MPI). Casting
 * from void (*)(void) to the real type is the documented way to do that
 * without -Wcast-function-type warnings. */
extern void MPI_Initialized(void) __attribute__((weak));
extern void MPI_Finalized(void) __attribute__((weak));
extern void MPI_Comm_rank(void) __attribute__((weak));
/* Open MPI's MPI_COMM_WORLD is the address of this object. */
extern char ompi_mpi_comm_world[] __attribute__((weak));

typedef int (*FlagFn)(int *);
typedef int (*RankIntFn)(int, int *);
typedef int (*RankPtrFn)(void *, int *);

/* MPICH (and its derivatives: Intel MPI, MVAPICH, Cray MPICH) define
 * MPI_COMM_WORLD as this integer handle. */
enum { MpichCommWorld = 0x44000000 };

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
  } else if (RankOfInt(MpichCommWorld, &Rank) != 0) {
    return -1;
  }
  return Rank;
}
