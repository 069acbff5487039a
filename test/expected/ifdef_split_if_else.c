#define _GNU_SOURCE
#include <fcntl.h>
#include <dftracer/dftracer.h>

/* Open flags of the read phase; O_DIRECT where the platform has it. */
int read_flags(int direct)
{
    DFTRACER_C_FUNCTION_START();
#ifdef O_DIRECT
    if (direct) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return O_RDONLY | O_DIRECT;
    }
    else
#endif
        return O_RDONLY;
}
