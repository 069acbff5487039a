#include <stdarg.h>
#include <stdio.h>
#include <dftracer/dftracer.h>

/* printf on rank 0 only; the other ranks print nothing. */
int root_printf(int rank, const char *fmt, ...)
{
    DFTRACER_C_FUNCTION_START();
    va_list ap;
    int n;

    if (rank != 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
    va_start(ap, fmt);
    n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    DFTRACER_C_FUNCTION_END();
    return n;
}
