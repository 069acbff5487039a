#include <stdio.h>

/* Functions declared pure or const promise no side effects: the compiler
 * may merge, hoist or drop their calls, so a span would be wrong and its
 * side effects would break the promise. They are skipped with their own
 * reason ("pure or const"), like constexpr in C++; HDF5 marks such
 * functions H5_ATTR_PURE. */
#define H5_ATTR_PURE __attribute__((pure))
#define H5_ATTR_CONST __attribute__((const))

H5_ATTR_PURE static unsigned log2_gen(unsigned long long n)
{
    unsigned r = 0;
    while (n >>= 1)
        r++;
    return r;
}

static int count_set(const unsigned char *p, int n) __attribute__((pure));

static int count_set(const unsigned char *p, int n)
{
    int c = 0;
    for (int i = 0; i < n; i++)
        c += p[i] != 0;
    return c;
}

static int square(int x) H5_ATTR_CONST;

static int square(int x)
{
    int y = x * x;
    return y;
}

void report(const unsigned char *p, int n)
{
    printf("%u %d %d\n", log2_gen(1024), count_set(p, n), square(n));
}
