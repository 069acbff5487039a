#include <mpi.h>

struct io_stats {
    double seconds;
    long long bytes;
};

static struct io_stats measure(MPI_File fh)
{
    struct io_stats s;
    MPI_Offset size;

    s.seconds = MPI_Wtime();
    MPI_File_get_size(fh, &size);
    s.bytes = (long long)size;
    return s;
}

/* Syncs the file, then measures it. */
struct io_stats timed_sync(MPI_File fh)
{
    MPI_File_sync(fh);
    return measure(fh);
}
