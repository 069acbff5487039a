#include <stddef.h>
#include <mpi.h>

#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

static int comm_size(MPI_Comm comm)
{
    int n;

    MPI_Comm_size(comm, &n);
    return n;
}

/* Bytes each rank writes when `total` bytes are split over the communicator. */
size_t bytes_per_rank(MPI_Comm comm, size_t total)
{
    return CEIL_DIV(total, (size_t)comm_size(comm));
}
