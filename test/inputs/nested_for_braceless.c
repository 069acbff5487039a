#include <stddef.h>

/* Fills a 2-D tile with its global indices before it is written. */
void fill_tile(double *tile, int nx, int ny, int x0, int y0, int gny)
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            tile[i * ny + j] = (double)(x0 + i) * gny + (y0 + j);
}
