#include <assert.h>
#include <stdio.h>

/* Writes `count` records of `size` bytes; sizes must be block aligned. */
size_t write_records(FILE *fp, const void *buf, size_t size, size_t count,
                     size_t block)
{
    size_t n;

    assert(fp != NULL &&
           buf != NULL &&
           size % block == 0);
    n = fwrite(buf, size, count, fp);
    return n;
}
