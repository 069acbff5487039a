#include <unistd.h>

/* Writes one record; the comments explain each early exit. */
int write_record(int fd, const void *buf, size_t len)
{
    ssize_t n;

    if (fd < 0)
        return -1;  /* file not open */
    if (len == 0) return 0; // nothing to write
    if (buf == NULL) return -1; /* no data */
    n = write(fd, buf, len);
    return n == (ssize_t)len ? 0 : -1;
}
