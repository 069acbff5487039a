/*
 * single_rank.c - single_rank_io: every rank opens the shared file, but
 * rank 0 writes all of it, 8 MiB in 1 MiB MPI_File_write_at calls (FIXED:
 * each rank writes its part with MPI_File_write_at_all).
 */
#include "scenario.h"

#define XFER (1 << 20)
#define BLOCKS 8

static void write_all_parts(MPI_File fh, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    int b;
    if (scenario_fixed) {
        for (b = scenario_rank; b < BLOCKS; b += scenario_size)
            MPI_File_write_at_all(fh, (MPI_Offset)b * XFER, buf, XFER,
                                  MPI_BYTE, MPI_STATUS_IGNORE);
    } else if (scenario_rank == 0) {
        for (b = 0; b < BLOCKS; b++)
            MPI_File_write_at(fh, (MPI_Offset)b * XFER, buf, XFER, MPI_BYTE,
                              MPI_STATUS_IGNORE);
    }
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    MPI_File fh;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer(XFER);
    scenario_path(path, sizeof(path), "field.dat", -1);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        scenario_fail(path);
    write_all_parts(fh, buf);
    MPI_File_close(&fh);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
