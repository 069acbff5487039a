#include <mpi.h>

/* Whether the calling rank is rank 0 of the communicator. */
int is_root(MPI_Comm comm)
{
    int rank;

    MPI_Comm_rank(comm, &rank);
    if (rank == 0) return 1; else return 0;
}
