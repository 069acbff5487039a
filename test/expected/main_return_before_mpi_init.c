#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    int rank;

    if (argc < 2)
        return 1;
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("output: %s\n", argv[1]);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
