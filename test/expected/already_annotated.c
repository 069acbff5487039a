#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

/* Writes one line per rank; annotated by an earlier run of annotate. */
static int write_line(FILE *fp, int rank)
{
    DFTRACER_C_FUNCTION_START();
    if (fp == NULL) {
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    { int annotate_ret = (fprintf(fp, "rank %d\n", rank)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

int main(int argc, char **argv)
{
    int rank;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "demo");
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    write_line(stdout, rank);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
