#include <unistd.h>
#include <dftracer/dftracer.h>

/* Syncs a file that received data and records whether it did. */
int sync_if_written(int fd, size_t written, int *synced)
{
    DFTRACER_C_FUNCTION_START();
    if (written > 0)
        if (fsync(fd) != 0) { /* annotate */
            DFTRACER_C_FUNCTION_END();
            return -1;
        }
        else
            *synced = 1;
    else
        *synced = 0;
    DFTRACER_C_FUNCTION_END();
    return 0;
}

/* Same shape on one line. */
int pick(int have_data, int ok)
{
    DFTRACER_C_FUNCTION_START();
    if (have_data) if (ok) { /* annotate */ DFTRACER_C_FUNCTION_END(); return 1; } else ok = -1; else ok = 0;
    DFTRACER_C_FUNCTION_END();
    return ok;
}
