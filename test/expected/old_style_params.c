#include <stdio.h>
#include <dftracer/dftracer.h>

static int verbose;

void print_banner()
{
    DFTRACER_C_FUNCTION_START();
    if (verbose)
        puts("h5 write benchmark");
    DFTRACER_C_FUNCTION_END();
}

int get_verbose()
{
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_FUNCTION_END();
    return verbose;
}
