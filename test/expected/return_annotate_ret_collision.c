#include <stdio.h>
#include <dftracer/dftracer.h>

static int finish(int status)
{
    DFTRACER_C_FUNCTION_START();
    fflush(stdout);
    DFTRACER_C_FUNCTION_END();
    return status;
}

/* A code that already uses the tool's variable name. */
int run_phase(int annotate_ret)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret_1 = (finish(annotate_ret)); DFTRACER_C_FUNCTION_END(); return annotate_ret_1; }
}
