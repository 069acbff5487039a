/* legacy_sum.c - uses a GCC nested function, which Clang cannot parse:
 * annotate fails on this file, so annotate_target compiles it as it is and
 * says so (or stops the build with STRICT). */
#include "legacy_sum.h"

long legacy_sum(const char *buf, size_t n)
{
    long total = 0;
    void add(char c) { total += c; }
    for (size_t i = 0; i < n; i++)
        add(buf[i]);
    return total;
}
