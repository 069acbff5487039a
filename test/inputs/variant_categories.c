#include <stdio.h>
#include <string.h>
#ifdef USE_MPI
#include <mpi.h>
#endif

/* --categories with --variant=-DUSE_MPI: what a function calls differs
 * between the two configurations, its category does not. It is the category
 * of everything the function calls in any configuration (the first of
 * categories.map that one of those callees matches), so each function gets
 * one START and one category update, the same in both. */
static double values[4] = {1, 2, 3, 4};

/* cpu alone, comm with USE_MPI: comm. */
static double total(void)
{
    double sum = 0;
    for (int i = 0; i < 4; ++i)
        sum += values[i];
#ifdef USE_MPI
    double all = 0;
    MPI_Allreduce(&sum, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    sum = all;
#endif
    return sum;
}

/* mem alone, comm with USE_MPI: comm, which comes before mem. */
static void share(double *to)
{
#ifdef USE_MPI
    MPI_Bcast(values, 4, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (int i = 0; i < 4; ++i)
        to[i] = values[i];
#else
    memcpy(to, values, sizeof values);
#endif
}

/* io alone, comm with USE_MPI: io, which comes before comm. */
static void report(double sum)
{
#ifdef USE_MPI
    MPI_Barrier(MPI_COMM_WORLD);
    (void)sum;
#else
    fprintf(stderr, "total %g\n", sum);
#endif
}

/* io in both. */
static void mark(void)
{
    fflush(stdout);
}

/* cpu alone, comm with USE_MPI (its MPI calls are under #ifdef: INIT and
 * START after the #endif of the block calling MPI_Init, END and FINI before
 * the #ifdef of the block calling MPI_Finalize: docs/rules.md, section 4). */
int main(int argc, char **argv)
{
#ifdef USE_MPI
    MPI_Init(&argc, &argv);
#else
    (void)argc;
    (void)argv;
#endif
    double copy[4];
    share(copy);
    mark();
    double sum = total();
    mark();
    report(sum + copy[0]);
    mark();
#ifdef USE_MPI
    MPI_Finalize();
#endif
    return 0;
}
