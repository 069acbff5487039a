/*
 * rank_imbalance.c - rank_imbalance (4 ranks): rank 0 writes 1 GiB to
 * its file, the others 8 MiB each, in 1 MiB writes (FIXED: rank 0 too
 * writes 8 MiB: its extra work moved out of the phase). The files are removed at the end.
 */
#include "scenario.h"

#define XFER (1 << 20)

static void write_part(int fd, const char *buf, int blocks)
{
    DFTRACER_C_FUNCTION_START();
    int i;
    for (i = 0; i < blocks; i++)
        if (write(fd, buf, XFER) != XFER)
            scenario_fail("write");
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    int fd, blocks;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    /* 1 GiB: into a fast machine's page cache 256 MiB took 0.10 s, at the
     * rule's min_seconds (0.1 s of excess over the median rank). */
    blocks = scenario_rank == 0 && !scenario_fixed ? 1024 : 8;
    buf = scenario_buffer(XFER);
    scenario_path(path, sizeof(path), "part", scenario_rank);
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        scenario_fail(path);
    write_part(fd, buf, blocks);
    close(fd);
    MPI_Barrier(MPI_COMM_WORLD);
    unlink(path);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
