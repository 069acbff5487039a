#include <stdio.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    int provided;

    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided); /* I/O thread only */
    if (provided < MPI_THREAD_FUNNELED)
        fprintf(stderr, "warning: MPI_THREAD_FUNNELED is not provided\n");
    MPI_Finalize();
    return 0;
}
