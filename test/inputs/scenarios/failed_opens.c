/*
 * failed_opens.c - failed_calls: each rank looks for 50 input files that
 * are not there, and carries on (FIXED: it creates them first, then opens
 * and reads them).
 */
#include "scenario.h"

#define INPUTS 50

static int read_inputs(void)
{
    DFTRACER_C_FUNCTION_START();
    char path[4096], name[64], byte;
    int i, found = 0;
    for (i = 0; i < INPUTS; i++) {
        int fd;
        snprintf(name, sizeof(name), "input-%03d", i);
        scenario_path(path, sizeof(path), name, scenario_rank);
        fd = open(path, O_RDONLY);
        if (fd < 0)
            continue; /* the error path this scenario measures */
        if (read(fd, &byte, 1) == 1)
            found++;
        close(fd);
    }
    DFTRACER_C_FUNCTION_END();
    return found;
}

int main(int argc, char **argv)
{
    scenario_start(&argc, &argv);
    DFTRACER_C_INIT(NULL, NULL, NULL);
    DFTRACER_C_FUNCTION_START();
    if (scenario_fixed) {
        char path[4096], name[64];
        int i;
        for (i = 0; i < INPUTS; i++) {
            int fd;
            snprintf(name, sizeof(name), "input-%03d", i);
            scenario_path(path, sizeof(path), name, scenario_rank);
            fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
            if (fd < 0 || write(fd, "x", 1) != 1)
                scenario_fail(path);
            close(fd);
        }
    }
    printf("rank %d: %d inputs read\n", scenario_rank, read_inputs());
    DFTRACER_C_FUNCTION_END();
    DFTRACER_C_FINI();
    MPI_Finalize();
    return 0;
}
