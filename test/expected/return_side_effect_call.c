#include <stdio.h>
#include <dftracer/dftracer.h>

/* Terminates a JSON trace file and closes it; returns fclose's result. */
int close_trace(FILE *fp)
{
    DFTRACER_C_FUNCTION_START();
    fputs("]\n", fp);
    { int annotate_ret = (fclose(fp)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
