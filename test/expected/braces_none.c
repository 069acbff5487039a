#include <fcntl.h>
#include <unistd.h>
#include <dftracer/dftracer.h>

static int close_and_fail(int fd)
{
    DFTRACER_C_FUNCTION_START();
    close(fd);
    DFTRACER_C_FUNCTION_END();
    return -1;
}

/* Opens the output file and reserves `size` bytes in it. */
int open_output(const char *path, off_t size)
{
    DFTRACER_C_FUNCTION_START();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

    if (fd < 0)
        return -1;
    if (ftruncate(fd, size) != 0)
        { int annotate_ret = (close_and_fail(fd)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
    DFTRACER_C_FUNCTION_END();
    return fd;
}
