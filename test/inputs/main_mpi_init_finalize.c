#include <stdio.h>
#include <mpi.h>

static void run_benchmark(int rank, int nranks)
{
    printf("rank %d of %d\n", rank, nranks);
}

int main(int argc, char **argv)
{
    int rank, nranks;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    run_benchmark(rank, nranks);
    MPI_Finalize();
}
