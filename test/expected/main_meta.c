#include <mpi.h>
#include <dftracer/dftracer.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    DFTRACER_C_METADATA(annotate_meta_0, "app", "demo");
    DFTRACER_C_METADATA(annotate_meta_1, "version", "1.2");
    MPI_Barrier(MPI_COMM_WORLD);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
