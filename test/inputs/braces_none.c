#include <fcntl.h>
#include <unistd.h>

static int close_and_fail(int fd)
{
    close(fd);
    return -1;
}

/* Opens the output file and reserves `size` bytes in it. */
int open_output(const char *path, off_t size)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    if (fd < 0)
        return -1;
    if (ftruncate(fd, size) != 0)
        return close_and_fail(fd);
    return fd;
}
