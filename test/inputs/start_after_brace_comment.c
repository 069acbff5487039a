#include <mpi.h>

int world_rank(void)
{   /* rank in MPI_COMM_WORLD, valid after MPI_Init */
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

int world_size(void) { // number of ranks
    int size;

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
}
