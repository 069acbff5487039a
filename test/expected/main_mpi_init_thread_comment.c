#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    int provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); /* I/O thread only */
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (provided < MPI_THREAD_FUNNELED)
        fprintf(stderr, "warning: MPI_THREAD_FUNNELED is not provided\n");
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
