#include <stdio.h>
#include <mpi.h>

/* The benchmark proper; main only forwards to it, as IOR does. */
int ior_main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("%s: %d arguments\n", argv[0], argc - 1);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    return ior_main(argc, argv);
}
