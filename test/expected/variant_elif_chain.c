#include <stdio.h>
#include <stdlib.h>
#include <dftracer/dftracer.h>

/* Three configurations (no flag, --variant=-DIO_MPI, --variant=-DIO_HDF5):
 * an #if/#elif/#else chain with returns in every arm, a value return that
 * calls, and a braceless if whose return needs braces in one arm only. */
static const char *backend(void)
{
    DFTRACER_C_FUNCTION_START();
#if defined(IO_MPI)
    DFTRACER_C_FUNCTION_END();
    return "mpiio";
#elif defined(IO_HDF5)
    { const char *annotate_ret = (getenv("ANNOTATE_NO_SUCH_VARIABLE") ? "hdf5-env" : "hdf5"); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
#else
    DFTRACER_C_FUNCTION_END();
    return "posix";
#endif
}

static int write_block(int n)
{
    DFTRACER_C_FUNCTION_START();
    int written = 0;
#if defined(IO_MPI)
    if (n <= 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
    written = n * 2;
#elif defined(IO_HDF5)
    if (n > 100) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; }
    written = n + 1;
#else
    written = n;
#endif
    printf("%s wrote %d\n", backend(), written);
#ifdef IO_HDF5
    { int annotate_ret = (abs(written)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
#else
    DFTRACER_C_FUNCTION_END();
    return written;
#endif
}

static void mark(void)
{
    DFTRACER_C_FUNCTION_START();
    fflush(stdout);
    DFTRACER_C_FUNCTION_END();
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int total = write_block(3);
    mark();
    total += write_block(0);
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return total > 0 ? 0 : 1;
}
