#include <stdio.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

#define ON_MPI_ERROR(rc, action)                                               \
    do {                                                                       \
        if ((rc) != MPI_SUCCESS) {                                             \
            fprintf(stderr, "MPI error %d at %s:%d\n", (rc), __FILE__,         \
                    __LINE__);                                                 \
            action;                                                            \
        }                                                                      \
    } while (0)

/* Opens the shared file for reading on every rank of `comm`. */
int open_shared(MPI_Comm comm, const char *path, MPI_File *fh)
{
    DFTRACER_C_FUNCTION_START();
    int rc = MPI_File_open(comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, fh);

    ON_MPI_ERROR(rc, return rc);
    DFTRACER_C_FUNCTION_END();
    return MPI_SUCCESS;
}
