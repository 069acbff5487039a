#include <stdio.h>

static int write_header(FILE *fp, int version);
int write_file(const char *path, int version);

int write_file(const char *path, int version)
{
    FILE *fp = fopen(path, "w");
    int rc;

    if (fp == NULL)
        return -1;
    rc = write_header(fp, version);
    fclose(fp);
    return rc;
}

static int write_header(FILE *fp, int version)
{
    return fprintf(fp, "# format %d\n", version) < 0 ? -1 : 0;
}
