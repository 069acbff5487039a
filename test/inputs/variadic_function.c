#include <stdarg.h>
#include <stdio.h>

/* printf on rank 0 only; the other ranks print nothing. */
int root_printf(int rank, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (rank != 0)
        return 0;
    va_start(ap, fmt);
    n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}
