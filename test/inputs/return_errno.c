#include <errno.h>
#include <unistd.h>

/* Returns 0, or the errno of the failed fsync. */
int sync_file(int fd)
{
    if (fsync(fd) != 0)
        return errno;
    return 0;
}
