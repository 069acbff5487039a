#include <stdio.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

/* MPI only when USE_MPI is defined (--variant=-DUSE_MPI). INIT cannot go
 * right after an MPI_Init under #ifdef (the other configuration would have
 * no START), nor END and FINI right before an MPI_Finalize under #ifdef:
 * INIT goes after the #endif of the block that starts MPI and END+FINI
 * before the #ifdef of the block that stops it, in every configuration. */
static int compute(int rank)
{
    if (rank < 0)
        return -1;
    printf("rank %d\n", rank);
    return rank + 1;
}

static void mark(void)
{
    fflush(stdout);
}

int main(int argc, char **argv)
{
    int rank = 0;
#ifdef USE_MPI
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#else
    (void)argc;
    (void)argv;
#endif
    int rc = compute(rank);
    mark();
#ifdef USE_MPI
    MPI_Finalize();
#endif
    return rc > 0 ? 0 : 1;
}
