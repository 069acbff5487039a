/* ranks.c - each rank squares its number; rank 0 prints the sum. */
#include <mpi.h>
#include <stdio.h>

#include "ranks.h"

int ranks_square(int x)
{
    return x * x;
}

static int ranks_sum(int mine)
{
    int total = 0;
    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    return total;
}

int main(int argc, char **argv)
{
    int rank, total;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    total = ranks_sum(ranks_square(rank + 1));
    if (rank == 0)
        printf("sum of squares %d\n", total);
    MPI_Finalize();
    return 0;
}
