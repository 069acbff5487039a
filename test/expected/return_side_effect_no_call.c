#include <stddef.h>
#include <dftracer/dftracer.h>

static int next_id;

/* Hands out request ids in order. */
int new_request_id(void)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (next_id++); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
