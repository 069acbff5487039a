/*
 * sync_writes.c - sync_per_write: each rank writes 60 blocks of 1 MiB
 * and calls fdatasync after each one (FIXED: one fdatasync at the end).
 */
#include "scenario.h"

#define BLOCKS 60
#define XFER (1 << 20)

static void save_steps(int fd, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    int i;
    for (i = 0; i < BLOCKS; i++) {
        if (write(fd, buf, XFER) != XFER)
            scenario_fail("write");
        if (!scenario_fixed)
            fdatasync(fd);
    }
    if (scenario_fixed)
        fdatasync(fd);
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    int fd;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer(XFER);
    scenario_path(path, sizeof(path), "steps", scenario_rank);
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        scenario_fail(path);
    save_steps(fd, buf);
    close(fd);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
