#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    FILE *fp;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    fp = fopen(argc > 1 ? argv[1] : "out.dat", "w");
    if (fp == NULL) { /* annotate */ DFTRACER_C_FUNCTION_END(); DFTRACER_C_FINI(); exit(EXIT_FAILURE); }
    if (fputs("header\n", fp) < 0) {
        fclose(fp);
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fclose(fp);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
