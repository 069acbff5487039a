#include <stdio.h>
#ifndef HPCG_NO_MPI
#include <mpi.h>
#endif

/* MPI is optional, as in HPCG (HPCG_NO_MPI) and LULESH (USE_MPI): the
 * block that starts MPI and the block that stops it are compiled in one
 * configuration only (--variant=-DHPCG_NO_MPI plans the other). INIT and
 * START go after the #endif of the first, END and FINI before the #ifndef
 * of the second: right in both configurations, and the tracer starts once
 * MPI is up, ending before MPI goes down. */
static int solve(int rank, int size)
{
    printf("rank %d of %d\n", rank, size);
    return rank < size ? 0 : 1;
}

static void mark(void)
{
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int rank = 0, size = 1;

#ifndef HPCG_NO_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#else
    (void)argc;
    (void)argv;
#endif /* HPCG_NO_MPI */

    int ierr = solve(rank, size);
    mark();
    if (ierr != 0)
        return ierr;
    mark();

#ifndef HPCG_NO_MPI
    MPI_Finalize();
#endif
    return 0;
}
