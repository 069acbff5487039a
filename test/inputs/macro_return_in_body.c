#include <stdio.h>

#define CHECK(x) if (!(x)) return -1

/* Reads the header line of a checkpoint file. */
int read_header(FILE *fp, int *version, long *nrecords)
{
    CHECK(fp != NULL);
    CHECK(fscanf(fp, "%d %ld", version, nrecords) == 2);
    return 0;
}
