#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (argc < 2) {
            fprintf(stderr, "usage: %s CONFIG\n", argv[0]);
            DFTRACER_C_FUNCTION_END();
            DFTRACER_C_FINI();
            return EXIT_FAILURE;
        }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
