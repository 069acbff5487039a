/* compute.c - compiled together with io.c in one command. */
#include "shared.h"

void compute_fill(char *buf, size_t n, int seed)
{
    for (size_t i = 0; i < n; i++)
        buf[i] = (char)('a' + (seed + (int)i) % 26);
}

unsigned long compute_checksum(const char *buf, size_t n)
{
    unsigned long sum = 0;
    if (n == 0) return 0;
    for (size_t i = 0; i < n; i++)
        sum = sum * 31 + (unsigned char)buf[i];
    return sum % 1000003;
}
