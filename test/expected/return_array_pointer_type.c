#include <stddef.h>
#include <dftracer/dftracer.h>

static size_t halo;

static size_t halo_rows(void)
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return halo;
}

/* First interior row of a tile whose halo rows come first. */
double (*tile_interior(double (*tile)[8]))[8]
{
    DFTRACER_C_FUNCTION_START();
    { __typeof__(double (*)[8]) annotate_ret = (tile + halo_rows()); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
