#include <stddef.h>

/* Checks a tile read back from the file; returns the first bad index. */
int verify_tile(const double *tile, int nx, int ny)
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            if (tile[i * ny + j] < 0.0)
                return i * ny + j;
    return -1;
}
