#include <errno.h>
#include <unistd.h>
#include <dftracer/dftracer.h>

/* Reads once, retrying while a signal interrupts the call. */
ssize_t read_retry(int fd, void *buf, size_t len)
{
    DFTRACER_C_FUNCTION_START();
    ssize_t n;

    do { /* annotate */
        n = read(fd, buf, len);
    }
    while (n < 0 && errno == EINTR);
    DFTRACER_C_FUNCTION_END();
    return n;
}

/* Writes once, retrying while a signal interrupts the call. */
ssize_t write_retry(int fd, const void *buf, size_t len)
{
    DFTRACER_C_FUNCTION_START();
    ssize_t n;

    do { /* annotate */ n = write(fd, buf, len); } while (n < 0 && errno == EINTR);
    DFTRACER_C_FUNCTION_END();
    return n;
}
