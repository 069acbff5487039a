#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

static void run_benchmark(int rank, int nranks)
{
    DFTRACER_C_FUNCTION_START();
    printf("rank %d of %d\n", rank, nranks);
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    int rank, nranks;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    run_benchmark(rank, nranks);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
}
