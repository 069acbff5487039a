#include <stdio.h>

/* Checks the size of a read; verbose builds say what went wrong. */
int check_read(size_t got, size_t want)
{
    if (got != want)
#ifdef DEBUG_IO
        return fprintf(stderr, "short read: %zu of %zu\n", got, want), -1;
#else
        return -1;
#endif
    return 0;
}
