#include <stddef.h>
#include <mpi.h>
#include <dftracer/dftracer.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

static int comm_size(MPI_Comm comm)
{
    DFTRACER_C_FUNCTION_START();
    int n;

    MPI_Comm_size(comm, &n);
    DFTRACER_C_FUNCTION_END();
    return n;
}

/* Bytes each rank writes when `total` bytes are split over the communicator. */
size_t bytes_per_rank(MPI_Comm comm, size_t total)
{
    DFTRACER_C_FUNCTION_START();
    { size_t annotate_ret = (CEIL_DIV(total, (size_t)comm_size(comm))); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
