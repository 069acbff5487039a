#include <stdio.h>
#include <dftracer/dftracer.h>

#define CHECK(x) if (!(x)) return -1

/* Reads the header line of a checkpoint file. */
int read_header(FILE *fp, int *version, long *nrecords)
{
    DFTRACER_C_FUNCTION_START();
    CHECK(fp != NULL);
    CHECK(fscanf(fp, "%d %ld", version, nrecords) == 2);
    DFTRACER_C_FUNCTION_END();
    return 0;
}
