#include <errno.h>
#include <unistd.h>
#include <dftracer/dftracer.h>

/* Returns 0, or the errno of the failed fsync. */
int sync_file(int fd)
{
    DFTRACER_C_FUNCTION_START();
    if (fsync(fd) != 0)
        { int annotate_ret = (errno); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
    DFTRACER_C_FUNCTION_END();
    return 0;
}
