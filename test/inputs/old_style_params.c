#include <stdio.h>

static int verbose;

void print_banner()
{
    if (verbose)
        puts("h5 write benchmark");
}

int get_verbose()
{
    return verbose;
}
