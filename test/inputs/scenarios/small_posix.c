/*
 * small_posix.c - small_requests: each rank writes 8 MiB to its own file
 * in 2048 pwrite calls of 4 KiB (FIXED: 8 calls of 1 MiB).
 */
#include "scenario.h"

#define TOTAL (8 << 20)

static void write_records(int fd, const char *buf, ssize_t xfer)
{
    DFTRACER_C_FUNCTION_START();
    off_t off;
    for (off = 0; off < TOTAL; off += xfer)
        if (pwrite(fd, buf, (size_t)xfer, off) != xfer)
            scenario_fail("pwrite");
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    int fd;
    ssize_t xfer;
    scenario_start(&argc, &argv);
    xfer = scenario_fixed ? 1 << 20 : 4096;
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer((size_t)xfer);
    scenario_path(path, sizeof(path), "records", scenario_rank);
    fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
    if (fd < 0)
        scenario_fail(path);
    write_records(fd, buf, xfer);
    close(fd);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
