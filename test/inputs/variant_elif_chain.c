#include <stdio.h>
#include <stdlib.h>

/* Three configurations (no flag, --variant=-DIO_MPI, --variant=-DIO_HDF5):
 * an #if/#elif/#else chain with returns in every arm, a value return that
 * calls, and a braceless if whose return needs braces in one arm only. */
static const char *backend(void)
{
#if defined(IO_MPI)
    return "mpiio";
#elif defined(IO_HDF5)
    return getenv("ANNOTATE_NO_SUCH_VARIABLE") ? "hdf5-env" : "hdf5";
#else
    return "posix";
#endif
}

static int write_block(int n)
{
    int written = 0;
#if defined(IO_MPI)
    if (n <= 0)
        return 0;
    written = n * 2;
#elif defined(IO_HDF5)
    if (n > 100) return -1;
    written = n + 1;
#else
    written = n;
#endif
    printf("%s wrote %d\n", backend(), written);
#ifdef IO_HDF5
    return abs(written);
#else
    return written;
#endif
}

static void mark(void)
{
    fflush(stdout);
}

int main(void)
{
    int total = write_block(3);
    mark();
    total += write_block(0);
    mark();
    return total > 0 ? 0 : 1;
}
