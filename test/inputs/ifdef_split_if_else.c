#define _GNU_SOURCE
#include <fcntl.h>

/* Open flags of the read phase; O_DIRECT where the platform has it. */
int read_flags(int direct)
{
#ifdef O_DIRECT
    if (direct)
        return O_RDONLY | O_DIRECT;
    else
#endif
        return O_RDONLY;
}
