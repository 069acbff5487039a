/* IOR-style backend hook: a dry run creates nothing. */
#include <stdio.h>
#include <dftracer/dftracer.h>

FILE *create_output(const char *path, int dry_run)
{
    DFTRACER_C_FUNCTION_START();
    FILE *fp;

    if (dry_run) { /* annotate */ DFTRACER_C_FUNCTION_END(); return NULL; }
    fp = fopen(path, "w");
    DFTRACER_C_FUNCTION_END();
    return fp;
}
