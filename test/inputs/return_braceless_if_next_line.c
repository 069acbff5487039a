#include <fcntl.h>

/* Opens a file of the test set for the read phase. */
int open_for_read(const char *path)
{
    int fd = open(path, O_RDONLY);

    if (fd < 0)
        return -1;
    return fd;
}
