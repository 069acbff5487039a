#include <dftracer/dftracer.h>
int scale(int x);

/* A byte-order mark first, then code: the include goes after the mark. */
int scale(int x)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return x * 2;
}

int twice(int x)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (scale(scale(x))); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
