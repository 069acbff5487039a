#include <mpi.h>
#include <dftracer/dftracer.h>

static void barrier(MPI_Comm comm)
{
    DFTRACER_C_FUNCTION_START();
    MPI_Barrier(comm);
    DFTRACER_C_FUNCTION_END();
}

/* Synchronises all ranks before a timed phase. */
void start_phase(MPI_Comm comm)
{
    DFTRACER_C_FUNCTION_START();
    { (barrier(comm)); DFTRACER_C_FUNCTION_END(); return; }
}
