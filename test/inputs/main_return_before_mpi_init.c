#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int rank;

    if (argc < 2)
        return 1;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("output: %s\n", argv[1]);
    MPI_Finalize();
    return 0;
}
