/*
 * Checksum the benchmark uses to verify data read back from the file.
 * Kept free of any header so that it builds on every platform.
 */
#include <dftracer/dftracer.h>

/* FNV-1a over a buffer. */
unsigned long checksum(const unsigned char *buf, unsigned long n)
{
    DFTRACER_C_FUNCTION_START();
    unsigned long h = 14695981039346656037UL;

    for (unsigned long i = 0; i < n; i++)
        h = (h ^ buf[i]) * 1099511628211UL;
    DFTRACER_C_FUNCTION_END();
    return h;
}
