/*===- mpi_rank.h - MPI rank without linking MPI --------------------------===*
 *
 * The library must link into serial programs, so it references MPI only
 * through weak symbols: in a program linked with MPI they resolve to the MPI
 * library, elsewhere they are NULL and the rank is "unknown".
 *
 *===----------------------------------------------------------------------===*/
#ifndef DFTRACER_RUNTIME_MPI_RANK_H
#define DFTRACER_RUNTIME_MPI_RANK_H

/* The rank in MPI_COMM_WORLD, or -1 when MPI is absent, not initialised yet,
 * or already finalised. *Never is set to 1 when asking again is pointless
 * (no MPI in the process, or MPI finalised). Call from the thread that
 * initialised MPI. The first time it is known, the job's size and MPI's
 * version are reported too (run_config.h: MPI_JOB, VERSION). */
int dftracer_mpi_rank(int *Never);

#endif
