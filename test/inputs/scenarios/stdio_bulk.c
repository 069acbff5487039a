/*
 * stdio_bulk.c - stdio_bulk: each rank writes 12 MiB to its own file with
 * fwrite of 1 MiB blocks (FIXED: write(2) of the same 1 MiB blocks).
 */
#include "scenario.h"

#define BLOCKS 12
#define XFER (1 << 20)

static void dump_table(const char *path, const char *buf)
{
    DFTRACER_C_FUNCTION_START();
    int i;
    if (scenario_fixed) {
        int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
        if (fd < 0)
            scenario_fail(path);
        for (i = 0; i < BLOCKS; i++)
            if (write(fd, buf, XFER) != XFER)
                scenario_fail("write");
        close(fd);
    } else {
        FILE *f = fopen(path, "w");
        if (!f)
            scenario_fail(path);
        for (i = 0; i < BLOCKS; i++)
            if (fwrite(buf, 1, XFER, f) != XFER)
                scenario_fail("fwrite");
        fclose(f);
    }
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    char *buf;
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    buf = scenario_buffer(XFER);
    scenario_path(path, sizeof(path), "table", scenario_rank);
    dump_table(path, buf);
    free(buf);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
