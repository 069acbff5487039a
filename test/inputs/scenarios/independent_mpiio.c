/*
 * independent_mpiio.c - independent_mpiio: the ranks write one shared file
 * in 200 rounds of 64 KiB each, interleaved by rank, with independent
 * MPI_File_write_at (FIXED, or --fixed: the collective
 * MPI_File_write_at_all).
 */
#include "scenario.h"

#define ROUNDS 200
#define XFER 65536

static void write_shared(MPI_File fh, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    int r;
    for (r = 0; r < ROUNDS; r++) {
        MPI_Offset off = ((MPI_Offset)r * scenario_size + scenario_rank) * XFER;
        if (scenario_fixed)
            MPI_File_write_at_all(fh, off, buf, XFER, MPI_BYTE,
                                  MPI_STATUS_IGNORE);
        else
            MPI_File_write_at(fh, off, buf, XFER, MPI_BYTE, MPI_STATUS_IGNORE);
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
    scenario_path(path, sizeof(path), "shared.dat", -1);
    if (MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY,
                      MPI_INFO_NULL, &fh) != MPI_SUCCESS)
        scenario_fail(path);
    write_shared(fh, buf);
    MPI_File_close(&fh);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
