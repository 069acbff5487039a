#include <stdio.h>
#include <dftracer/dftracer.h>

/* Prints a progress line on rank 0 only. */
void report_progress(int rank, int step, int nsteps)
{
    DFTRACER_C_FUNCTION_START();
    if (rank != 0) { /* annotate */
        DFTRACER_C_FUNCTION_END();
        return;
    }
    printf("step %d/%d\n", step, nsteps);
    DFTRACER_C_FUNCTION_END();
}
