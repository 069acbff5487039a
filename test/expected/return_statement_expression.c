#include <stdio.h>
#include <dftracer/dftracer.h>

/* A return inside the value of a return: a GNU statement expression
 * (issue 38). The inner returns get their END inside the copied value, and
 * the value is still computed inside the span; neither edit is dropped. */
static int fail(int code)
{
    DFTRACER_C_FUNCTION_START();
    printf("fail %d\n", code);
    DFTRACER_C_FUNCTION_END();
    return code;
}

static int half(int x)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (({ if (x < 0) { /* annotate */ DFTRACER_C_FUNCTION_END(); return -1; } x / 2; })); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static int checked_half(int x)
{
    DFTRACER_C_FUNCTION_START();
    if (x > 100) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 100;
    }
    { int annotate_ret = (({
        if (x < 0)
            { int annotate_ret = (fail(x)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
        x / 2;
    })); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}

static void mark(void)
{
    DFTRACER_C_FUNCTION_START();
    fflush(stdout);
    DFTRACER_C_FUNCTION_END();
}

int main(void)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    int status = 0;

    status |= half(4) != 2;
    mark();
    status |= half(-4) != -1;
    mark();
    status |= checked_half(-3) != -3;
    mark();
    status |= checked_half(6) != 3;
    mark();
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return status;
}
