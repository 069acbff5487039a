#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

/* IOR's error check: report and abort every rank. */
#define MPI_CHECK(MPI_STATUS, MSG)                                             \
    do {                                                                       \
        if ((MPI_STATUS) != MPI_SUCCESS) {                                     \
            fprintf(stderr, "ERROR: %s (%s:%d)\n", (MSG), __FILE__, __LINE__); \
            MPI_Abort(MPI_COMM_WORLD, -1);                                     \
        }                                                                      \
    } while (0)

int main(int argc, char **argv)
{
    MPI_CHECK(MPI_Init(&argc, &argv), "cannot initialize MPI");
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD), "barrier failed");
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_CHECK(MPI_Finalize(), "cannot finalize MPI");
    return 0;
}
