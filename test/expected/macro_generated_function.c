#include <stdio.h>
#include <dftracer/dftracer.h>

/* Defines a counter and the function that bumps it. */
#define DEFINE_COUNTER(name)                                                   \
    static long name##_count;                                                  \
    long name##_inc(void)                                                      \
    {                                                                          \
        return ++name##_count;                                                 \
    }

DEFINE_COUNTER(open)
DEFINE_COUNTER(close)

void print_counts(void)
{
    DFTRACER_C_FUNCTION_START();
    printf("open %ld close %ld\n", open_inc() - 1, close_inc() - 1);
    DFTRACER_C_FUNCTION_END();
}
