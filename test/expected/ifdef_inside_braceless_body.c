#include <stdio.h>
#include <dftracer/dftracer.h>

/* Checks the size of a read; verbose builds say what went wrong. */
int check_read(size_t got, size_t want)
{
    DFTRACER_C_FUNCTION_START();
    if (got != want)
#ifdef DEBUG_IO
        return fprintf(stderr, "short read: %zu of %zu\n", got, want), -1;
#else
        return -1;
#endif
    DFTRACER_C_FUNCTION_END();
    return 0;
}
