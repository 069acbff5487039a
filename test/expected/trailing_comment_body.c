#include <unistd.h>
#include <dftracer/dftracer.h>

/* Writes one record; the comments explain each early exit. */
int write_record(int fd, const void *buf, size_t len)
{
    DFTRACER_C_FUNCTION_START();
    ssize_t n;

    if (fd < 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;  /* file not open */
    }
    if (len == 0) { /* annotate */ DFTRACER_C_FUNCTION_END(); return 0; // nothing to write
    }
    if (buf == NULL) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; /* no data */ }
    n = write(fd, buf, len);
    DFTRACER_C_FUNCTION_END();
    return n == (ssize_t)len ? 0 : -1;
}
