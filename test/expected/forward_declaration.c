#include <stdio.h>
#include <dftracer/dftracer.h>

static int write_header(FILE *fp, int version);
int write_file(const char *path, int version);

int write_file(const char *path, int version)
{
    DFTRACER_C_FUNCTION_START();
    FILE *fp = fopen(path, "w");
    int rc;

    if (fp == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return -1;
    }
    rc = write_header(fp, version);
    fclose(fp);
    DFTRACER_C_FUNCTION_END();
    return rc;
}

static int write_header(FILE *fp, int version)
{
    DFTRACER_C_FUNCTION_START();
    { int annotate_ret = (fprintf(fp, "# format %d\n", version) < 0 ? -1 : 0); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
