#include <mpi.h>
#include <dftracer/dftracer.h>

/* Whether the calling rank is rank 0 of the communicator. */
int is_root(MPI_Comm comm)
{
    DFTRACER_C_FUNCTION_START();
    int rank;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0) { /* annotate */ DFTRACER_C_FUNCTION_END(); return 1; } else { /* annotate */ DFTRACER_C_FUNCTION_END(); return 0; }
}
