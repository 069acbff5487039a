#include <stdio.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    FILE *fp = fopen(argc > 1 ? argv[1] : "trace.log", "r");

    if (fp == NULL) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        DFTRACER_C_FINI();
        return 1;
    }
    fclose(fp);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    return 0;
}
