#include <stdio.h>

/* Prints a progress line on rank 0 only. */
void report_progress(int rank, int step, int nsteps)
{
    if (rank != 0)
        return;
    printf("step %d/%d\n", step, nsteps);
}
