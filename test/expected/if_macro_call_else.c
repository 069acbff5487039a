#include <stdio.h>
#include <stdlib.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

/* Prints a located message and returns the exit code for MPI_Abort. */
static int report(const char *msg, const char *file, int line)
{
    DFTRACER_C_FUNCTION_START();
    fprintf(stderr, "ERROR: %s (%s:%d)\n", msg, file, line);
    DFTRACER_C_FUNCTION_END();
    return EXIT_FAILURE;
}

/* IOR-style fatal error: report, then abort every rank. */
#define ERR(MSG)                                                               \
    MPI_Abort(MPI_COMM_WORLD, report((MSG), __FILE__, __LINE__))

int main(int argc, char **argv)
{
    MPI_File fh;

    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (MPI_File_open(MPI_COMM_WORLD, argc > 1 ? argv[1] : "testfile",
                      MPI_MODE_RDONLY, MPI_INFO_NULL, &fh) != MPI_SUCCESS) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        ERR("cannot open the test file"
            " for reading");
    }
    else
        MPI_File_close(&fh);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
