#include <mpi.h>
#include <dftracer/dftracer.h>

struct io_stats {
    double seconds;
    long long bytes;
};

static struct io_stats measure(MPI_File fh)
{
    DFTRACER_C_FUNCTION_START();
    struct io_stats s;
    MPI_Offset size;

    s.seconds = MPI_Wtime();
    MPI_File_get_size(fh, &size);
    s.bytes = (long long)size;
    DFTRACER_C_FUNCTION_END();
    return s;
}

/* Syncs the file, then measures it. */
struct io_stats timed_sync(MPI_File fh)
{
    DFTRACER_C_FUNCTION_START();
    MPI_File_sync(fh);
    { struct io_stats annotate_ret = (measure(fh)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
