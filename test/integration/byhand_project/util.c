#include "util.h"

void fill(int *data, int count, int rank)
{
    int i;

    for (i = 0; i < count; i++)
        data[i] = rank * count + i;
}
