#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>

int main(int argc, char **argv)
{
    FILE *fp;

    MPI_Init(&argc, &argv);
    fp = fopen(argc > 1 ? argv[1] : "out.dat", "w");
    if (fp == NULL) exit(EXIT_FAILURE);
    if (fputs("header\n", fp) < 0) {
        fclose(fp);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    fclose(fp);
    MPI_Finalize();
    return 0;
}
