#include <mpi.h>
#include <dftracer/dftracer.h>

/* Each rank writes its block of the shared file at its own offset. */
int write_block(MPI_File fh, int rank, const double *buf, int count)
{
    DFTRACER_C_FUNCTION_START();
    MPI_Offset offset = (MPI_Offset)rank * count * (MPI_Offset)sizeof(double);

    { int annotate_ret = (MPI_File_write_at_all(fh, offset, buf, count, MPI_DOUBLE,
                                 MPI_STATUS_IGNORE)); DFTRACER_C_FUNCTION_END(); return annotate_ret; }
}
