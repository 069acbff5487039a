#include <unistd.h>

/* Syncs a file that received data and records whether it did. */
int sync_if_written(int fd, size_t written, int *synced)
{
    if (written > 0)
        if (fsync(fd) != 0)
            return -1;
        else
            *synced = 1;
    else
        *synced = 0;
    return 0;
}

/* Same shape on one line. */
int pick(int have_data, int ok)
{
    if (have_data) if (ok) return 1; else ok = -1; else ok = 0;
    return ok;
}
