#include <stddef.h>
#include <dftracer/dftracer.h>

/* Hooks a backend may leave empty. */
void backend_init(void)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
}

void backend_fini(void) {
    DFTRACER_C_FUNCTION_START(); DFTRACER_C_FUNCTION_END(); }
