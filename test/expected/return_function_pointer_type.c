#include <string.h>
#include <dftracer/dftracer.h>

static int reduce_sum(int a, int b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return a + b;
}

static int reduce_max(int a, int b)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return a > b ? a : b;
}

/* Picks the reduction of an aggregated statistic by its name. */
int (*find_reduction(const char *name))(int, int)
{
    DFTRACER_C_FUNCTION_START();
    { __typeof__(int (*)(int, int)) annotate_ret = (strcmp(name, "max") == 0 ? reduce_max : reduce_sum); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
