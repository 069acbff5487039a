#include <fcntl.h>
#include <dftracer/dftracer.h>

/* Opens a file of the test set for the read phase. */
int open_for_read(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    int fd = open(path, O_RDONLY);

    if (fd < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    DFTRACER_C_FUNCTION_END();
    return fd;
}
