/*
 * metadata_reopen.c - metadata_heavy: each rank appends 400 log lines to
 * its own file, opening and closing the file for every line (FIXED: one
 * open, 400 writes, one close).
 */
#include "scenario.h"

#define LINES 400

static void append_log(const char *path)
{
    DFTRACER_C_FUNCTION_START();
    char line[64];
    int i, fd = -1;
    if (scenario_fixed) {
        fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0644);
        if (fd < 0)
            scenario_fail(path);
    }
    for (i = 0; i < LINES; i++) {
        int n = snprintf(line, sizeof(line), "step %d of rank %d\n", i,
                         scenario_rank);
        if (!scenario_fixed) {
            fd = open(path, O_CREAT | O_WRONLY | O_APPEND, 0644);
            if (fd < 0)
                scenario_fail(path);
        }
        if (write(fd, line, n) != n)
            scenario_fail("write");
        if (!scenario_fixed)
            close(fd);
    }
    if (scenario_fixed)
        close(fd);
    DFTRACER_C_FUNCTION_END();
}

int main(int argc, char **argv)
{
    char path[4096];
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    scenario_path(path, sizeof(path), "log", scenario_rank);
    unlink(path);
    append_log(path);
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
