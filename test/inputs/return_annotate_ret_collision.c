#include <stdio.h>

static int finish(int status)
{
    fflush(stdout);
    return status;
}

/* A code that already uses the tool's variable name. */
int run_phase(int annotate_ret)
{
    return finish(annotate_ret);
}
