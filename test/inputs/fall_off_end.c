#include <stdio.h>
#include <unistd.h>

/* Writes the buffer once; a short write is reported, not retried. */
void write_once(int fd, const char *buf, size_t len)
{
    ssize_t n = write(fd, buf, len);

    if (n < 0)
        perror("write");
    else if ((size_t)n < len)
        fprintf(stderr, "short write: %zd of %zu bytes\n", n, len);
}

/* Every path returns, though the last line is not a return. */
int classify(ssize_t n, size_t want)
{
    if (n < 0) {
        return -1;
    } else {
        return (size_t)n == want ? 0 : 1;
    }
}
