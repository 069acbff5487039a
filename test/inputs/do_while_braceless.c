#include <errno.h>
#include <unistd.h>

/* Reads once, retrying while a signal interrupts the call. */
ssize_t read_retry(int fd, void *buf, size_t len)
{
    ssize_t n;

    do
        n = read(fd, buf, len);
    while (n < 0 && errno == EINTR);
    return n;
}

/* Writes once, retrying while a signal interrupts the call. */
ssize_t write_retry(int fd, const void *buf, size_t len)
{
    ssize_t n;

    do n = write(fd, buf, len); while (n < 0 && errno == EINTR);
    return n;
}
