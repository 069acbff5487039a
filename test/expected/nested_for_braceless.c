#include <stddef.h>
#include <dftracer/dftracer.h>

/* Fills a 2-D tile with its global indices before it is written. */
void fill_tile(double *tile, int nx, int ny, int x0, int y0, int gny)
{
    DFTRACER_C_FUNCTION_START();
    for (int i = 0; i < nx; i++) { /* annotate */
        for (int j = 0; j < ny; j++) { /* annotate */
            tile[i * ny + j] = (double)(x0 + i) * gny + (y0 + j);
        }
    }
    DFTRACER_C_FUNCTION_END();
}
