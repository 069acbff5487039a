#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

/* The benchmark proper; main only forwards to it, as IOR does. */
int ior_main(int argc, char **argv)
{
    DFTRACER_C_FUNCTION_START();
    int rank;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        printf("%s: %d arguments\n", argv[0], argc - 1);
    MPI_Finalize();
    DFTRACER_C_FUNCTION_END();
    return 0;
}

int main(int argc, char **argv)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (ior_main(argc, argv)); DFTRACER_C_FUNCTION_END(); DFTRACER_C_FINI(); return annotate_ret; }
}
