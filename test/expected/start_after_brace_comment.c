#include <mpi.h>
#include <dftracer/dftracer.h>

int world_rank(void)
{   /* rank in MPI_COMM_WORLD, valid after MPI_Init */
    DFTRACER_C_FUNCTION_START();
    int rank;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    DFTRACER_C_FUNCTION_END();
    return rank;
}

int world_size(void) { // number of ranks
    DFTRACER_C_FUNCTION_START();
    int size;

    MPI_Comm_size(MPI_COMM_WORLD, &size);
    DFTRACER_C_FUNCTION_END();
    return size;
}
