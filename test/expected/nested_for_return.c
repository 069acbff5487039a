#include <stddef.h>
#include <dftracer/dftracer.h>

/* Checks a tile read back from the file; returns the first bad index. */
int verify_tile(const double *tile, int nx, int ny)
{
    DFTRACER_C_FUNCTION_START();
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (tile[i * ny + j] < 0.0) { /* annotate */
                DFTRACER_C_FUNCTION_END();
                return i * ny + j;
            }
    DFTRACER_C_FUNCTION_END();
    return -1;
}
