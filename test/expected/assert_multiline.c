#include <assert.h>
#include <stdio.h>
#include <dftracer/dftracer.h>

/* Writes `count` records of `size` bytes; sizes must be block aligned. */
size_t write_records(FILE *fp, const void *buf, size_t size, size_t count,
                     size_t block)
{
    DFTRACER_C_FUNCTION_START();
    size_t n;

    assert(fp != NULL &&
           buf != NULL &&
           size % block == 0);
    n = fwrite(buf, size, count, fp);
    DFTRACER_C_FUNCTION_END();
    return n;
}
