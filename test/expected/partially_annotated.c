#include <stdio.h>
#include <dftracer/dftracer.h>

/* Annotated by hand earlier. */
int open_log(const char *path, FILE **fp)
{
    DFTRACER_C_FUNCTION_START();
    *fp = fopen(path, "a");
    DFTRACER_C_FUNCTION_END();
    return *fp == NULL ? -1 : 0;
}

/* Added later, not annotated yet. */
int close_log(FILE *fp)
{
    DFTRACER_C_FUNCTION_START();
    if (fp == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return 0;
    }
    { int annotate_ret = (fclose(fp)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
