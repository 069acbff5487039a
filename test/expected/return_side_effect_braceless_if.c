#include <unistd.h>
#include <dftracer/dftracer.h>

/* Writes the buffer unless the phase is skipped. */
ssize_t write_or_skip(int fd, const void *buf, size_t len, int skip)
{
    DFTRACER_C_FUNCTION_START();
    if (!skip)
        { ssize_t annotate_ret = (write(fd, buf, len)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
    DFTRACER_C_FUNCTION_END();
    return 0;
}
